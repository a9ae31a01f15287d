/// Small files built byte by byte for the bad-input tests.
enum CraftedFiles {
  /// A PNG signature and an IHDR chunk (valid CRC) declaring a size, and nothing after it:
  /// a decoder that read past the header would find the file truncated.
  static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let body = Array("IHDR".utf8) + bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
    return signature + bigEndian(13) + body + bigEndian(crc32(body))
  }

  /// A JPEG with the size in its frame header (SOF0 or SOF2) replaced.
  static func jpeg(_ bytes: [UInt8], claiming width: UInt16, _ height: UInt16) -> [UInt8] {
    var bytes = bytes
    guard
      let sof = (0..<bytes.count - 9).first(where: {
        bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2)
      })
    else {
      return bytes
    }
    bytes[sof + 5] = UInt8(height >> 8)
    bytes[sof + 6] = UInt8(height & 0xFF)
    bytes[sof + 7] = UInt8(width >> 8)
    bytes[sof + 8] = UInt8(width & 0xFF)
    return bytes
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  /// CRC-32 as PNG uses it (ISO 3309, reflected, polynomial 0xEDB88320).
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 {
        crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
      }
    }
    return ~crc
  }
}
