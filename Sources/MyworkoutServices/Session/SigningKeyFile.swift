import MyworkoutCore
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The data directory's signing key, read at launch and made only when a token is first signed:
/// a launch that signs nobody in writes nothing, and the first frame does not wait for two
/// fsyncs (DECISIONS.md, "Start and memory"). Making it goes through `SigningKey.load`, under
/// the directory's lock, so processes starting together still agree on one key.
package final class SigningKeyFile: Sendable {
  private let directory: DataDirectory?
  private let loaded: Mutex<SigningKey?>
  /// Said once at launch when a damaged key file was moved aside (and replaced).
  package let notice: String?

  /// A key that is there already (tests, and services given a `TokenSigner`).
  package init(key: SigningKey) {
    directory = nil
    loaded = Mutex(key)
    notice = nil
  }

  private init(directory: DataDirectory, key: SigningKey?, notice: String?) {
    self.directory = directory
    loaded = Mutex(key)
    self.notice = notice
  }

  /// The directory's key as it is now: read if present (no lock is needed to read a file that
  /// is only ever replaced whole), left to be made if absent. A damaged file is moved aside and
  /// a new key made at once, as before, so that the notice comes with the launch.
  package static func open(in directory: DataDirectory, now: Date) throws -> SigningKeyFile {
    do {
      return SigningKeyFile(
        directory: directory, key: try SigningKey.read(in: directory), notice: nil)
    } catch let error as FileError where error.isDamage {
      let (key, notice) = try SigningKey.load(in: directory, now: now)
      return SigningKeyFile(directory: directory, key: key, notice: notice)
    }
  }

  /// A signer with the directory's key, reading or making it on first use. Blocking file I/O.
  package func signer() throws -> TokenSigner {
    try loaded.withLock { key in
      if let key { return TokenSigner(key: key) }
      guard let directory else { preconditionFailure("a fixed SigningKeyFile always has a key") }
      let made = try SigningKey.load(in: directory, now: Date()).key
      key = made
      return TokenSigner(key: made)
    }
  }

  /// A signer to check tokens with, or nil while the directory has no key (then no token can
  /// be genuine). Reads the file if another process has made the key since.
  package func verifier() -> TokenSigner? {
    loaded.withLock { key in
      if key == nil, let directory, let found = try? SigningKey.read(in: directory) {
        key = found
      }
      return key.map(TokenSigner.init(key:))
    }
  }

  /// Writes the key into a directory made again after it was removed while the app ran, so that
  /// sessions it signed stay valid at the next launch. Nothing to keep while no key is loaded.
  func keep(in directory: DataDirectory) throws {
    guard let key = loaded.withLock({ $0 }) else { return }
    try key.keep(in: directory)
  }
}
