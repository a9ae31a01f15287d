import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct AccountsStoreTests {
  @Test func aFreshRegistryHoldsTheSeededAccount() async throws {
    try await withDataDirectory { directory throws in
      let notices = NoticeLog()
      let registry = try makeStore(directory, notices: notices).load()
      #expect(registry.accounts.map(\.profile) == [SeedAccount.profile])
      #expect(fastHasher.verify("password", against: registry.accounts[0].password))
      #expect(notices.all.isEmpty)
      #expect(permissions(directory.path) == 0o700)
      #expect(permissions(directory.accountsPath) == 0o600)
      #expect(permissions(directory.lockPath) == 0o600)
      let text = String(decoding: contents(directory.accountsPath) ?? Data(), as: UTF8.self)
      #expect(text.contains(#""version" : 2"#))
      #expect(registry.accounts.map(\.id) == [AccountID.seed])
      #expect(!text.contains(#": "password""#))
    }
  }

  @Test func updatesAreSeenByOtherStoreObjects() async throws {
    try await withDataDirectory { directory throws in
      let account = StoredAccount(
        id: AccountID.random(), profile: registration(email: "new@example.com").profile,
        password: try fastHasher.hash("s3cret!pass"))
      try makeStore(directory).update { $0.accounts.append(account) }
      let other = try makeStore(directory).load()
      #expect(other.account(for: " NEW@example.com ") == account)
      #expect(other.accounts.count == 2)
    }
  }

  @Test func aThrowingChangeWritesNothing() async throws {
    try await withDataDirectory { directory throws in
      let store = makeStore(directory)
      _ = try store.load()
      let before = contents(directory.accountsPath)
      #expect(throws: ServiceError.emailExists) {
        try store.update { registry in
          registry.accounts.removeAll()
          throw ServiceError.emailExists
        }
      }
      #expect(contents(directory.accountsPath) == before)
    }
  }

  @Test func resetLeavesOnlyTheSeededAccount() async throws {
    try await withDataDirectory { directory throws in
      let store = makeStore(directory)
      let account = StoredAccount(
        profile: registration(email: "new@example.com").profile,
        password: try fastHasher.hash("s3cret!pass"))
      try store.update { $0.accounts.append(account) }
      try store.reset()
      #expect(try store.load().accounts.map(\.profile) == [SeedAccount.profile])
    }
  }

  @Test(arguments: Damage.allCases.filter { $0 != .unreadable })
  func aDamagedRegistryIsMovedAsideAndReplaced(damage: Damage) async throws {
    try await checkADamagedRegistryIsMovedAsideAndReplaced(damage)
  }

  /// root reads a mode-000 file anyway, so this case is skipped (and shown skipped) as root.
  @Test(.disabled(if: isRoot, "root can read a mode-000 file"))
  func aDamagedRegistryIsMovedAsideAndReplacedWhenUnreadable() async throws {
    try await checkADamagedRegistryIsMovedAsideAndReplaced(.unreadable)
  }

  private func checkADamagedRegistryIsMovedAsideAndReplaced(_ damage: Damage) async throws {
    try await withDataDirectory { directory throws in
      let original = damage.apply(to: directory.path, file: "accounts.json")
      let notices = NoticeLog()
      let registry = try makeStore(directory, notices: notices).load()
      #expect(registry.accounts.map(\.profile) == [SeedAccount.profile])
      let name = "accounts.json.corrupt-20261121T141500Z"
      #expect(
        notices.all == [
          "accounts.json could not be read; moved it aside to \(name) "
            + "and started a fresh registry"
        ])
      damage.expectIntact(original, at: directory.path, name: name)
      #expect(try makeStore(directory).load() == registry)
      #expect(permissions(directory.accountsPath) == 0o600)
    }
  }
}
