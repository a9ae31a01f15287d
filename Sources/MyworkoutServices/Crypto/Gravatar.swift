import Crypto
import MyworkoutCore

/// Gravatar identities: the SHA-256 of the trimmed, lowercased email address.
package enum Gravatar {
  /// Lowercase hex SHA-256 of `Email.normalized(email)`.
  package static func hash(email: String) -> String {
    SHA256.hash(data: Array(Email.normalized(email).utf8)).hexString
  }

  /// The avatar's address; `d=identicon` draws a pattern for addresses Gravatar does not know.
  package static func url(email: String) -> String {
    "https://gravatar.com/avatar/\(hash(email: email))?d=identicon"
  }
}

extension Sequence<UInt8> {
  /// Lowercase hexadecimal, two digits a byte (digests in file names, keys and tags).
  package var hexString: String {
    let digits = Array("0123456789abcdef")
    var text = ""
    for byte in self {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return text
  }
}
