import Foundation
import MyworkoutServer
import MyworkoutServices
import Testing

/// A server that cannot start on its own files says which file and what to do: a walk-through's
/// empty signing key said `underlyingCoreCryptoError(error: 150995054)`, and a damaged accounts
/// file `PRAGMA journal_mode = WAL: file is not a database`. Neither named the file; nothing was
/// changed, and still is not.
@Suite struct StartRefusalTests {
  @Test(arguments: ["", "-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----\n"])
  func aSigningKeyThatCannotBeReadIsNamed(content: String) async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/data")
      let key = directory.path + "/id-token-key.pem"
      try Data(content.utf8).write(to: URL(fileURLWithPath: key))
      let error = try #require(throws: (any Error).self) {
        try ServerStores.local(options: testOptions(root), directory: directory)
      }
      let said = String(describing: error)
      #expect(said.contains(key), "\(said)")
      #expect(said.contains("move it aside"), "\(said)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: key)) == Data(content.utf8), "unchanged")
    }
  }

  @Test func anAccountsFileThatIsNotADatabaseIsNamed() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/data")
      let accounts = directory.path + "/accounts.sqlite"
      let garbage = Data(repeating: 0x47, count: 8_192)
      try garbage.write(to: URL(fileURLWithPath: accounts))
      let error = try #require(throws: (any Error).self) {
        try ServerStores.local(options: testOptions(root), directory: directory)
      }
      let said = String(describing: error)
      #expect(said.contains(accounts), "\(said)")
      #expect(said.contains("refusing to start"), "\(said)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: accounts)) == garbage, "unchanged")
    }
  }
}
