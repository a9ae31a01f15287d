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
    let database = try await PostgresDatabase.open(url: url, logger: logger) { connection in
      try await PostgresSetup.seed(on: connection, hasher: hasher, logger: logger)
      signer.value = try await PostgresSetup.signingKey(on: connection, logger: logger)
      try await PostgresCatalogStore.importIfChanged(
        file: catalogFile, shipped: shipped, on: connection, logger: logger)
    }
    guard let key = signer.value else { throw StoreError(failed: "no signing key") }
    let stores = ServerStores(
      accounts: PostgresAccountStore(database: database),
      progress: PostgresProgressStore(database: database),
      catalog: PostgresCatalogStore(database: database),
      signer: key,
      loginLimiter: PostgresRateLimiter(
        database: database, name: "login", limit: options.loginLimit),
      lookupLimiter: PostgresRateLimiter(
        database: database, name: "lookup", limit: options.lookupLimit))
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

// MARK: Accounts

/// Accounts in the `accounts` table: the same JSON profile and salted slow hash as SQLite's,
/// and the account's id (migration 4).
package struct PostgresAccountStore: AccountStoring {
  let database: PostgresDatabase

  static func columns(_ account: StoredAccount) throws -> (
    id: String, email: String, profile: String, password: String
  ) {
    guard let id = account.id, !id.isEmpty else {
      throw StoreError(failed: "an account cannot be stored without its id")
    }
    let encoder = JSONEncoder()
    return (
      id, Email.normalized(account.profile.email),
      String(decoding: try encoder.encode(account.profile), as: UTF8.self),
      String(decoding: try encoder.encode(account.password), as: UTF8.self)
    )
  }

  static func account(id: String, profile: String, password: String) throws -> StoredAccount {
    let decoder = JSONDecoder()
    return StoredAccount(
      id: id, profile: try decoder.decode(Profile.self, from: Data(profile.utf8)),
      password: try decoder.decode(PasswordHash.self, from: Data(password.utf8)))
  }

  package func account(email: String) async throws -> StoredAccount? {
    let key = Email.normalized(email)
    return try await database.call("read the account") { client in
      for try await (id, profile, password) in try await client.query(
        "SELECT id, profile, password FROM accounts WHERE email = \(key)"
      ).decode((String, String, String).self) {
        return try Self.account(id: id, profile: profile, password: password)
      }
      return nil
    }
  }

  package func account(id: String) async throws -> StoredAccount? {
    try await database.call("read the account") { client in
      for try await (id, profile, password) in try await client.query(
        "SELECT id, profile, password FROM accounts WHERE id = \(id)"
      ).decode((String, String, String).self) {
        return try Self.account(id: id, profile: profile, password: password)
      }
      return nil
    }
  }

  package func insert(_ account: StoredAccount) async throws -> Bool {
    let (id, email, profile, password) = try Self.columns(account)
    let now = Int64(Date().timeIntervalSince1970)
    return try await database.call("save the account") { client in
      let rows = try await client.query(
        """
        INSERT INTO accounts (id, email, profile, password, created)
        VALUES (\(id), \(email), \(profile), \(password), \(now))
        ON CONFLICT DO NOTHING RETURNING 1
        """
      ).collect()
      return !rows.isEmpty
    }
  }

  package func updateMobile(id: String, mobile: String) async throws -> Profile? {
    try await database.transaction("save the mobile number") { connection in
      var found: StoredAccount?
      for try await (id, profile, password) in try await connection.query(
        "SELECT id, profile, password FROM accounts WHERE id = \(id) FOR UPDATE",
        logger: database.logger
      ).decode((String, String, String).self) {
        found = try Self.account(id: id, profile: profile, password: password)
      }
      guard var account = found else { return nil }
      account.profile.mobile = mobile
      let profile = try Self.columns(account).profile
      try await connection.query(
        "UPDATE accounts SET profile = \(profile) WHERE id = \(id)", logger: database.logger)
      return account.profile
    }
  }
}

// MARK: Progress

/// Watch progress and lesson events. The watched intervals are an `int8multirange`: a save is
/// one `INSERT … ON CONFLICT DO UPDATE` that unites them (`+`) and adds the time in the
/// database, under the row's lock, so concurrent saves from any instances never lose one.
package struct PostgresProgressStore: ProgressStoring {
  let database: PostgresDatabase

  package func progress(account: String, classID: String) async throws -> ClassProgress {
    try await database.call("read progress") { client in
      for try await row in try await client.query(
        """
        SELECT position, watched::text, time_in_class FROM class_progress
        WHERE account = \(account) AND class = \(classID)
        """
      ).decode((Int64, String, Int64).self) {
        return try Self.progress(row)
      }
      return ClassProgress()
    }
  }

  package func record(_ update: ProgressUpdate) async throws -> ClassProgress {
    let logger = database.logger
    // One statement: no transaction around it.
    return try await database.call("save progress") { client in
      try await client.withConnection { connection in
        try await Self.merge(update, on: connection, logger: logger)
      }
    }
  }

  /// One save, merged in the database under the row's lock: intervals united, time added, and
  /// the position replaced only by a change made at least as late as the stored one's (a change
  /// without a time is made now, by the database's clock).
  static func merge(_ update: ProgressUpdate, on connection: PostgresConnection, logger: Logger)
    async throws -> ClassProgress
  {
    let position = Int64(max(0, update.position))
    let watched = multirange(update.played)
    let added = Int64(
      ProgressBounds.clamp(update.addedTimeInClass, to: ProgressBounds.timeInClassMilliseconds))
    let cap = Int64(ProgressBounds.timeInClassMilliseconds)
    let account = update.account
    let classID = update.classID
    let changedAt = update.changedAt
    for try await row in try await connection.query(
      """
      INSERT INTO class_progress AS p (account, class, position, watched, time_in_class,
        position_at)
      VALUES (\(account), \(classID), \(position), \(watched)::int8multirange, \(added),
        COALESCE(\(changedAt)::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint))
      ON CONFLICT (account, class) DO UPDATE SET
        position = CASE WHEN p.position_at IS NULL OR EXCLUDED.position_at >= LEAST(
            p.position_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
          THEN EXCLUDED.position ELSE p.position END,
        position_at = GREATEST(
          LEAST(p.position_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint),
          EXCLUDED.position_at),
        watched = p.watched + EXCLUDED.watched,
        time_in_class = LEAST(LEAST(p.time_in_class, \(cap)) + EXCLUDED.time_in_class, \(cap))
      RETURNING position, watched::text, time_in_class
      """, logger: logger
    ).decode((Int64, String, Int64).self) {
      return try progress(row)
    }
    throw StoreError(failed: "Could not save progress: no row came back.")
  }

  /// The key is inserted first: a concurrent retry with the same key waits on it, then finds
  /// it applied and reads the merged row.
  package func record(_ update: ProgressUpdate, key: IdempotencyKey) async throws -> Applied<
    ClassProgress
  > {
    let account = update.account
    let classID = update.classID
    let logger = database.logger
    return try await database.transaction("save progress") { connection in
      if let request = try await Self.claim(key, account: account, on: connection, logger: logger) {
        guard request == key.request else { return .keyReused }
        for try await row in try await connection.query(
          """
          SELECT position, watched::text, time_in_class FROM class_progress
          WHERE account = \(account) AND class = \(classID)
          """, logger: logger
        ).decode((Int64, String, Int64).self) {
          return .replayed(try Self.progress(row))
        }
        return .replayed(ClassProgress())
      }
      return .applied(try await Self.merge(update, on: connection, logger: logger))
    }
  }

  /// Remembers `key` for `account` (inside the caller's transaction); nil when it is new, else
  /// the request it was applied to before.
  static func claim(
    _ key: IdempotencyKey, account: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> String? {
    let inserted = try await connection.query(
      """
      INSERT INTO applied_changes (account, key, request)
      VALUES (\(account), \(key.value), \(key.request))
      ON CONFLICT DO NOTHING RETURNING 1
      """, logger: logger
    ).collect()
    guard inserted.isEmpty else { return nil }
    for try await request in try await connection.query(
      "SELECT request FROM applied_changes WHERE account = \(account) AND key = \(key.value)",
      logger: logger
    ).decode(String.self) {
      return request
    }
    throw StoreError(failed: "Could not save the change: its key could not be read back.")
  }

  package func watchedPercents(account: String, classes: [DanceClass]) async throws
    -> [String: Int]
  {
    let durations = Dictionary(
      classes.map { ($0.id, $0.durationMilliseconds) }, uniquingKeysWith: { first, _ in first })
    let ids = Array(durations.keys)
    return try await database.call("read progress") { client in
      var percents: [String: Int] = [:]
      for try await (classID, watched) in try await client.query(
        """
        SELECT class, watched::text FROM class_progress
        WHERE account = \(account) AND class = ANY(\(ids))
        """
      ).decode((String, String).self) {
        guard let duration = durations[classID], let set = Self.intervals(watched) else {
          continue
        }
        percents[classID] = set.watchedPercent(duration: duration)
      }
      return percents
    }
  }

  package func completions(account: String) async throws -> [LessonCompletion] {
    try await database.call("read lesson completions") { client in
      var result: [LessonCompletion] = []
      for try await (lesson, round, started, completed) in try await client.query(
        """
        SELECT e.lesson, e.round, e.started, e.completed FROM lesson_events e
        WHERE e.account = \(account)
          AND e.round = coalesce(
            (SELECT round FROM lesson_rounds WHERE account = \(account)), 1)
        ORDER BY e.id
        """
      ).decode((String, Int, Int64, Int64).self) {
        result.append(
          LessonCompletion(
            lessonID: lesson, round: round, started: Date(timeIntervalSince1970: Double(started)),
            completed: Date(timeIntervalSince1970: Double(completed))))
      }
      return result
    }
  }

  package func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date
  ) async throws -> LessonCompletion? {
    let logger = database.logger
    return try await database.transaction("save the lesson completion") { connection in
      let round = try await Self.currentRound(account: account, on: connection, logger: logger)
      return try await Self.file(
        lessonID, started: started, completed: completed, account: account, round: round,
        anyVisit: true, on: connection, logger: logger)
    }
  }

  package func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date, key: IdempotencyKey
  ) async throws -> Applied<LessonCompletion?> {
    let logger = database.logger
    return try await database.transaction("save the lesson completion") { connection in
      let round = try await Self.currentRound(account: account, on: connection, logger: logger)
      if let request = try await Self.claim(key, account: account, on: connection, logger: logger) {
        guard request == key.request else { return .keyReused }
        // The round's event of this visit, else of this lesson.
        let visit = Int64(started.timeIntervalSince1970.rounded(.down))
        for try await (started, completed) in try await connection.query(
          """
          SELECT started, completed FROM lesson_events
          WHERE account = \(account) AND round = \(round) AND lesson = \(lessonID)
          ORDER BY started IS DISTINCT FROM \(visit), id LIMIT 1
          """, logger: logger
        ).decode((Int64, Int64).self) {
          return .replayed(
            LessonCompletion(
              lessonID: lessonID, round: round,
              started: Date(timeIntervalSince1970: Double(started)),
              completed: Date(timeIntervalSince1970: Double(completed))))
        }
        return .replayed(nil)
      }
      return .applied(
        try await Self.file(
          lessonID, started: started, completed: completed, account: account, round: round,
          anyVisit: false, on: connection, logger: logger))
    }
  }

  /// The account's round, its row locked for share (inside the caller's transaction): a
  /// concurrent Start over cannot slip between reading the round and filing an event under it.
  static func currentRound(account: String, on connection: PostgresConnection, logger: Logger)
    async throws -> Int
  {
    for try await value in try await connection.query(
      "SELECT round FROM lesson_rounds WHERE account = \(account) FOR SHARE", logger: logger
    ).decode(Int.self) {
      return value
    }
    return 1
  }

  /// Files the event under `round`; the event as stored (to the second), or nil when the round
  /// has one for that visit (`started`) or, `anyVisit`, for that lesson at all.
  static func file(
    _ lessonID: String, started: Date, completed: Date, account: String, round: Int,
    anyVisit: Bool, on connection: PostgresConnection, logger: Logger
  ) async throws -> LessonCompletion? {
    let start = Int64(started.timeIntervalSince1970.rounded(.down))
    let end = Int64(completed.timeIntervalSince1970.rounded(.down))
    if anyVisit {
      // Two such completions of one lesson at once (any instances) take turns at the check.
      try await connection.query(
        "SELECT pg_advisory_xact_lock(hashtextextended(\(account) || '/' || \(lessonID), 0))",
        logger: logger)
    }
    let inserted = try await connection.query(
      """
      INSERT INTO lesson_events (account, round, lesson, started, completed)
      SELECT \(account), \(round), \(lessonID), \(start), \(end)
      WHERE NOT \(anyVisit) OR NOT EXISTS (
        SELECT 1 FROM lesson_events
        WHERE account = \(account) AND round = \(round) AND lesson = \(lessonID))
      ON CONFLICT DO NOTHING RETURNING id
      """, logger: logger
    ).collect()
    guard !inserted.isEmpty else { return nil }
    return LessonCompletion(
      lessonID: lessonID, round: round, started: Date(timeIntervalSince1970: Double(start)),
      completed: Date(timeIntervalSince1970: Double(end)))
  }

  package func startNewRound(account: String) async throws -> Int {
    try await database.call("start a new round") { client in
      for try await round in try await client.query(
        """
        INSERT INTO lesson_rounds AS r (account, round) VALUES (\(account), 2)
        ON CONFLICT (account) DO UPDATE SET round = r.round + 1
        RETURNING round
        """
      ).decode(Int.self) {
        return round
      }
      throw StoreError(failed: "Could not start a new round: no row came back.")
    }
  }

  private static func progress(_ row: (Int64, String, Int64)) throws -> ClassProgress {
    guard let watched = intervals(row.1) else {
      throw StoreError(failed: "Could not read progress: the watched intervals are damaged.")
    }
    // A number past the bounds (stored before them) reads as the bound.
    return ClassProgress(
      lastPosition: Int(row.0), watched: watched, timeInClass: Int(row.2)
    ).bounded
  }

  /// `{[0,5000),[7000,9000)}`, PostgreSQL's text form of an `int8multirange`.
  static func multirange(_ set: IntervalSet) -> String {
    "{" + set.ranges.map { "[\($0.lowerBound),\($0.upperBound))" }.joined(separator: ",") + "}"
  }

  /// Reads `multirange`'s form back (as PostgreSQL prints it: canonical half-open ranges).
  static func intervals(_ text: String) -> IntervalSet? {
    guard text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
    let inner = text.dropFirst().dropLast()
    guard !inner.isEmpty else { return IntervalSet() }
    var ranges: [Range<Int>] = []
    for part in inner.split(separator: "),") {
      let trimmed = part.hasSuffix(")") ? part.dropLast() : part
      guard trimmed.hasPrefix("[") else { return nil }
      let bounds = trimmed.dropFirst().split(separator: ",")
      guard bounds.count == 2, let lower = Int(bounds[0]), let upper = Int(bounds[1]),
        lower < upper
      else { return nil }
      ranges.append(lower..<upper)
    }
    return IntervalSet(ranges)
  }
}

// MARK: Login limits

/// Login attempts counted in the `rate_limits` table, so that every instance counts towards
/// the same limit: per key, a window starting at its first attempt and lasting `window`
/// seconds of the database's clock (the one clock all instances share).
package struct PostgresRateLimiter: AttemptLimiting {
  let database: PostgresDatabase
  /// Keeps this limiter's keys apart from another's in the same table.
  let name: String
  let limit: Int
  var window = 60

  package func allow(_ keys: [String]) async throws -> Bool {
    let keys = Array(Set(keys.map { name + ":" + $0 })).sorted()
    let limit = limit
    let window = Double(window)
    let logger = database.logger
    let allowed = try await database.transaction("count the attempt") { connection in
      // Rows made first (outside any window), then locked in key order: two instances
      // counting the same keys wait for each other and never deadlock.
      try await connection.query(
        """
        INSERT INTO rate_limits (key, started, count)
        SELECT k, 'epoch', 0 FROM unnest(\(keys)::text[]) AS k ORDER BY k
        ON CONFLICT DO NOTHING
        """, logger: logger)
      var full = false
      for try await (current, count) in try await connection.query(
        """
        SELECT started > now() - make_interval(secs => \(window)), count FROM rate_limits
        WHERE key = ANY(\(keys)::text[]) ORDER BY key FOR UPDATE
        """, logger: logger
      ).decode((Bool, Int).self) where current && count >= limit {
        full = true
      }
      guard !full else { return false }
      try await connection.query(
        """
        UPDATE rate_limits SET
          count = CASE WHEN started > now() - make_interval(secs => \(window))
            THEN count + 1 ELSE 1 END,
          started = CASE WHEN started > now() - make_interval(secs => \(window))
            THEN started ELSE now() END
        WHERE key = ANY(\(keys)::text[])
        """, logger: logger)
      return true
    }
    // Now and then, the windows long over go.
    if UInt8.random(in: 0...255) == 0 {
      _ = try? await database.call("forget old attempts") { client in
        _ = try await client.query(
          "DELETE FROM rate_limits WHERE started < now() - interval '1 hour'"
        ).collect()
      }
    }
    return allowed
  }
}
