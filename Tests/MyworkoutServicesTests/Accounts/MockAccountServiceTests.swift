import Clocks
import Foundation
import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct MockAccountServiceTests {
  let signer = TokenSigner(key: .random())

  @Test func theSeededAccountLogsInWhateverTheCaseAndSpaces() async throws {
    try await withDataDirectory { directory throws in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      #expect(try await service.isRegistered(email: "  REGISTERED@email.com\t"))
      let session = try await service.logIn(email: " Registered@Email.COM ", password: "password")
      #expect(session.profile == SeedAccount.profile)
      #expect(session.gravatarHash == GravatarTests.registered)
      #expect(try signer.verify(session.token, now: fixedNow) == SeedAccount.profile)
    }
  }

  @Test func signUpStoresANormalisedProfileAndOnlyAHash() async throws {
    try await withDataDirectory { directory throws in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      var request = registration(email: "  New.Person@Example.COM ", mobile: "+60 12 345 6789")
      request.profile.firstName = "  Siti "
      let session = try await service.signUp(request)
      let expected = Profile(
        email: "new.person@example.com", gender: .male, mobile: "+60123456789",
        firstName: "Siti", lastName: "Rahman")
      #expect(session.profile == expected)
      #expect(try signer.verify(session.token, now: fixedNow) == expected)
      #expect(session.gravatarHash == Gravatar.hash(email: "new.person@example.com"))
      let login = try await service.logIn(email: "NEW.person@example.com", password: "s3cret!pass")
      #expect(login.profile == expected)
      await #expect(throws: ServiceError.emailExists) {
        try await service.signUp(registration(email: "new.PERSON@example.com"))
      }
      let text = String(decoding: contents(directory.accountsPath) ?? Data(), as: UTF8.self)
      #expect(!text.contains("s3cret!pass"))
      #expect(permissions(directory.path) == 0o700)
      #expect(permissions(directory.accountsPath) == 0o600)
    }
  }

  @Test func updateMobileChangesTheRegistryAndTheClaims() async throws {
    try await withDataDirectory { directory throws in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      let session = try await service.logIn(email: "registered@email.com", password: "password")
      let updated = try await service.updateMobile(token: session.token, mobile: "015-1234 5678")
      #expect(updated.profile.mobile == "+601512345678")
      #expect(try signer.verify(updated.token, now: fixedNow).mobile == "+601512345678")
      let stored = try makeStore(directory).load().account(for: "registered@email.com")
      #expect(stored?.profile.mobile == "+601512345678")
    }
  }

  @Test func updateMobileRefusesStaleSessions() async throws {
    try await withDataDirectory { directory throws in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      let old = signer.sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow - 7200,
        lifetime: .seconds(60))
      await #expect(throws: ServiceError.sessionExpired) {
        try await service.updateMobile(token: old, mobile: "012-345 6789")
      }
      let foreign = TokenSigner(key: .random()).sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(60))
      await #expect(throws: ServiceError.sessionExpired) {
        try await service.updateMobile(token: foreign, mobile: "012-345 6789")
      }
      let gone = signer.sign(
        registration(email: "gone@example.com").profile, accountID: "auth0|test",
        issuedAt: fixedNow,
        lifetime: .seconds(60))
      await #expect(throws: ServiceError.sessionExpired) {
        try await service.updateMobile(token: gone, mobile: "012-345 6789")
      }
    }
  }

  @Test func aCancelledSignUpSavesNothing() async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock, signer: signer)
      _ = try makeStore(directory).load()
      let before = contents(directory.accountsPath)
      let task = Task { try await service.signUp(registration(email: "new@example.com")) }
      await waitForSleeper(clock)
      await clock.advance(by: .milliseconds(500))
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
      await clock.advance(by: .seconds(1))
      #expect(contents(directory.accountsPath) == before)
    }
  }

  @Test func aCancelledUpdateMobileChangesNothing() async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock, signer: signer)
      _ = try makeStore(directory).load()
      let before = contents(directory.accountsPath)
      let token = signer.sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(60))
      let task = Task { try await service.updateMobile(token: token, mobile: "011-1234 5678") }
      await waitForSleeper(clock)
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
      await clock.advance(by: .seconds(2))
      #expect(contents(directory.accountsPath) == before)
    }
  }

  /// The moment a change is made closes its request's gate (`CommitGate`): a cancel that comes
  /// after it is refused (the app shows the answer: a walk-through's Esc during the write said
  /// "cancelled" while the account was made), and one that came before it makes nothing.
  @Test func aChangeMadeRefusesALaterCancelAndACancelBeforeMakesNone() async throws {
    try await withDataDirectory { directory throws in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      let made = CommitGate()
      let session = try await CommitGate.$current.withValue(made) {
        try await service.signUp(registration(email: "made@example.com"))
      }
      #expect(!made.cancel(), "too late: the account is made")
      let stopped = CommitGate()
      #expect(stopped.cancel())
      await #expect(throws: CancellationError.self) {
        try await CommitGate.$current.withValue(stopped) {
          try await service.signUp(registration(email: "stopped@example.com"))
        }
      }
      #expect(try makeStore(directory).load().account(for: "stopped@example.com") == nil)

      let edited = CommitGate()
      _ = try await CommitGate.$current.withValue(edited) {
        try await service.updateMobile(token: session.token, mobile: "011-1234 5678")
      }
      #expect(!edited.cancel(), "too late: the number is saved")
      let kept = CommitGate()
      #expect(kept.cancel())
      await #expect(throws: CancellationError.self) {
        try await CommitGate.$current.withValue(kept) {
          try await service.updateMobile(token: session.token, mobile: "012-345 6789")
        }
      }
      let stored = try makeStore(directory).load().account(for: "made@example.com")
      #expect(stored?.profile.mobile == "+601112345678")
    }
  }

  @Test func concurrentSignUpsFromSeparateStoresAllLand() async throws {
    try await withDataDirectory { directory throws in
      let emails = (0..<24).map { "user\($0)@example.com" }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for email in emails {
          let service = makeService(directory, clock: ImmediateClock(), signer: signer)
          group.addTask { _ = try await service.signUp(registration(email: email)) }
        }
        try await group.waitForAll()
      }
      let registry = try makeStore(directory).load()
      #expect(Set(registry.accounts.map(\.profile.email)) == Set(emails + ["registered@email.com"]))
      #expect(registry.accounts.count == emails.count + 1)
    }
  }
}

/// A call cancelled while it waits for the registry's lock (another process holds it) changes
/// nothing once it gets the lock. A walk-through held `accounts.lock` with `flock`, pressed Esc
/// on a running Sign up (the form went back as cancelled), and found the account in the file
/// after the lock was let go: its own sign-up again said `Email already exists`.
@Suite struct CancelledWhileLockedTests {
  let signer = TokenSigner(key: .random())

  @Test func aSignUpCancelledWhileTheRegistryIsLockedCreatesNothing() async throws {
    try await withDataDirectory { directory in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      _ = try await service.isRegistered(email: "registered@email.com")  // the file made
      let call = try await Self.whileLocked(directory) {
        // On a thread of its own: its wait for the lock holds a thread, and the cooperative
        // pool has as many as cores (two tests at once on two cores would hold them all).
        Task(executorPreference: OwnThread()) {
          try await service.signUp(registration(email: "lock@example.com"))
        }
      }
      await #expect(throws: CancellationError.self) { try await call.value }
      #expect(try makeStore(directory).load().account(for: "lock@example.com") == nil)
    }
  }

  @Test func aMobileEditCancelledWhileTheRegistryIsLockedChangesNothing() async throws {
    try await withDataDirectory { directory in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      let session = try await service.logIn(email: "registered@email.com", password: "password")
      let call = try await Self.whileLocked(directory) {
        Task(executorPreference: OwnThread()) {
          try await service.updateMobile(token: session.token, mobile: "015-1234 5678")
        }
      }
      await #expect(throws: CancellationError.self) { try await call.value }
      let stored = try makeStore(directory).load().account(for: "registered@email.com")
      #expect(stored?.profile.mobile == SeedAccount.profile.mobile)
    }
  }

  /// Holds the registry's lock as another process would, starts `start`'s call, waits (with a
  /// deadline) until the kernel lists it waiting for the lock, cancels it, lets the lock go.
  static func whileLocked<T: Sendable>(
    _ directory: DataDirectory, _ start: () -> Task<T, any Error>
  ) async throws -> Task<T, any Error> {
    let fd = open(directory.lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    try #require(fd >= 0)
    defer { close(fd) }
    try #require(flock(fd, LOCK_EX) == 0)
    var status = stat()
    try #require(fstat(fd, &status) == 0)
    let call = start()
    // 60 s, not 20: in a whole run both tests once found their calls not yet at the lock after
    // 20 s (their hashing and hops compete with every other test for two cores).
    let deadline = ContinuousClock.now + .seconds(60)
    // /proc/locks lists a blocked flock as `N: -> FLOCK ADVISORY WRITE pid major:minor:inode …`.
    while !Self.someoneWaits(onInode: UInt64(status.st_ino)) {
      guard ContinuousClock.now < deadline else {
        call.cancel()
        flock(fd, LOCK_UN)
        throw FileError(message: "the call never waited for the lock")
      }
      try await Task.sleep(for: .milliseconds(5))
    }
    call.cancel()
    flock(fd, LOCK_UN)
    return call
  }

  static func someoneWaits(onInode inode: UInt64) -> Bool {
    guard let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else {
      return false
    }
    return text.split(separator: "\n").contains { line in
      let fields = line.split(separator: " ")
      guard fields.count > 6, fields[1] == "->", fields[2] == "FLOCK" else { return false }
      return fields[6].split(separator: ":").last.flatMap { UInt64($0) } == inode
    }
  }
}

/// A task executor with one thread of its own, which ends when its jobs are done and no task
/// holds it any more.
final class OwnThread: TaskExecutor, @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var running = false

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    defer { condition.unlock() }
    jobs.append(job)
    if running {
      condition.signal()
      return
    }
    running = true
    let thread = Thread { [self] in
      while let next = nextJob() {
        next.runSynchronously(on: asUnownedTaskExecutor())
      }
    }
    thread.start()
  }

  /// The next job; nil after a second with none (the thread ends).
  private func nextJob() -> UnownedJob? {
    condition.lock()
    defer { condition.unlock() }
    while jobs.isEmpty {
      guard condition.wait(until: Date() + 1) || !jobs.isEmpty else {
        running = false
        return nil
      }
    }
    return jobs.removeFirst()
  }
}
