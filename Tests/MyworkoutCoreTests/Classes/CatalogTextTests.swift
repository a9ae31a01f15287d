import Testing

@testable import MyworkoutCore

/// The count line (SPEC §11), levels, and how search folds text.
@Suite struct CatalogCountLineTests {
  @Test(arguments: [
    ("", 0, false, 351, "351 classes"),
    ("   ", 0, false, 351, "351 classes"),
    ("anne", 3, false, 351, "3 of 351 classes match \"anne\""),
    (" anne ", 3, false, 351, "3 of 351 classes match \"anne\""),
    ("xyz", 0, false, 351, "No classes match \"xyz\""),
    ("dan", 1_000, true, 100_000, "1,000+ of 100,000 classes match \"dan\""),
    ("x", 1, false, 351, "1 of 351 classes matches \"x\""),
    ("", 0, false, 1, "1 class"),
    ("", 0, false, 0, "No classes"),
    ("zoë", 12, false, 1_234_567, "12 of 1,234,567 classes match \"zoë\""),
  ])
  func countLine(query: String, matching: Int, capped: Bool, total: Int, expected: String) {
    #expect(
      CatalogCountLine.text(query: query, matching: matching, isCapped: capped, total: total)
        == expected)
  }

  @Test func pageKnowsWhetherMoreFollow() {
    let page = CatalogPage(
      query: "a", offset: 50, classes: [], matching: 60, isCapped: false, total: 351)
    #expect(page.hasMore)
    #expect(page.countLine == "60 of 351 classes match \"a\"")
    var last = page
    last.offset = 60
    #expect(!last.hasMore)
  }

  @Test func levelsParseInAnyCase() {
    #expect(ClassLevel(parsing: " Beginner ") == .beginner)
    #expect(ClassLevel(parsing: "INTERMEDIATE") == .intermediate)
    #expect(ClassLevel(parsing: "advanced") == .advanced)
    #expect(ClassLevel(parsing: "expert") == nil)
    #expect(ClassLevel(parsing: "") == nil)
    #expect(ClassLevel.advanced.title == "Advanced")
  }
}

@Suite struct SearchTextTests {
  @Test(arguments: [
    ("ZOË", "zoe"), ("Zoë", "zoe"), ("Zoe\u{308}", "zoe"), ("José", "jose"),
    ("Ångström", "angstrom"), ("Straße", "strasse"), ("Łódź", "lodz"), ("Søren", "soren"),
    ("İstanbul", "istanbul"), ("Œuvre", "oeuvre"), ("ΟΔΌΣ", "οδοσ"), ("Пётр", "петр"),
    ("O'Conner III", "o'conner iii"), ("한국", "한국"), ("हिंदी", "हिंदी"), ("\u{301}", ""),
  ])
  func folds(_ text: String, _ expected: String) {
    #expect(SearchText.fold(text) == expected)
    // The stored form is NFC: Korean syllables come back composed, not as jamo.
    #expect(SearchText.fold(text).unicodeScalars.elementsEqual(expected.unicodeScalars))
    // Folding the whole text is folding each character (what highlighting relies on).
    #expect(SearchText.fold(text) == text.map { SearchText.fold($0) }.joined())
  }

  @Test func termsAreFoldedWordsWithoutEmptyOnes() {
    #expect(SearchText.terms(of: "  ZOË\tjosé  \u{301} a\u{1F}b ") == ["zoe", "jose", "ab"])
    #expect(SearchText.terms(of: " \n ").isEmpty)
  }

  @Test func everyTermMustMatchInsideOneField() {
    let text = SearchText.searchable(
      title: "Hip Hop Basics", instructor: "Zoë Müller", level: .beginner, song: "Anne's Song")
    #expect(SearchText.matches(["zoe", "hop"], in: text))
    #expect(SearchText.matches(["begin", "anne"], in: text))
    #expect(!SearchText.matches(["zoe", "salsa"], in: text))
    // "basics" ends the title and "zoë" starts the instructor: no match across the two.
    #expect(!SearchText.matches(["icszoe"], in: text))
    #expect(!SearchText.matches(["ics zoe"], in: text))
  }

  @Test func highlightsTheOriginalCharacters() {
    let text = "Zoë and Suzanne"
    let ranges = SearchText.highlights(of: SearchText.terms(of: "ZOE anne"), in: text)
    #expect(ranges.map { String(text[$0]) } == ["Zoë", "anne"])
    let german = "Straße"
    let sharp = SearchText.highlights(of: ["s"], in: german)
    #expect(sharp.map { String(german[$0]) } == ["S", "ß"])
    #expect(SearchText.highlights(of: ["zz"], in: text).isEmpty)
  }
}
