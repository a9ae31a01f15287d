import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MyworkoutCore
import MyworkoutServer
import MyworkoutServices
import MyworkoutWire
import TestProcesses
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The server names accounts by a stable id, as Auth0 does (`auth0|` and 24 hex digits), not by
/// email: the `sub` of its tokens and of `/userinfo`, and the key its progress and lesson events
/// are filed under (SPEC §12). What a server from before ids kept under emails moves to the ids
/// on its first start, over SQLite and over PostgreSQL, and a token from before still works.
@Suite struct AccountIDRouteTests {
  static let issuer = "http://myworkout.test/"

  @Test(arguments: Store.allCases)
  func tokensAndUserinfoNameTheAccountByItsID(store: Store) async throws {
    try await withRouter(store) { client, backend in
      let seed = try await Self.claims(client, backend, email: "registered@email.com")
      #expect(seed.sub == AccountID.seed)
      #expect(seed.email == "registered@email.com")

      let signup: [String: Any] = [
        "client_id": "abc", "email": "Nu@Example.com", "password": "Secret-123",
        "connection": "Username-Password-Authentication",
      ]
      let created = try await client.execute(
        uri: "/dbconnections/signup", method: .post, headers: jsonHeaders, body: jsonBody(signup)
      ) { $0.body.json }
      let bareID = try #require(created["_id"] as? String)
      #expect(bareID.wholeMatch(of: /[0-9a-f]{24}/) != nil, "\(bareID)")

      let new = try await Self.claims(
        client, backend, email: "nu@example.com", password: "Secret-123")
      #expect(new.sub == "auth0|" + bareID)
      let access = try await IdempotencyRouteTests.token(
        client, email: "nu@example.com", password: "Secret-123")
      let info = try await IdempotencyRouteTests.get(client, "/userinfo", access)
      #expect(info["sub"] as? String == new.sub)
      #expect(info["email"] as? String == "nu@example.com")

      // What the account saves is filed under its id, apart from the seeded account's.
      let saved = try await IdempotencyRouteTests.post(
        client, "/api/progress/c1", IdempotencyRouteTests.save, access, key: nil)
      #expect(saved.status == 200)
      #expect(
        try await backend.progress.progress(account: new.sub, classID: "c1").timeInClass == 6_000)
      #expect(
        try await backend.progress.progress(account: "nu@example.com", classID: "c1").timeInClass
          == 0)
      #expect(
        try await backend.progress.progress(account: AccountID.seed, classID: "c1").timeInClass == 0
      )

      // A new number keeps the id.
      let changed = try await client.execute(
        uri: "/api/me/mobile", method: .post,
        headers: [.contentType: "application/json", .authorization: "Bearer " + access],
        body: jsonBody(["mobile": "0123456789"])
      ) { response in
        #expect(response.status == .ok)
        return try JSONDecoder().decode(
          TokenResponse.self, from: Data(response.body.readableBytesView))
      }
      let renewed = try RS256Verifier(keySet: backend.signer.keySet).verify(
        changed.idToken, now: Date(), issuer: Self.issuer)
      #expect(renewed.sub == new.sub)
    }
  }

  @Test(arguments: Store.allCases)
  func aTokenFromBeforeIdsStillNamesItsAccount(store: Store) async throws {
    try await withRouter(store) { client, backend in
      // An access token as the server signed them before ids: the email as `sub`.
      let now = Int64(Date().timeIntervalSince1970)
      let legacy = try backend.signer.sign(
        IDTokenClaims(
          sub: "registered@email.com", iss: Self.issuer, aud: "app", iat: now, exp: now + 3_600,
          scope: "openid profile email"))
      let saved = try await IdempotencyRouteTests.post(
        client, "/api/progress/c1", IdempotencyRouteTests.save, legacy, key: "k-1")
      #expect(saved.status == 200, "\(saved.body)")
      #expect(
        try await backend.progress.progress(account: AccountID.seed, classID: "c1")
          .timeInClass == 6_000)
      let info = try await IdempotencyRouteTests.get(client, "/userinfo", legacy)
      #expect(info["sub"] as? String == AccountID.seed)

      // A token naming an email that has no account is refused.
      let stranger = try backend.signer.sign(
        IDTokenClaims(
          sub: "gone@example.com", iss: Self.issuer, aud: "app", iat: now, exp: now + 3_600,
          scope: "openid profile email"))
      try await client.execute(
        uri: "/api/progress/c1", method: .get, headers: [.authorization: "Bearer " + stranger]
      ) { #expect($0.status == .unauthorized) }
    }
  }

  /// A data directory as the server wrote it before ids: `accounts.sqlite` version 1 (no id
  /// column) and `progress.sqlite` version 1, everything under emails.
  @Test func aServerDirectoryFromBeforeIdsKeepsEverythingUnderTheIds() async throws {
    try await withTemporaryDirectory { directory in
      let options = testOptions(directory)
      try FileManager.default.createDirectory(
        atPath: options.dataDirectory, withIntermediateDirectories: true)
      try Self.writeVersion1Files(in: options.dataDirectory, hasher: options.hasherIterations)

      let ids = try await withBackend(.sqlite, options: options) { backend in
        let app = Application(router: ServerApplication.router(backend))
        return try await app.test(.router) { client in
          let seed = try await Self.claims(client, backend, email: "registered@email.com")
          let other = try await Self.claims(
            client, backend, email: "old@example.com", password: "Secret-123")
          #expect(seed.sub == AccountID.seed)
          #expect(other.sub.wholeMatch(of: /auth0\|[0-9a-f]{24}/) != nil, "\(other.sub)")
          let token = try await IdempotencyRouteTests.token(client)
          let progress = try await IdempotencyRouteTests.get(client, "/api/progress/c1", token)
          #expect(progress["last_position"] as? Int == 25_021)
          #expect(progress["time_in_class"] as? Int == 31_000)
          let events = try await IdempotencyRouteTests.get(
            client, "/api/lessons/completions", token)
          #expect((events["completions"] as? [Any])?.count == 1, "\(events)")
          let otherToken = try await IdempotencyRouteTests.token(
            client, email: "old@example.com", password: "Secret-123")
          let theirs = try await IdempotencyRouteTests.get(client, "/api/progress/c1", otherToken)
          #expect(theirs["last_position"] as? Int == 4_000)
          return [seed.sub, other.sub]
        }
      }
      // Started again: the same ids, the rows of an email without an account left as they were.
      try await withBackend(.sqlite, options: options) { backend in
        let app = Application(router: ServerApplication.router(backend))
        try await app.test(.router) { client in
          let other = try await Self.claims(
            client, backend, email: "old@example.com", password: "Secret-123")
          #expect([AccountID.seed, other.sub] == ids)
        }
        #expect(
          try await backend.progress.progress(account: "gone@example.com", classID: "c1")
            .lastPosition == 9_000)
      }
    }
  }

  @Test func accountsFromANewerServerAreRefusedAndLeftAlone() async throws {
    try await withTemporaryDirectory { directory in
      let options = testOptions(directory)
      _ = try await withBackend(.sqlite, options: options) { _ in }
      let path = options.dataDirectory + "/accounts.sqlite"
      try SQLiteDatabase(path: path).execute("PRAGMA user_version = 9")
      func state() throws -> [String] {
        let database = try SQLiteDatabase(path: path)
        return [
          "\(try database.userVersion())",
          "\(try database.scalar("SELECT count(*) FROM accounts"))",
        ] + (try database.statement("PRAGMA table_info(accounts)").rows([]) { $0.text(1) })
      }
      let before = try state()
      #expect(before.first == "9")
      do {
        _ = try await withBackend(.sqlite, options: options) { _ in }
        Issue.record("a newer accounts file was accepted")
      } catch let error as StoreError {
        #expect(error.message.contains("version 9, newer than this server's 2"), "\(error)")
        #expect(error.message.contains("nothing was changed"))
      }
      #expect(try state() == before)
    }
  }

  /// A progress file of a newer server (a rollback) stops the start as a newer accounts file
  /// does, with the file untouched: moved aside, it showed every account empty progress and
  /// took new saves into a new file the newer server would never read.
  @Test func progressFromANewerServerIsRefusedAndLeftAlone() async throws {
    try await withTemporaryDirectory { directory in
      let options = testOptions(directory)
      _ = try await withBackend(.sqlite, options: options) { _ in }
      let path = options.dataDirectory + "/progress.sqlite"
      try await ProgressStore(directory: try DataDirectory.prepare(path: options.dataDirectory))
        .record(ProgressUpdate(account: AccountID.seed, classID: "c1", position: 5))
      try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")
      let before = try Data(contentsOf: URL(fileURLWithPath: path))
      await Self.expectStartRefusedForANewerProgressFile(options)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
      let files = try FileManager.default.contentsOfDirectory(atPath: options.dataDirectory)
      #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
    }
  }

  /// Starting on `options` fails, saying the progress file is a newer version's and nothing
  /// was changed.
  static func expectStartRefusedForANewerProgressFile(_ options: ServerOptions) async {
    do {
      _ = try await withBackend(.sqlite, options: options) { _ in }
      Issue.record("a newer progress file was accepted")
    } catch {
      #expect("\(error)".contains("progress.sqlite was written by a newer version"), "\(error)")
      #expect("\(error)".contains("nothing was changed"), "\(error)")
    }
  }

  /// A newer progress file stops the start before `accounts.sqlite` is opened: an older
  /// accounts file was upgraded (and put in write-ahead-log mode), and a missing one created with
  /// the seeded account, before the start was refused as "nothing was changed".
  @Test(arguments: [true, false])
  func aNewerProgressFileStopsTheStartBeforeTheAccountsAreOpened(accountsFile: Bool)
    async throws
  {
    try await withTemporaryDirectory { directory in
      let options = testOptions(directory)
      try FileManager.default.createDirectory(
        atPath: options.dataDirectory, withIntermediateDirectories: true)
      try Self.writeVersion1Files(in: options.dataDirectory, hasher: options.hasherIterations)
      let accounts = options.dataDirectory + "/accounts.sqlite"
      if !accountsFile { try FileManager.default.removeItem(atPath: accounts) }
      try SQLiteDatabase(path: options.dataDirectory + "/progress.sqlite")
        .execute("PRAGMA user_version = 99")
      func state() throws -> (accounts: Data?, files: [String]) {
        (
          try? Data(contentsOf: URL(fileURLWithPath: accounts)),
          try FileManager.default.contentsOfDirectory(atPath: options.dataDirectory).sorted()
        )
      }
      let before = try state()
      await Self.expectStartRefusedForANewerProgressFile(options)
      let after = try state()
      #expect(after.accounts == before.accounts, "accounts.sqlite changed")
      #expect(after.files == before.files)
    }
  }

  /// A PostgreSQL database as schema version 3 left it (accounts without ids, everything under
  /// emails, one event per lesson and round) is given ids by migration 4 and events per visit by 5,
  /// nothing lost.
  @Test func aVersion3DatabaseGetsIdsAndKeepsEverything() async throws {
    guard TestPostgres.isAvailable else {
      print("skipped (PostgreSQL): \(TestPostgres.unavailableReason)")
      return
    }
    let cluster = try TestPostgres.sharedCluster()
    let url = try DatabaseURL(cluster.makeDatabase())
    var logger = Logger(label: "test-postgres")
    logger.logLevel = .critical
    try await withTemporaryDirectory { directory in
      let options = testOptions(directory)
      let opened = try await ServerStores.postgres(url: url, options: options, logger: logger)
      opened.database.close()
      // Back to version 3: no id column, rows under the email.
      _ = try cluster.psql(
        """
        DROP INDEX accounts_id; ALTER TABLE accounts DROP COLUMN id;
        ALTER TABLE lesson_events DROP CONSTRAINT lesson_events_visit;
        ALTER TABLE lesson_events ADD CONSTRAINT lesson_events_account_round_lesson_key
          UNIQUE (account, round, lesson);
        UPDATE myworkout_schema SET version = 3;
        INSERT INTO class_progress (account, class, position, watched, time_in_class)
          VALUES ('registered@email.com', 'c1', 25021, '{[0,25021)}', 31000),
                 ('gone@example.com', 'c1', 9000, '{[0,9000)}', 9000);
        INSERT INTO lesson_events (account, round, lesson, started, completed)
          VALUES ('registered@email.com', 1, '7', 1700000000000, 1700000060000);
        INSERT INTO applied_changes (account, key, request)
          VALUES ('registered@email.com', 'k-1', 'progress/c1');
        """, database: url.database)

      let reopened = try await ServerStores.postgres(url: url, options: options, logger: logger)
      defer { reopened.database.close() }
      let version = try cluster.psql("SELECT version FROM myworkout_schema", database: url.database)
      #expect(
        version.trimmingCharacters(in: .whitespacesAndNewlines) == "\(Migrations.version)")
      let backend = try Backend(options: options, stores: reopened.stores)
      let app = Application(router: ServerApplication.router(backend))
      try await app.test(.router) { client in
        #expect(
          try await Self.claims(client, backend, email: "registered@email.com").sub
            == AccountID.seed)
        let token = try await IdempotencyRouteTests.token(client)
        let progress = try await IdempotencyRouteTests.get(client, "/api/progress/c1", token)
        #expect(progress["time_in_class"] as? Int == 31_000)
        let events = try await IdempotencyRouteTests.get(client, "/api/lessons/completions", token)
        #expect((events["completions"] as? [Any])?.count == 1, "\(events)")
      }
      let keys = try cluster.psql(
        "SELECT account FROM applied_changes; SELECT account FROM class_progress ORDER BY 1",
        database: url.database)
      #expect(
        keys.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
          == [AccountID.seed, AccountID.seed, "gone@example.com"], "\(keys)")
    }
  }

  // MARK: Helpers

  /// The id_token claims of a log-in through `/oauth/token`.
  static func claims(
    _ client: any TestClientProtocol, _ backend: Backend, email: String,
    password: String = "password"
  ) async throws -> IDTokenClaims {
    let form =
      "grant_type=password&username=\(email)&password=\(password)&client_id=abc"
      + "&scope=openid%20profile%20email"
    let idToken = try await client.execute(
      uri: "/oauth/token", method: .post,
      headers: [.contentType: "application/x-www-form-urlencoded"],
      body: ByteBuffer(string: form)
    ) { response in
      #expect(response.status == .ok, "\(response.body.text)")
      return response.body.json["id_token"] as? String ?? ""
    }
    return try RS256Verifier(keySet: backend.signer.keySet).verify(
      idToken, now: Date(), issuer: issuer)
  }

  /// The two files of a server data directory from before ids.
  static func writeVersion1Files(in directory: String, hasher iterations: Int) throws {
    let hasher = PasswordHasher(iterations: iterations)
    let encoder = JSONEncoder()
    func json<T: Encodable>(_ value: T) throws -> String {
      String(decoding: try encoder.encode(value), as: UTF8.self)
    }
    let other = Profile(
      email: "old@example.com", gender: .male, mobile: "", firstName: "Old", lastName: "Timer")
    let accounts = try SQLiteDatabase(path: directory + "/accounts.sqlite")
    try accounts.execute(
      """
      CREATE TABLE accounts (
        email TEXT PRIMARY KEY NOT NULL, profile TEXT NOT NULL, password TEXT NOT NULL,
        created INTEGER NOT NULL);
      PRAGMA user_version = 1;
      """)
    let insert = try accounts.statement(
      "INSERT INTO accounts (email, profile, password, created) VALUES (?, ?, ?, 1700000000)")
    try insert.run([
      .text(SeedAccount.profile.email), .text(try json(SeedAccount.profile)),
      .text(try json(try hasher.hash(SeedAccount.password))),
    ])
    try insert.run([
      .text(other.email), .text(try json(other)), .text(try json(try hasher.hash("Secret-123"))),
    ])
    let progress = try SQLiteDatabase(path: directory + "/progress.sqlite")
    try progress.execute(OldFiles.progressVersion1Tables)
    try progress.execute(
      """
      INSERT INTO class_progress VALUES
        ('registered@email.com', 'c1', 25021, '0-25021', 31000),
        ('old@example.com', 'c1', 4000, '0-4000', 4000),
        ('gone@example.com', 'c1', 9000, '0-9000', 9000);
      INSERT INTO lesson_events VALUES
        ('registered@email.com', 1, '7', '2026-11-20T10:00:00Z', '2026-11-20T10:01:00Z');
      """)
  }
}

/// Accounts stored before emails were put in NFC keep the key they were stored under (the
/// same text the old rule made, possibly decomposed): they are still found with the spelling
/// they signed up with, and that spelling cannot sign up a second account.
@Suite struct StoredEmailSpellingTests {
  @Test func anAccountStoredDecomposedIsStillFoundAndNotDoubled() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory + "/accounts.sqlite"
      let hasher = PasswordHasher(iterations: 1_000)
      let decomposed = "cafe\u{301}@example.com"
      do {
        let store = try SQLiteAccountStore(path: path, hasher: hasher)
        let profile = Profile(
          email: "old@example.com", gender: .male, mobile: "", firstName: "Old", lastName: "")
        let old = StoredAccount(
          id: AccountID.random(), profile: profile, password: try hasher.hash("Secret-123"))
        #expect(try await store.insert(old))
      }
      // As the code before NFC stored a decomposed address: its key as typed.
      let database = try SQLiteDatabase(path: path)
      try database.statement("UPDATE accounts SET email = ? WHERE email = 'old@example.com'")
        .run([.text(decomposed)])
      let store = try SQLiteAccountStore(path: path, hasher: hasher)
      let found = try await store.account(email: decomposed)
      #expect(found?.profile.firstName == "Old")
      // The app sends the address in NFC whatever was typed: the old row is that account too.
      let composed = "caf\u{e9}@example.com"
      #expect(try await store.account(email: composed)?.profile.firstName == "Old")
      for spelling in [decomposed, composed] {
        let again = Profile(
          email: spelling, gender: .male, mobile: "", firstName: "New", lastName: "")
        let second = StoredAccount(
          id: AccountID.random(), profile: again, password: try hasher.hash("Secret-123"))
        #expect(try await store.insert(second) == false, "\(spelling.unicodeScalars.count)")
      }
    }
  }
}
