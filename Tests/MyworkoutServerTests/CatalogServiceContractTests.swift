import MyworkoutCore
import MyworkoutServices
import Testing

/// One contract for `CatalogService`, run against the embedded catalog and the HTTP client.
@Suite struct CatalogServiceContractTests {
  @Test(arguments: Implementation.allCases)
  func listsPagesAndSearchesTheShippedClasses(_ implementation: Implementation) async throws {
    try await withServices(implementation) { services in
      let first = try await services.catalog.page(query: "", offset: 0, limit: 50)
      #expect(first.total > 20)
      #expect(first.matching == first.total)
      #expect(first.classes.count == min(50, first.total))
      #expect(first.countLine == "\(first.total) classes")
      let second = try await services.catalog.page(query: "", offset: 10, limit: 10)
      #expect(second.offset == 10)
      #expect(second.classes == Array(first.classes[10..<20]))
      let searched = try await services.catalog.page(query: "anne", offset: 0, limit: 500)
      #expect(searched.matching > 0)
      #expect(searched.matching < first.total)
      #expect(searched.classes.count == searched.matching)
      #expect(searched.query == "anne")
      let none = try await services.catalog.page(query: "zzqqxx", offset: 0, limit: 50)
      #expect(none.matching == 0)
      #expect(none.countLine == "No classes match \"zzqqxx\"")
    }
  }

  @Test(arguments: Implementation.allCases)
  func findsAClassByIDOrNothing(_ implementation: Implementation) async throws {
    try await withServices(implementation) { services in
      let listed = try await services.catalog.page(query: "", offset: 0, limit: 1).classes[0]
      #expect(try await services.catalog.danceClass(id: listed.id) == listed)
      #expect(try await services.catalog.danceClass(id: "no-such-class") == nil)
    }
  }

  @Test func bothImplementationsAnswerTheSamePages() async throws {
    var answers: [Implementation: [CatalogPage]] = [:]
    for implementation in Implementation.allCases {
      answers[implementation] = try await withServicesReturning(implementation) { services in
        var pages: [CatalogPage] = []
        for (query, offset) in [("", 0), ("", 30), ("anne", 0), ("beg", 0), ("é", 0)] {
          pages.append(try await services.catalog.page(query: query, offset: offset, limit: 40))
        }
        return pages
      }
    }
    // The server names its own video URL for a bare file name (SPEC §19): the same file.
    let remote = answers[.remote]?.map { page in
      var page = page
      page.classes = page.classes.map { item in
        guard let range = item.videoURL.range(of: "/videos/"), item.videoURL.hasPrefix("http://")
        else { return item }
        return DanceClass(
          id: item.id, title: item.title, instructor: item.instructor, level: item.level,
          song: item.song, videoURL: String(item.videoURL[range.upperBound...]),
          thumbnailSlug: item.thumbnailSlug, duration: item.duration)
      }
      return page
    }
    #expect(
      answers[.remote]?.flatMap(\.classes).allSatisfy { $0.videoURL.contains("/videos/") } == true)
    #expect(answers[.embedded] == remote)
  }
}
