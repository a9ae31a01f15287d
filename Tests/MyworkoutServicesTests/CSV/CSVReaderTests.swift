import Testing

@testable import MyworkoutServices

/// The RFC 4180 reader on a corpus of awkward files.
@Suite struct CSVReaderTests {
  func records(_ text: String) -> [CSVRecord] { CSVReader.records(Array(text.utf8)) }

  func fields(_ text: String) -> [[String]] { records(text).map(\.fields) }

  @Test func plainLinesWithAndWithoutAFinalNewline() {
    #expect(fields("a,b\nc,d\n") == [["a", "b"], ["c", "d"]])
    #expect(fields("a,b\nc,d") == [["a", "b"], ["c", "d"]])
    #expect(fields("a,b\r\nc,d\r\n") == [["a", "b"], ["c", "d"]])
    #expect(fields("a,b\r\nc,d") == [["a", "b"], ["c", "d"]])
    #expect(fields("a\rb\r") == [["a"], ["b"]])
    #expect(fields("") == [])
    #expect(fields("\n") == [[""]])
  }

  @Test func emptyFieldsAndShortRows() {
    #expect(fields(",a,\n,\nonly\n") == [["", "a", ""], ["", ""], ["only"]])
    #expect(fields("a,b,c\nd\ne,f,g,h") == [["a", "b", "c"], ["d"], ["e", "f", "g", "h"]])
    #expect(fields("a,b,") == [["a", "b", ""]])
  }

  @Test func quotedFieldsHoldCommasQuotesAndLineBreaks() {
    let text =
      "title,song\n\"Salsa, for two\",\"She said \"\"hi\"\"\"\n\"two\nlines\",\"crlf\r\ninside\"\nlast,\"\"\n"
    #expect(
      fields(text) == [
        ["title", "song"], ["Salsa, for two", "She said \"hi\""], ["two\nlines", "crlf\r\ninside"],
        ["last", ""],
      ])
    // Each record reports the physical line it starts on.
    #expect(records(text).map(\.line) == [1, 2, 3, 6])
    #expect(records(text).allSatisfy { !$0.isMalformed })
  }

  @Test func lineNumbersCountEveryKindOfLineBreak() {
    let text = "h\r\na\r\n\"x\r\ny\"\r\nb\rc\n\nd"
    #expect(records(text).map(\.line) == [1, 2, 3, 5, 6, 7, 8])
    #expect(records(text)[5].isBlank)
  }

  @Test func aByteOrderMarkAtTheStartIsSkipped() {
    #expect(fields("\u{FEFF}title,level\nx,y") == [["title", "level"], ["x", "y"]])
    #expect(records("\u{FEFF}a\nb").map(\.line) == [1, 2])
    // Only at the very start, and only the whole mark.
    #expect(fields("a,\u{FEFF}b") == [["a", "\u{FEFF}b"]])
    #expect(CSVReader.records([0xEF, 0xBB, 0x41]).map(\.fields) == [["\u{FFFD}A"]])
    #expect(CSVReader.records([0xEF, 0xBB]).map(\.fields) == [["\u{FFFD}"]])
    #expect(fields("ï,b") == [["ï", "b"]])
  }

  @Test func brokenQuotingIsFlaggedNotFatal() {
    let unclosed = records("a,b\n\"never closed,c\nd,e\n")
    #expect(unclosed.count == 2)
    #expect(unclosed[1].isMalformed)
    #expect(unclosed[1].fields == ["never closed,c\nd,e\n"])

    let trailing = records("\"ab\"c,d\nok,fine")
    #expect(trailing.map(\.fields) == [["abc", "d"], ["ok", "fine"]])
    #expect(trailing.map(\.isMalformed) == [true, false])

    // A quote inside an unquoted field is ordinary text.
    #expect(records("5'10\" tall,x").map(\.fields) == [["5'10\" tall", "x"]])
    #expect(records("5'10\" tall,x").allSatisfy { !$0.isMalformed })
  }

  @Test func nonUTF8BytesBecomeReplacementCharacters() {
    #expect(CSVReader.records([0x41, 0xFF, 0x2C, 0x42]).map(\.fields) == [["A\u{FFFD}", "B"]])
  }

  @Test func chunkBoundariesChangeNothing() {
    let corpus = [
      "\u{FEFF}a,\"b,\"\"c\"\"\r\nd\"\r\ne,f\rg\n\n\"h\"", "\u{FEFF}", "\"x\"\"\"\r\n",
      "é,ü\r\n\"ß\"",
    ]
    var generator = SystemRandomNumberGenerator()
    for text in corpus {
      let bytes = Array(text.utf8)
      let whole = CSVReader.records(bytes)
      for _ in 0..<50 {
        var reader = CSVReader()
        var pieces: [CSVRecord] = []
        var rest = bytes[...]
        while !rest.isEmpty {
          let size = Int.random(in: 1...4, using: &generator)
          reader.read(rest.prefix(size)) { pieces.append($0) }
          rest = rest.dropFirst(size)
        }
        reader.finish { pieces.append($0) }
        #expect(pieces == whole, "\(text.debugDescription)")
      }
    }
  }

  @Test func aTenMegabyteFieldIsReadWhole() {
    let size = 10 << 20
    var bytes = Array("id,body\n1,\"".utf8)
    let pattern = Array("la, \"\"la\"\"\nla ".utf8)
    var produced = 0
    while produced < size {
      bytes += pattern
      produced += pattern.count
    }
    bytes += Array("\"\n2,short\n".utf8)
    let records = CSVReader.records(bytes)
    #expect(records.count == 3)
    let body = records[1].fields[1]
    #expect(body.utf8.count == produced - 4 * produced / pattern.count / 2)
    #expect(body.hasPrefix("la, \"la\"\nla la, \"la\""))
    #expect(records[2].fields == ["2", "short"])
    #expect(records[2].line == 3 + produced / pattern.count)
  }
}
