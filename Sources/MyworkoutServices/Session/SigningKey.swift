import Crypto
import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The secret that signs session tokens: 32 random bytes made once per data directory and kept
/// base64 in `signing.key` (mode 0600).
package struct SigningKey: Sendable {
  static let byteCount = 32
  let key: SymmetricKey

  package init(bytes: [UInt8]) {
    key = SymmetricKey(data: bytes)
  }

  /// A fresh random key (tests; `load(in:now:)` for the app).
  package static func random() -> SigningKey {
    SigningKey(bytes: SecureRandom.bytes(byteCount))
  }

  /// The directory's key, made if missing. A damaged key file is moved aside and replaced, which
  /// ends every saved session; the notice says so. Two processes starting together agree on
  /// one key because the key is read and made under the directory's lock.
  package static func load(
    in directory: DataDirectory, now: Date
  ) throws -> (key: SigningKey, notice: String?) {
    let path = directory.signingKeyPath
    return try FileLock.withExclusiveLock(path: directory.lockPath) {
      var notice: String?
      do {
        if let key = try read(in: directory) { return (key, nil) }
      } catch let error as FileError where error.isDamage {
        let name = try Quarantine.moveAside(path: path, now: now)
        notice = "signing.key could not be read; moved it aside to \(name) and made a new key"
      }
      let key = random()
      try key.write(to: path)
      return (key, notice)
    }
  }

  /// The directory's key, or nil when it has none; a file that holds no key is damage
  /// (`FileError.isDamage`). Reading needs no lock: the file is only ever replaced whole.
  static func read(in directory: DataDirectory) throws -> SigningKey? {
    let path = directory.signingKeyPath
    guard let data = try AtomicFile.read(path: path, limit: 4096) else { return nil }
    guard let key = parse(data) else {
      throw FileError(message: "\(path) does not hold a key", isDamage: true)
    }
    return key
  }

  /// Writes this key into a directory that has none (made again after it was removed while
  /// the app ran), so that sessions it signs stay valid at the next launch. A key already there
  /// is left alone.
  func keep(in directory: DataDirectory) throws {
    let path = directory.signingKeyPath
    try FileLock.withExclusiveLock(path: directory.lockPath) {
      guard try AtomicFile.read(path: path, limit: 4096) == nil else { return }
      try write(to: path)
    }
  }

  private func write(to path: String) throws {
    let text = key.withUnsafeBytes { Data($0).base64EncodedString() } + "\n"
    try AtomicFile.write(Data(text.utf8), to: path)
  }

  private static func parse(_ data: Data) -> SigningKey? {
    guard let text = String(data: data, encoding: .utf8),
      let bytes = Data(base64Encoded: text.trimmingWhitespace()), bytes.count == byteCount
    else { return nil }
    return SigningKey(bytes: [UInt8](bytes))
  }
}
