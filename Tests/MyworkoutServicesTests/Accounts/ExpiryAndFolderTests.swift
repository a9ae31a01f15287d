import Clocks
import MyworkoutCore
import Synchronization
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A wall clock tests move by hand.
final class ManualNow: Sendable {
  private let value: Mutex<Date>
  init(_ start: Date) { value = Mutex(start) }
  var now: @Sendable () -> Date { { self.value.withLock { $0 } } }
  func advance(by seconds: Double) { value.withLock { $0 += seconds } }
}

/// Exact session expiry in the service, and a data folder removed while the app runs
/// (issue 9, item 3 and the friction list).
@Suite struct ExpiryAndFolderTests {
  let signer = TokenSigner(key: .random())

  func service(_ directory: DataDirectory, clock: any Clock<Duration>, now: ManualNow)
    -> MockAccountService
  {
    MockAccountService(
      store: makeStore(directory), signer: signer, clock: clock, now: now.now,
      sessionLifetime: .seconds(3))
  }

  @Test func aTokenThatExpiresDuringTheWaitChangesNothing() async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let now = ManualNow(fixedNow)
      let service = service(directory, clock: clock, now: now)
      _ = try makeStore(directory).load()
      let before = contents(directory.accountsPath)
      let token = signer.sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(3))
      now.advance(by: 2.5)
      let task = Task { try await service.updateMobile(token: token, mobile: "011-1234 5678") }
      await waitForSleeper(clock)
      now.advance(by: 1)
      await clock.advance(by: .seconds(1))
      await #expect(throws: ServiceError.sessionExpired) { try await task.value }
      #expect(contents(directory.accountsPath) == before)
    }
  }

  @Test func anEditKeepsTheLoginsExpiry() async throws {
    try await withDataDirectory { directory throws in
      let now = ManualNow(fixedNow)
      let service = service(directory, clock: ImmediateClock(), now: now)
      let session = try await service.logIn(email: "registered@email.com", password: "password")
      now.advance(by: 2)
      let edited = try await service.updateMobile(token: session.token, mobile: "011-1234 5678")
      #expect(TokenSigner.acceptedUntil(edited.token) == fixedNow + 3)
      now.advance(by: 1)
      await #expect(throws: ServiceError.sessionExpired) {
        try await service.updateMobile(token: edited.token, mobile: "012-345 6789")
      }
    }
  }

  @Test func aRemovedDataFolderIsReportedPlainlyThenMadeAgain() async throws {
    try await withDataDirectory { directory throws in
      let key = SigningKey.random()
      let signer = TokenSigner(key: key)
      let service = MockAccountService(
        store: makeStore(directory), signer: signer, clock: ImmediateClock(),
        now: { fixedNow }, sessionLifetime: .seconds(60))
      #expect(try await service.isRegistered(email: "registered@email.com"))
      removeTree(directory.path)
      await #expect(
        throws: ServiceError.dataFolderGone(path: directory.path)
      ) {
        try await service.logIn(email: "registered@email.com", password: "password")
      }
      #expect(!exists(directory.path), "nothing made before the user asks again")
      let session = try await service.logIn(email: "registered@email.com", password: "password")
      #expect(permissions(directory.path) == 0o700)
      // The running app's key is written back, so its sessions survive the next launch.
      let (reloaded, notice) = try SigningKey.load(in: directory, now: fixedNow)
      #expect(notice == nil)
      #expect(
        try TokenSigner(key: reloaded).verify(session.token, now: fixedNow).email
          == "registered@email.com")
    }
  }
}
