import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The registry is the truth: a restored session shows what it holds, and `--reset` never
/// overwrites a damaged registry (issue 9, items 6 and 8).
@Suite struct RegistryTruthTests {
  let signer = TokenSigner(key: .random())

  func savedSession(_ store: SessionStore, profile: Profile = SeedAccount.profile) throws
    -> SessionLoad
  {
    let token = signer.sign(
      profile, accountID: "auth0|test", issuedAt: fixedNow, lifetime: .seconds(3600))
    try store.save(
      Session(token: token, accountID: AccountID.seed, profile: profile, gravatarHash: ""))
    return store.load(now: fixedNow)
  }

  @Test func aRestoredSessionShowsTheRegistrysProfile() async throws {
    try await withDataDirectory { directory throws in
      let accounts = makeStore(directory)
      let sessions = SessionStore(directory: directory, signer: signer)
      let loaded = try savedSession(sessions)
      try accounts.update { registry in
        registry.accounts[0].profile.mobile = "+601112345678"
      }
      let reconciled = loaded.reconciled(with: accounts, sessions: sessions)
      guard case .valid(let session) = reconciled.restored else {
        Issue.record("expected a valid session, got \(reconciled)")
        return
      }
      #expect(session.profile.mobile == "+601112345678")
      #expect(session.token == sessions.load(now: fixedNow).validToken)
      #expect(session.gravatarHash == Gravatar.hash(email: SeedAccount.profile.email))
    }
  }

  @Test func aSessionForAnAccountTheRegistryLacksEnds() async throws {
    try await withDataDirectory { directory throws in
      let accounts = makeStore(directory)
      _ = try accounts.load()
      let sessions = SessionStore(directory: directory, signer: signer)
      let stranger = registration(email: "gone@example.com").profile
      let loaded = try savedSession(sessions, profile: stranger)
      #expect(loaded.reconciled(with: accounts, sessions: sessions).restored == .invalid)
      #expect(!exists(directory.sessionPath))
    }
  }

  @Test func withoutARegistryTheSeededAccountIsStillKnown() async throws {
    try await withDataDirectory { directory throws in
      let accounts = makeStore(directory)
      #expect(
        accounts.lookUp(email: " Registered@Email.com")
          == .found(SeedAccount.profile, id: AccountID.seed))
      #expect(accounts.lookUp(email: "other@example.com") == .absent)
      #expect(!exists(directory.accountsPath), "a look-up writes nothing")
    }
  }

  @Test func aDamagedRegistryLeavesTheSessionAsItIsAndUntouched() async throws {
    try await withDataDirectory { directory throws in
      put(Array("{\"vers".utf8), at: directory.accountsPath)
      let accounts = makeStore(directory)
      let sessions = SessionStore(directory: directory, signer: signer)
      let loaded = try savedSession(sessions)
      #expect(loaded.reconciled(with: accounts, sessions: sessions) == loaded)
      #expect(contents(directory.accountsPath) == Data("{\"vers".utf8), "left for the service")
    }
  }

  @Test(arguments: Damage.allCases.filter { $0 != .unreadable })
  func resetMovesADamagedRegistryAsideFirst(damage: Damage) async throws {
    try await checkResetMovesAside(damage)
  }

  /// root reads a mode-000 file anyway, so this case is skipped (and shown skipped) as root.
  @Test(.disabled(if: isRoot, "root can read a mode-000 file"))
  func resetMovesAnUnreadableRegistryAsideFirst() async throws {
    try await checkResetMovesAside(.unreadable)
  }

  private func checkResetMovesAside(_ damage: Damage) async throws {
    try await withDataDirectory { directory throws in
      let original = damage.apply(to: directory.path, file: "accounts.json")
      let store = makeStore(directory)
      let name = try store.reset()
      #expect(name == "accounts.json.corrupt-20261121T141500Z")
      damage.expectIntact(original, at: directory.path, name: name ?? "")
      #expect(try store.load().accounts.map(\.profile) == [SeedAccount.profile])
    }
  }

  @Test func resetOfAHealthyRegistryMovesNothing() async throws {
    try await withDataDirectory { directory throws in
      let store = makeStore(directory)
      _ = try store.load()
      #expect(try store.reset() == nil)
      #expect(listing(directory.path).allSatisfy { !$0.contains("corrupt") })
    }
  }
}

extension SessionLoad {
  var validToken: String? {
    if case .valid(let session) = restored { return session.token }
    return nil
  }
}
