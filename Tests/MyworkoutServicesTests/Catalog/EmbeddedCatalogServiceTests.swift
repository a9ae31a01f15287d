import Clocks
import MyworkoutCore
import Testing

@testable import MyworkoutServices

/// The embedded catalog service pays the mock latency for a first load and each search, never
/// for later pages or a class by id (SPEC §16), and stops when cancelled.
@Suite(.enabled(if: sharedDataPresent, sharedDataMissing))
struct EmbeddedCatalogServiceTests {
  func makeService(
    _ directory: DataDirectory, clock: any Clock<Duration>, shipped: String = shippedCatalog
  ) -> EmbeddedCatalogService {
    EmbeddedCatalogService(
      store: makeCatalogStore(directory, file: briefCatalog, shipped: shipped), clock: clock)
  }

  @Test(arguments: ["", "anne"])
  func aFirstLoadOrASearchTakesTheLatency(query: String) async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock)
      let result = await expectOneSecond(on: clock) {
        try await service.page(query: query, offset: 0, limit: 50)
      }
      let page = try result.get()
      #expect(page.total == 351)
      #expect(page.matching == (query.isEmpty ? 351 : 3))
    }
  }

  @Test func laterPagesAndOneClassAreImmediate() async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock)
      let page = try await expectImmediate(on: clock) {
        try await service.page(query: "", offset: 50, limit: 50)
      }.get()
      #expect(page.classes.count == 50)
      #expect(page.offset == 50)
      let first = try #require(page.classes.first)
      let found = await expectImmediate(on: clock) { try await service.danceClass(id: first.id) }
      #expect(try found.get() == first)
    }
  }

  @Test func failuresTakeTheLatencyToo() async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = EmbeddedCatalogService(
        store: makeCatalogStore(directory, shipped: directory.path + "/gone.csv"), clock: clock)
      let result = await expectOneSecond(on: clock) {
        try await service.page(query: "", offset: 0, limit: 50)
      }
      let message =
        "Classes could not be loaded: Cannot read \(directory.path)/gone.csv: "
        + "No such file or directory"
      #expect(result.failure as? CatalogError == CatalogError(message: message))
    }
  }

  @Test func aCancelledSearchEndsWithCancellation() async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock)
      let task = Task { try await service.page(query: "anne", offset: 0, limit: 50) }
      await waitForSleeper(clock)
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
    }
  }
}
