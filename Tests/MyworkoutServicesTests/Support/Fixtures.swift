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

/// Collects notices from any thread.
final class NoticeLog: Sendable {
  private let storage = Mutex<[String]>([])

  var all: [String] { storage.withLock { $0 } }

  var handler: @Sendable (String) -> Void {
    { notice in self.storage.withLock { $0.append(notice) } }
  }
}

/// A cheap work factor so tests that hash many passwords stay fast.
let fastHasher = PasswordHasher(iterations: 1_000)

/// A fixed wall-clock moment: 2026-11-21 14:15:00 UTC.
let fixedNow = Date(timeIntervalSince1970: 1_795_270_500)

func makeStore(_ directory: DataDirectory, notices: NoticeLog = NoticeLog()) -> AccountsStore {
  AccountsStore(
    directory: directory, hasher: fastHasher, now: { fixedNow }, onNotice: notices.handler)
}

func makeService(
  _ directory: DataDirectory, clock: any Clock<Duration>, signer: TokenSigner,
  notices: NoticeLog = NoticeLog()
) -> MockAccountService {
  MockAccountService(
    store: makeStore(directory, notices: notices), signer: signer, clock: clock,
    now: { fixedNow }, sessionLifetime: .seconds(3600))
}

func registration(
  email: String, password: String = "s3cret!pass", mobile: String = "012-345 6789"
) -> Registration {
  Registration(
    password: password,
    profile: Profile(
      email: email, gender: .male, mobile: mobile, firstName: "Ali", lastName: "Rahman"))
}

/// Waits (yielding, never sleeping) until something sleeps on `clock`.
func waitForSleeper(_ clock: TestClock<Duration>) async {
  for _ in 0..<100_000 {
    do {
      try await clock.checkSuspension()
    } catch {
      return
    }
    await Task.yield()
  }
  Issue.record("nothing started sleeping on the test clock")
}
