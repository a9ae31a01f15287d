/// An RFC 4180 reader that takes a file's bytes in chunks of any size and hands out each record
/// as soon as it is complete, so a large file is never held in memory at once.
///
/// Fields are separated by commas; a field in double quotes may hold commas, line breaks and
/// doubled quotes (`""` for `"`). Records end at CRLF, LF or a lone CR; the last one needs no
/// line break. A UTF-8 byte order mark at the very start is skipped. A quote inside an unquoted
/// field is kept as text. Bytes that are not UTF-8 become U+FFFD.
package struct CSVReader {
  private enum State {
    case fieldStart
    case unquoted
    case quoted
    /// A quote inside a quoted field: the field's end, or the first half of `""`.
    case quoteInQuoted
  }

  private static let quote = UInt8(ascii: "\"")
  private static let comma = UInt8(ascii: ",")
  private static let lineFeed = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")
  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  private var state = State.fieldStart
  private var field: [UInt8] = []
  private var fields: [String] = []
  private var malformed = false
  /// The physical line the next byte is on.
  private var line = 1
  private var recordLine = 1
  /// The last byte was a CR: a LF right after it belongs to the same line break.
  private var afterCarriageReturn = false
  /// How many bytes of the byte order mark have been seen at the start (3 = done checking).
  private var markMatched = 0

  package init() {}

  /// Reads `bytes`, calling `emit` with every record they complete.
  package mutating func read(
    _ bytes: some Sequence<UInt8>, _ emit: (CSVRecord) throws -> Void
  ) rethrows {
    for byte in bytes {
      if markMatched < 3 {
        if byte == Self.byteOrderMark[markMatched] {
          markMatched += 1
          continue
        }
        // Not a mark after all: what was held back is text.
        let held = Self.byteOrderMark[0..<markMatched]
        markMatched = 3
        for earlier in held { try consume(earlier, emit) }
      }
      try consume(byte, emit)
    }
  }

  /// Ends the input: emits the last record if it had no line break after it.
  package mutating func finish(_ emit: (CSVRecord) throws -> Void) rethrows {
    if markMatched < 3 {
      let held = Self.byteOrderMark[0..<markMatched]
      markMatched = 3
      for earlier in held { try consume(earlier, emit) }
    }
    switch state {
    case .fieldStart where fields.isEmpty:
      return  // nothing after the last line break
    case .quoted:
      malformed = true
    default:
      break
    }
    try endRecord(emit)
  }

  /// Every record of a whole file's bytes (for tests and small inputs).
  package static func records(_ bytes: some Sequence<UInt8>) -> [CSVRecord] {
    var reader = CSVReader()
    var records: [CSVRecord] = []
    reader.read(bytes) { records.append($0) }
    reader.finish { records.append($0) }
    return records
  }

  private mutating func consume(_ byte: UInt8, _ emit: (CSVRecord) throws -> Void) rethrows {
    let isLineFeedAfterCR = byte == Self.lineFeed && afterCarriageReturn
    afterCarriageReturn = byte == Self.carriageReturn
    switch state {
    case .fieldStart, .unquoted, .quoteInQuoted:
      if isLineFeedAfterCR { return }  // the CR already ended the record
      switch byte {
      case Self.comma:
        endField()
      case Self.lineFeed, Self.carriageReturn:
        try endRecord(emit)
        line += 1
        recordLine = line
      case Self.quote where state == .fieldStart:
        state = .quoted
      case Self.quote where state == .quoteInQuoted:
        field.append(byte)  // `""` inside quotes
        state = .quoted
      default:
        if state == .quoteInQuoted { malformed = true }  // `"ab"c`: keep `abc`
        field.append(byte)
        state = .unquoted
      }
    case .quoted:
      if byte == Self.quote {
        state = .quoteInQuoted
        return
      }
      field.append(byte)
      if byte == Self.carriageReturn || (byte == Self.lineFeed && !isLineFeedAfterCR) {
        line += 1
      }
    }
  }

  private mutating func endField() {
    fields.append(String(decoding: field, as: UTF8.self))
    field.removeAll(keepingCapacity: field.count <= 4096)
    state = .fieldStart
  }

  private mutating func endRecord(_ emit: (CSVRecord) throws -> Void) rethrows {
    endField()
    let record = CSVRecord(fields: fields, line: recordLine, isMalformed: malformed)
    fields.removeAll(keepingCapacity: true)
    malformed = false
    try emit(record)
  }
}
