import MyworkoutCore
import TestProcesses
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Issue 24, item 10: every account of the embedded registry has a stable id, and what was
/// filed under emails before ids existed moves to them on the first start, nothing lost.
@Suite struct AccountIDMigrationTests {
  /// `accounts.json` as version 1 wrote it: the seeded account and another, without ids.
  static func writeVersion1Registry(in directory: DataDirectory) throws {
    let other = StoredAccount(
      profile: registration(email: "new@example.com").profile,
      password: try fastHasher.hash("s3cret!pass"))
    let seed = StoredAccount(
      profile: SeedAccount.profile, password: try fastHasher.hash(SeedAccount.password))
    struct Version1: Encodable {
      var version = 1
      var accounts: [StoredAccount]
    }
    let data = try JSONFile.encode(Version1(accounts: [seed, other]))
    #expect(!String(decoding: data, as: UTF8.self).contains(#""id""#))
    try AtomicFile.write(data, to: directory.accountsPath)
  }

  @Test func aVersion1RegistryGetsIdsOnceAndKeepsThem() async throws {
    try await withDataDirectory { directory throws in
      try Self.writeVersion1Registry(in: directory)
      #expect(
        makeStore(directory).lookUp(email: "new@example.com")
          == .found(registration(email: "new@example.com").profile, id: nil),
        "no id is given out before it is kept")
      let first = try makeStore(directory).load()
      let ids = first.accounts.compactMap(\.id)
      #expect(ids.count == 2)
      #expect(ids[0] == AccountID.seed)
      #expect(ids[1].wholeMatch(of: /auth0\|[0-9a-f]{24}/) != nil, "\(ids[1])")
      let text = String(decoding: contents(directory.accountsPath) ?? Data(), as: UTF8.self)
      #expect(text.contains(#""version" : 2"#))
      // Read again, by another store object: the same ids.
      #expect(try makeStore(directory).load().accounts.map(\.id) == first.accounts.map(\.id))
      #expect(
        makeStore(directory).lookUp(email: " NEW@example.com")
          == .found(registration(email: "new@example.com").profile, id: ids[1]))
      #expect(first.idsByEmail == ["registered@email.com": ids[0], "new@example.com": ids[1]])
    }
  }

  @Test func newAccountsGetDifferentIds() {
    let ids = Set((0..<100).map { _ in AccountID.random() })
    #expect(ids.count == 100)
    #expect(ids.allSatisfy { $0.wholeMatch(of: /auth0\|[0-9a-f]{24}/) != nil })
  }

  /// `progress.sqlite` as version 1 wrote it: rows under emails, one of an account that is gone.
  static func writeVersion1Progress(in directory: DataDirectory) throws {
    let raw = try SQLiteDatabase(path: directory.progressPath)
    try raw.execute(OldFiles.progressVersion1Tables)
    try raw.execute(
      """
      INSERT INTO class_progress VALUES
        ('registered@email.com', 'c1', 25021, '0-25021', 31000),
        ('new@example.com', 'c1', 4000, '0-4000', 4000),
        ('gone@example.com', 'c1', 9000, '0-9000', 9000);
      INSERT INTO lesson_rounds VALUES ('registered@email.com', 2);
      INSERT INTO lesson_events VALUES
        ('registered@email.com', 2, '7', '2026-11-20T10:00:00Z', '2026-11-20T10:01:00Z');
      """)
  }

  @Test func progressFiledUnderEmailsMovesToTheIdsOnFirstOpen() async throws {
    try await withDataDirectory { directory throws in
      try Self.writeVersion1Registry(in: directory)
      try Self.writeVersion1Progress(in: directory)
      let accounts = makeStore(directory)
      let store = ProgressStore(
        directory: directory, now: { fixedNow }, onNotice: { _ in },
        accountIDs: { try accounts.load().idsByEmail })
      let newID = try #require(try accounts.load().account(for: "new@example.com")?.id)
      #expect(
        try await store.progress(account: AccountID.seed, classID: "c1")
          == ClassProgress(
            lastPosition: 25021, watched: IntervalSet([0..<25021]), timeInClass: 31000))
      #expect(try await store.progress(account: newID, classID: "c1").timeInClass == 4000)
      #expect(try await store.currentCompletions(account: AccountID.seed).round == 2)
      #expect(try await store.completions(account: AccountID.seed).map(\.lessonID) == ["7"])
      // Nothing is left under the emails of the accounts; the row of an account that is gone
      // stays as it was.
      let raw = try SQLiteDatabase(path: directory.progressPath)
      #expect(
        try raw.scalar(
          "SELECT group_concat(account, ' ') FROM class_progress WHERE account LIKE '%@%'")
          == .text("gone@example.com"))
      #expect(
        try raw.scalar("SELECT count(*) FROM lesson_events WHERE account LIKE '%@%'") == .integer(0)
      )
      // Then on to version 4: the table of applied `Idempotency-Key`s, empty, and events one
      // per visit (the old table, one per lesson and round, copied and gone).
      #expect(try raw.scalar("PRAGMA user_version") == .integer(4))
      #expect(try raw.scalar("SELECT count(*) FROM applied_changes") == .integer(0))
      #expect(
        try raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name LIKE '%v3'") == .integer(0))
      #expect(
        try raw.scalar(
          """
          SELECT count(*) FROM sqlite_schema WHERE name = 'lesson_events'
            AND sql LIKE '%UNIQUE (account, round, lesson, started)%'
          """) == .integer(1))
    }
  }

  @Test func aSessionFromBeforeIdsIsFiledUnderTheRegistrysId() async throws {
    try await withDataDirectory { directory throws in
      try Self.writeVersion1Registry(in: directory)
      let (key, _) = try SigningKey.load(in: directory, now: fixedNow)
      // A token from before ids: its subject is the email.
      let token = TokenSigner(key: key).sign(
        SeedAccount.profile, accountID: "registered@email.com", issuedAt: fixedNow,
        lifetime: .seconds(3600))
      let sessions = SessionStore(directory: directory, signer: TokenSigner(key: key))
      try sessions.save(
        Session(
          token: token, accountID: "registered@email.com", profile: SeedAccount.profile,
          gravatarHash: ""))
      let loaded = sessions.load(now: fixedNow).reconciled(
        with: makeStore(directory), sessions: sessions)
      guard case .valid(let session) = loaded.restored else {
        Issue.record("the session is kept: \(loaded)")
        return
      }
      #expect(session.accountID == AccountID.seed)
    }
  }
}
