#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The URL-safe base64 alphabet without padding, as JWTs use it (RFC 7515 §2).
package enum Base64URL {
  package static func encode(_ bytes: some Sequence<UInt8>) -> String {
    var text = Data(bytes).base64EncodedString()
    while text.hasSuffix("=") { text.removeLast() }
    return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
  }

  /// The bytes, or nil unless `text` is exactly how `encode` writes them (no padding, no
  /// stray characters, no other spelling of the same bytes).
  package static func decode(_ text: Substring) -> [UInt8]? {
    guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else { return nil }
    var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    standard.append(String(repeating: "=", count: (4 - standard.count % 4) % 4))
    guard let data = Data(base64Encoded: standard) else { return nil }
    let bytes = [UInt8](data)
    guard encode(bytes) == text else { return nil }
    return bytes
  }
}
