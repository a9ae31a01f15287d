/// Percent-encoding for a path segment or query value (RFC 3986 unreserved kept).
package enum Percent {
  private static let unreserved = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

  package static func encode(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
      if unreserved.contains(byte) {
        result.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        result += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return result
  }
}
