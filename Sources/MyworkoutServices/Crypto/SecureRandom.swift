import Crypto

/// Bytes from the cryptographic random number generator behind swift-crypto.
enum SecureRandom {
  static func bytes(_ count: Int) -> [UInt8] {
    SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
  }
}
