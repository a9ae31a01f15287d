import MyworkoutCore
import Testing

@testable import MyworkoutServices

/// Search semantics (SPEC §11) on the brief's own file and on small files made for each case.
@Suite struct CatalogSearchTests {
  @Test(.enabled(if: sharedDataPresent, sharedDataMissing)) func theBriefsFileHasExactlyThreeAnnes()
    async throws
  {
    try await withDataDirectory { directory throws in
      let store = makeCatalogStore(directory, file: briefCatalog)
      let everything = try await store.page(query: "", offset: 0, limit: 50)
      #expect(everything.total == 351)
      #expect(everything.countLine == "351 classes")
      #expect(everything.classes.first?.title == "Nisi veritatis doloremque quidem et eos.")
      let annes = try await store.page(query: "anne", offset: 0, limit: 50)
      #expect(annes.classes.count == 3)
      #expect(
        Set(annes.classes.map(\.instructor)) == [
          "Suzanne Ratke", "Tanner Jenkins", "Dr. Annamarie Pfannerstill",
        ])
      #expect(annes.countLine == "3 of 351 classes match \"anne\"")
      #expect(
        try await store.page(query: "ANNE", offset: 0, limit: 50)
          == {
            var upper = annes
            upper.query = "ANNE"
            return upper
          }())
      let none = try await store.page(query: "xyz", offset: 0, limit: 50)
      #expect(none.countLine == "No classes match \"xyz\"")
      #expect(none.classes.isEmpty)
    }
  }

  /// Every query agrees with a plain scan of all classes, in file order.
  @Test(.enabled(if: sharedDataPresent, sharedDataMissing)) func queriesAgreeWithAScanOfEveryClass()
    async throws
  {
    try await withDataDirectory { directory throws in
      let store = makeCatalogStore(directory, file: briefCatalog)
      let everything = try await store.all("")
      #expect(everything.count == 351)
      let queries = [
        "a", "an", "ann", "e s", "adv", "INTER", "dr", "dr. ann", "o'c", "beginner qu", "x", "zz",
        "iii", "  et  ", "é", "jpg", "mp4", "eos. adolph", "quasi molestias", "ü", "'",
      ]
      for query in queries {
        let terms = SearchText.terms(of: query)
        let expected = everything.filter { item in
          SearchText.matches(
            terms,
            in: SearchText.searchable(
              title: item.title, instructor: item.instructor, level: item.level, song: item.song))
        }
        let found = try await store.all(query, limit: 37)
        #expect(found == expected, "\(query)")
        let first = try await store.page(query: query, offset: 0, limit: 10)
        #expect(first.matching == expected.count, "\(query)")
        #expect(first.classes == Array(expected.prefix(10)), "\(query)")
      }
    }
  }

  @Test func caseDiacriticsAndPartsOfWords() async throws {
    try await withTemporaryDirectory { root throws in
      let file = writeCatalog(
        [
          header, row("Salsa", "Zoë Okafor"), row("Hip Hop", "José Ramírez", "ADVANCED"),
          row("Waltz", "Leanne Park", "Intermediate", "Straße"), row("Tango", "Anne Smith"),
          row("Samba", "Sébastien", "beginner", "Zoe's tune"),
        ], to: root)
      let directory = try DataDirectory.prepare(path: root + "/data")
      let store = makeCatalogStore(directory, file: file)
      func titles(_ query: String) async throws -> [String] {
        try await store.all(query).map(\.title)
      }
      #expect(try await titles("ZOË") == ["Salsa", "Samba"])
      #expect(try await titles("zoe") == ["Salsa", "Samba"])
      #expect(try await titles("jose ramirez") == ["Hip Hop"])
      #expect(try await titles("anne") == ["Waltz", "Tango"])
      #expect(try await titles("strasse") == ["Waltz"])
      #expect(try await titles("advanced") == ["Hip Hop"])
      #expect(try await titles("inter walt") == ["Waltz"])
      #expect(try await titles("seb") == ["Samba"])
      #expect(try await titles("\"") == [])
      // Every term in some field, but not across two fields.
      #expect(try await titles("salsa zoe") == ["Salsa"])
      #expect(try await titles("salsazoe") == [])
      #expect(try await titles("salsa tango") == [])
    }
  }

  @Test func pagesAndACappedCount() async throws {
    try await withTemporaryDirectory { root throws in
      let rows = (1...1_500).map { row("Class \($0)", "Teacher \($0 % 7)") }
      let file = writeCatalog([header] + rows, to: root)
      let directory = try DataDirectory.prepare(path: root + "/data")
      let store = makeCatalogStore(directory, file: file)
      let capped = try await store.page(query: "class", offset: 0, limit: 50)
      #expect(capped.isCapped)
      #expect(capped.matching == 1_000)
      #expect(capped.countLine == "1,000+ of 1,500 classes match \"class\"")
      #expect(capped.classes.map(\.title) == (1...50).map { "Class \($0)" })
      let later = try await store.page(query: "class", offset: 1_450, limit: 100)
      #expect(later.classes.map(\.title) == (1451...1500).map { "Class \($0)" })
      #expect(try await store.page(query: "", offset: 0, limit: 1).countLine == "1,500 classes")
      // Short terms are scanned; a count at the cap exactly is not capped.
      let short = try await store.page(query: "s 3", offset: 0, limit: 5)
      #expect(short.matching == (1...1_500).count { "Class \($0) Teacher \($0 % 7)".contains("3") })
      #expect(!short.isCapped)
      let teachers = try await store.page(query: "teacher 3", offset: 0, limit: 500)
      #expect(teachers.matching == (1...1_500).count { $0 % 7 == 3 || "\($0)".contains("3") })
      #expect(teachers.classes.count == min(500, teachers.matching))
      #expect(try await store.page(query: "", offset: 5, limit: 1_000).classes.count == 500)
      #expect(try await store.page(query: "", offset: -3, limit: -1).classes.isEmpty)
    }
  }

  @Test func findsOneClassById() async throws {
    try await withDataDirectory { directory throws in
      let store = makeCatalogStore(directory)
      let first = try #require(try await store.page(query: "", offset: 0, limit: 1).classes.first)
      #expect(try await store.danceClass(id: first.id) == first)
      #expect(try await store.danceClass(id: "nope") == nil)
    }
  }
}
