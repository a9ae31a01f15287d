import Crypto
import CryptoExtras
import Logging
import MyworkoutCore
import MyworkoutServices
import PostgresNIO

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ServerStores {
  /// The stores of one instance among several: everything in the PostgreSQL database at `url`.
  /// On start (on one connection, before the pool): the schema migrated, the seeded account
  /// added once per deployment, the deployment's signing key made by whichever instance comes
  /// first, the catalog imported when the file differs from what the database holds.
  package static func postgres(
    url: DatabaseURL, options: ServerOptions, logger: Logger
  ) async throws -> (stores: ServerStores, database: PostgresDatabase) {
    let hasher = PasswordHasher(iterations: options.hasherIterations)
    let signer = SignerBox()
    let catalogFile = options.catalog ?? options.assets + "/classes.csv"
    let shipped = options.assets + "/classes.csv"
    let database = try await PostgresDatabase.open(
      url: url, logger: logger, callTimeout: options.databaseCallTimeout
    ) { connection in
      try await PostgresSetup.seed(on: connection, hasher: hasher, logger: logger)
      signer.value = try await PostgresSetup.signingKey(on: connection, logger: logger)
      try await PostgresCatalogStore.importIfChanged(
        file: catalogFile, shipped: shipped, on: connection, logger: logger)
    }
    guard let key = signer.value else { throw StoreError(failed: "no signing key") }
    let stores = ServerStores(
      accounts: PostgresAccountStore(database: database),
      progress: PostgresProgressStore(
        database: database, classLimit: options.progressClassLimit,
        lessonEventLimit: options.lessonEventLimit, appliedKeyLimit: options.appliedKeyLimit),
      catalog: PostgresCatalogStore(database: database),
      signer: key,
      loginLimiter: PostgresRateLimiter(
        database: database, name: "login", limit: options.loginLimit),
      lookupLimiter: PostgresRateLimiter(
        database: database, name: "lookup", limit: options.lookupLimit),
      changes: DeploymentChangeLock(database: database))
    return (stores, database)
  }
}

/// Carries the signer out of the start-up closure.
private final class SignerBox: @unchecked Sendable {
  var value: RS256Signer?
}

enum PostgresSetup {
  /// The seeded account (registered@email.com), once per deployment: a `meta` row remembers it
  /// was added, so deleting it later does not bring it back.
  static func seed(
    on connection: PostgresConnection, hasher: PasswordHasher, logger: Logger
  ) async throws {
    let seeded = try await connection.query(
      "SELECT value FROM meta WHERE key = 'seeded'", logger: logger
    ).collect()
    guard seeded.isEmpty else { return }
    let account = StoredAccount(
      id: AccountID.seed, profile: SeedAccount.profile,
      password: try hasher.hash(SeedAccount.password))
    let (id, email, profile, password) = try PostgresAccountStore.columns(account)
    let now = Int64(Date().timeIntervalSince1970)
    try await connection.withTransaction(logger: logger) { connection in
      try await connection.query(
        """
        INSERT INTO accounts (id, email, profile, password, created)
        VALUES (\(id), \(email), \(profile), \(password), \(now)) ON CONFLICT DO NOTHING
        """, logger: logger)
      try await connection.query(
        "INSERT INTO meta (key, value) VALUES ('seeded', '1') ON CONFLICT DO NOTHING",
        logger: logger)
    }
  }

  /// The deployment's RS256 key: read, else made and inserted; when two instances make one at
  /// once, the first insert wins and both read it back.
  static func signingKey(on connection: PostgresConnection, logger: Logger) async throws
    -> RS256Signer
  {
    func stored() async throws -> RS256Signer? {
      for try await pem in try await connection.query(
        "SELECT pem FROM signing_keys WHERE id = 1", logger: logger
      ).decode(String.self) {
        return try RS256Signer(key: _RSA.Signing.PrivateKey(pemRepresentation: pem))
      }
      return nil
    }
    if let signer = try await stored() { return signer }
    let pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
    try await connection.query(
      "INSERT INTO signing_keys (id, pem) VALUES (1, \(pem)) ON CONFLICT DO NOTHING",
      logger: logger)
    guard let signer = try await stored() else {
      throw StoreError(failed: "the signing key could not be stored")
    }
    return signer
  }
}
