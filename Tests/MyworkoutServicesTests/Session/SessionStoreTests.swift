import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct SessionStoreTests {
  let signer = TokenSigner(key: .random())

  func session(issuedAt: Date = fixedNow) -> Session {
    Session(
      token: signer.sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: issuedAt, lifetime: .seconds(3600)
      ),
      accountID: AccountID.seed, profile: SeedAccount.profile,
      gravatarHash: Gravatar.hash(email: SeedAccount.profile.email))
  }

  @Test func nothingSavedIsNone() async throws {
    try await withDataDirectory { directory throws in
      let store = SessionStore(directory: directory, signer: signer)
      #expect(store.load(now: fixedNow) == SessionLoad(restored: .none))
      try store.delete()
    }
  }

  @Test func aSavedSessionComesBackFromItsClaims() async throws {
    try await withDataDirectory { directory throws in
      let store = SessionStore(directory: directory, signer: signer)
      var saved = session()
      saved.profile.firstName = "Edited in the file only"
      try store.save(saved)
      #expect(permissions(directory.sessionPath) == 0o600)
      let text = String(decoding: contents(directory.sessionPath) ?? Data(), as: UTF8.self)
      #expect(text.contains(#""version" : 1"#))
      #expect(text.contains(#""token" : ""#))
      #expect(store.load(now: fixedNow + 60) == SessionLoad(restored: .valid(session())))
      try store.delete()
      #expect(store.load(now: fixedNow) == SessionLoad(restored: .none))
    }
  }

  /// A renewed session (a number edited) is kept only while the file still holds this
  /// account's session: another copy of the app on the same data directory may have logged
  /// someone else in since, and the next launch opens the device's last log-in. A walk-through's
  /// copy A (alice) edited her number after copy B logged bob in, and the next launch opened
  /// alice.
  @Test func aRenewalDoesNotReplaceAnotherAccountsLogIn() async throws {
    try await withDataDirectory { directory throws in
      let store = SessionStore(directory: directory, signer: signer)
      let mine = session()
      try store.save(mine)
      var renewed = mine
      renewed.profile.mobile = "+60111111111"
      try store.renew(renewed)
      #expect(
        String(decoding: contents(directory.sessionPath) ?? Data(), as: UTF8.self)
          .contains("+60111111111"), "this account's file is renewed")
      var other = mine
      other.profile.email = "bob@else.com"
      other.accountID = "auth0|bob"
      try store.save(other)
      try store.renew(renewed)
      let kept = String(decoding: contents(directory.sessionPath) ?? Data(), as: UTF8.self)
      #expect(kept.contains("bob@else.com"), "the other account's log-in stays")
      // Logged out elsewhere (no file): a renewal does not bring the session back.
      try store.delete()
      try store.renew(renewed)
      #expect(contents(directory.sessionPath) == nil)
    }
  }

  /// Whether this copy's session is still the device's, as seen from this copy: not after a
  /// log-out in another copy (the file removed), nor after another account's log-in there (the
  /// device's session is theirs now: a walk-through's copy A still recorded lessons and edited
  /// the number of the account copy B had logged out of the device). The same account's
  /// renewed token is still it; a damaged file is for load to move aside.
  @Test func whetherTheSessionIsStillKept() async throws {
    try await withDataDirectory { directory throws in
      let store = SessionStore(directory: directory, signer: signer)
      let mine = session()
      #expect(!store.isSessionKept(mine), "nothing kept")
      try store.save(mine)
      #expect(store.isSessionKept(mine))
      var renewed = mine
      renewed.token = "renewed"
      renewed.profile.mobile = "+60111111111"
      #expect(store.isSessionKept(renewed), "the same account's session")
      let someoneElse = Self.someoneElse(than: mine)
      try store.save(someoneElse)
      #expect(!store.isSessionKept(mine), "another account logged in since")
      #expect(store.isSessionKept(someoneElse))
      try Data("{".utf8).write(to: URL(fileURLWithPath: directory.sessionPath))
      #expect(store.isSessionKept(mine), "a damaged file is for load to move aside")
      try store.delete()
      #expect(!store.isSessionKept(mine), "logged out")
    }
  }

  /// A log-out or an expiry ends this copy's session only: a walk-through's copy A logged out
  /// and removed the session copy B had logged another person in with since.
  @Test func endingASessionLeavesAnotherAccountsLogIn() async throws {
    try await withDataDirectory { directory throws in
      let store = SessionStore(directory: directory, signer: signer)
      let mine = session()
      try store.end(mine)  // nothing kept: no error
      try store.save(Self.someoneElse(than: mine))
      try store.end(mine)
      let kept = String(decoding: contents(directory.sessionPath) ?? Data(), as: UTF8.self)
      #expect(kept.contains("someone@else.com"), "the other account's log-in stays")
      try store.save(mine)
      var renewed = mine
      renewed.token = "renewed"
      try store.end(renewed)
      #expect(contents(directory.sessionPath) == nil, "the same account's session ends")
    }
  }

  static func someoneElse(than session: Session) -> Session {
    var other = session
    other.profile.email = "someone@else.com"
    other.accountID = "auth0|someone"
    other.token = "another"
    return other
  }

  @Test func staleTokensAreInvalidAndRemoved() async throws {
    try await withDataDirectory { directory throws in
      let store = SessionStore(directory: directory, signer: signer)
      try store.save(session())
      #expect(store.load(now: fixedNow + 7200) == SessionLoad(restored: .invalid))
      #expect(!exists(directory.sessionPath))
      var foreign = session()
      foreign.token = TokenSigner(key: .random()).sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(3600)
      )
      try store.save(foreign)
      #expect(store.load(now: fixedNow) == SessionLoad(restored: .invalid))
      #expect(!exists(directory.sessionPath))
      #expect(listing(directory.path).isEmpty)
    }
  }

  @Test(arguments: Damage.allCases.filter { $0 != .unreadable })
  func aDamagedFileIsMovedAside(damage: Damage) async throws {
    try await checkADamagedFileIsMovedAside(damage)
  }

  /// root reads a mode-000 file anyway, so this case is skipped (and shown skipped) as root.
  @Test(.disabled(if: isRoot, "root can read a mode-000 file"))
  func aDamagedFileIsMovedAsideWhenUnreadable() async throws {
    try await checkADamagedFileIsMovedAside(.unreadable)
  }

  private func checkADamagedFileIsMovedAside(_ damage: Damage) async throws {
    try await withDataDirectory { directory throws in
      let original = damage.apply(to: directory.path, file: "session.json")
      let store = SessionStore(directory: directory, signer: signer)
      let name = "session.json.corrupt-20261121T141500Z"
      #expect(
        store.load(now: fixedNow)
          == SessionLoad(
            restored: .invalid,
            notice: "session.json could not be read; moved it aside to \(name); please log in again"
          ))
      damage.expectIntact(original, at: directory.path, name: name)
      #expect(store.load(now: fixedNow) == SessionLoad(restored: .none))
      try store.save(session())
      #expect(store.load(now: fixedNow) == SessionLoad(restored: .valid(session())))
    }
  }
}
