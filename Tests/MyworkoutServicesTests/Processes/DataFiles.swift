import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads what the stores left in a data directory, straight from the files (no store object, so
/// nothing is repaired or moved aside on the way).
enum DataFiles {
  static let dataNames: Set = ["accounts.json", "session.json", "signing.key", "accounts.lock"]

  /// Whether `name` is a temporary file of `AtomicFile.write` (`.<file>.tmp-<pid>-<hex>`).
  static func isTemporary(_ name: String) -> Bool {
    dataNames.contains { name.hasPrefix(".\($0).tmp-") }
  }

  /// Names that are neither data files nor temporary files, e.g. `accounts.json.corrupt-...`.
  static func strangers(in directory: DataDirectory) -> [String] {
    listing(directory.path).filter { !dataNames.contains($0) && !isTemporary($0) }
  }

  static func temporaries(in directory: DataDirectory) -> [String] {
    listing(directory.path).filter(isTemporary)
  }

  /// `accounts.json` decoded as the store decodes it.
  static func registry(in directory: DataDirectory) throws -> Registry {
    let data = try #require(contents(directory.accountsPath), "accounts.json is missing")
    return try JSONDecoder().decode(Registry.self, from: data)
  }

  /// The key in `signing.key` (32 bytes, base64, one line).
  static func signingKey(in directory: DataDirectory) throws -> SigningKey {
    let data = try #require(contents(directory.signingKeyPath), "signing.key is missing")
    let text = String(decoding: data, as: UTF8.self).trimmingWhitespace()
    let bytes = try #require(Data(base64Encoded: text), "signing.key is not base64")
    try #require(bytes.count == 32, "signing.key holds \(bytes.count) bytes")
    return SigningKey(bytes: [UInt8](bytes))
  }

  /// The addresses of the accounts in `registry`, checking each appears once.
  static func emails(
    _ registry: Registry, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Set<String> {
    let emails = registry.accounts.map(\.profile.email)
    let unique = Set(emails)
    #expect(unique.count == emails.count, "duplicate accounts", sourceLocation: sourceLocation)
    return unique
  }
}
