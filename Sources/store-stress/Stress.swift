import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The two workloads, on one data directory, naming accounts `<prefix>-<i>@stress.test`. Accounts
/// are made by `MockAccountService.signUp` without its latency: its check, then its locked
/// read-modify-write of `accounts.json`.
struct Stress {
  /// Every stress account's password (the tests check the stored hashes against it).
  static let password = "stress-password"
  /// The work factor of the stress hashes: cheap, so that the time goes into the file writes.
  static let iterations = 1_000

  let directory: DataDirectory
  let prefix: String
  let signer: TokenSigner
  let service: MockAccountService

  /// Prepares the data directory (mode 0700, made if missing) at `path` and its signing key.
  init(path: String, prefix: String) throws {
    directory = try DataDirectory.prepare(path: path)
    self.prefix = prefix
    let (key, notice) = try SigningKey.load(in: directory, now: Date())
    if let notice { fail("unexpected notice: \(notice)") }
    signer = TokenSigner(key: key)
    // A notice means a damaged file was found and moved aside: never expected here.
    let store = AccountsStore(
      directory: directory, hasher: PasswordHasher(iterations: Self.iterations),
      now: { Date() }, onNotice: { fail("unexpected notice: \($0)") })
    service = MockAccountService(
      store: store, signer: signer, clock: ContinuousClock(), sessionLifetime: .seconds(3600),
      latency: .zero)
  }

  /// Signs up `count` accounts, each in its own locked read-modify-write of `accounts.json`.
  func signUp(count: Int) async throws {
    for index in 0..<count {
      _ = try await add(index)
    }
  }

  /// Adds accounts and saves each one's session in `session.json`, until killed.
  func churn() async throws -> Never {
    let sessions = SessionStore(directory: directory, signer: signer)
    var index = 0
    while true {
      try sessions.save(try await add(index))
      if index == 0 { say("ready") }
      index += 1
    }
  }

  /// Signs up account number `index`; throws if the address is taken.
  private func add(_ index: Int) async throws -> Session {
    let profile = Profile(
      email: "\(prefix)-\(index)@stress.test", gender: .female, mobile: "+60123456789",
      firstName: "Stress", lastName: "\(prefix) \(index)")
    return try await service.signUp(Registration(password: Self.password, profile: profile))
  }
}

/// Writes `message` and a newline to standard output at once (no buffering to lose on SIGKILL).
func say(_ message: String) {
  put(message + "\n", to: STDOUT_FILENO)
}

/// Reports `message` on standard error and exits with status 1.
func fail(_ message: String) -> Never {
  put("store-stress: \(message)\n", to: STDERR_FILENO)
  exit(1)
}

private func put(_ text: String, to fd: Int32) {
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    if written < 0, errno == EINTR { continue }
    guard written > 0 else { return }
    bytes = bytes.dropFirst(written)
  }
}
