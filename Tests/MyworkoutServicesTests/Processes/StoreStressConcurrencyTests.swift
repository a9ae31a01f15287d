import MyworkoutCore
import TestProcesses
import Testing

@testable import MyworkoutServices

/// Several separate processes writing one `accounts.json` at once (SPEC §7: two running copies
/// never lose each other's updates).
@Suite struct StoreStressConcurrencyTests {
  static let processes = 8
  static let accountsEach = 10

  @Test func processesSigningUpAtOnceLoseNothing() async throws {
    try await withTemporaryDirectory { root throws in
      // The data directory does not exist yet: the processes also race to make it.
      let path = root + "/data"
      let prefixes = (0..<Self.processes).map { "signup\($0)" }
      let children = try prefixes.map { prefix in
        let arguments = ["signup", path, prefix, String(Self.accountsEach)]
        return try StressTool.start(arguments, errorLog: root + "/\(prefix).log")
      }
      for (prefix, child) in zip(prefixes, children) {
        let end = await child.wait()
        #expect(end == .exited(0), "\(prefix): \(StressTool.log(root + "/\(prefix).log"))")
      }

      let directory = DataDirectory(unchecked: path)
      let registry = try DataFiles.registry(in: directory)
      let expected = prefixes.flatMap { prefix in
        (0..<Self.accountsEach).map { StressTool.email(prefix, $0) }
      }
      let emails = DataFiles.emails(registry)
      #expect(registry.accounts.count == expected.count + 1)
      #expect(emails.contains(SeedAccount.profile.email))
      #expect(Set(expected).subtracting(emails).sorted() == [], "lost updates")
      #expect(emails.subtracting(expected + [SeedAccount.profile.email]).sorted() == [])
      #expect(registry.accounts.first?.profile == SeedAccount.profile)
      let hasher = PasswordHasher(iterations: StressTool.iterations)
      let unverified = registry.accounts.dropFirst().filter {
        !hasher.verify(StressTool.password, against: $0.password)
      }
      #expect(unverified.isEmpty, "hashes that do not match the password")

      #expect(permissions(path) == 0o700)
      #expect(permissions(directory.accountsPath) == 0o600)
      #expect(permissions(directory.lockPath) == 0o600)
      // Only the registry, its lock and the key: no temporary file left, nothing moved aside.
      #expect(listing(path) == ["accounts.json", "accounts.lock", "signing.key"])
    }
  }
}
