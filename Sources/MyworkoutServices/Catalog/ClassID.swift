import Crypto
import MyworkoutCore

/// A class's id (SPEC §11): the lowercase hex SHA-256 of its title, instructor, level and song,
/// so that progress kept under the id survives a re-import of the file.
///
/// Each field is trimmed of surrounding white space and put in Unicode NFC, so that the same
/// text typed or saved differently gives the same id; the level is its lowercase name, so that
/// `Beginner` and `beginner` do too. The fields are joined unambiguously as netstrings, each its
/// UTF-8 byte count in decimal, a colon, the bytes and a comma (`5:Salsa,`), so no choice of
/// field contents can make two different classes hash the same bytes.
enum ClassID {
  static func make(title: String, instructor: String, level: ClassLevel, song: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(160)
    for field in [
      title.trimmingWhitespace(), instructor.trimmingWhitespace(), level.rawValue,
      song.trimmingWhitespace(),
    ] {
      let normalized = FastText.nfcBytes(field)
      bytes += Array(String(normalized.count).utf8)
      bytes.append(UInt8(ascii: ":"))
      bytes += normalized
      bytes.append(UInt8(ascii: ","))
    }
    return FastText.hex(SHA256.hash(data: bytes))
  }
}
