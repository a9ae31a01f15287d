import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MyworkoutCore
import NIOCore
import Synchronization
import Testing

@testable import MyworkoutServer

/// The catalog in memory (issue 30): a repeated read is a lookup, stamped with the catalog's
/// version (asked of the store at most once a second), a new version drops what was kept, the
/// memory is bounded, and a read never waits for another.
@Suite struct CatalogMemoryTests {
  /// A store double: counts its calls; `version` as set; a query named "slow" waits for `open`.
  final class CountingStore: CatalogStoring {
    private let state = Mutex<(version: String, versionCalls: Int, pageCalls: Int)>(("v1", 0, 0))
    let gate = Gate()

    var version: String {
      get { state.withLock { $0.version } }
      set { state.withLock { $0.version = newValue } }
    }
    var versionCalls: Int { state.withLock { $0.versionCalls } }
    var pageCalls: Int { state.withLock { $0.pageCalls } }

    func page(query: String, offset: Int, limit: Int) async throws -> CatalogPage {
      state.withLock { $0.pageCalls += 1 }
      if query == "slow" { await gate.wait() }
      return CatalogPage(
        query: query, offset: offset, classes: [], matching: 0, isCapped: false, total: 0)
    }

    func danceClass(id: String) async throws -> DanceClass? { nil }

    func version() async throws -> String {
      state.withLock {
        $0.versionCalls += 1
        return $0.version
      }
    }
  }

  /// Suspends callers until opened.
  actor Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false
    func wait() async {
      if isOpen { return }
      await withCheckedContinuation { waiters.append($0) }
    }
    func open() {
      isOpen = true
      waiters.forEach { $0.resume() }
      waiters = []
    }
  }

  static func read(
    _ memory: CatalogMemory, _ store: CountingStore, _ query: String, base: String = "http://h"
  ) async throws -> String {
    let answer = try await memory.answer(.page(query: query, offset: 0, limit: 50, base: base)) {
      let page = try await store.page(query: query, offset: 0, limit: 50)
      return ByteBuffer(string: "\(store.version):\(page.query)")
    }
    return String(buffer: try #require(answer).body)
  }

  @Test func aRepeatedReadIsALookupAndTheVersionIsAskedOncePerSecond() async throws {
    let store = CountingStore()
    let clock = ManualSeconds()
    let memory = CatalogMemory(store: store, now: clock.now)
    #expect(try await Self.read(memory, store, "a") == "v1:a")
    for _ in 0..<100 { #expect(try await Self.read(memory, store, "a") == "v1:a") }
    #expect(store.pageCalls == 1)
    #expect(store.versionCalls == 1)
    // Another address is another answer (its video URLs differ).
    _ = try await Self.read(memory, store, "a", base: "http://other")
    #expect(store.pageCalls == 2)
    clock.advance(1.5)
    #expect(try await Self.read(memory, store, "a") == "v1:a")
    #expect(store.versionCalls == 2, "asked again after a second")
    #expect(store.pageCalls == 2, "same version: still kept")
  }

  @Test func aNewVersionDropsEverythingKept() async throws {
    let store = CountingStore()
    let clock = ManualSeconds()
    let memory = CatalogMemory(store: store, now: clock.now)
    _ = try await Self.read(memory, store, "a")
    _ = try await Self.read(memory, store, "b")
    #expect(memory.count == 2)
    store.version = "v2"
    #expect(try await Self.read(memory, store, "a") == "v1:a", "within the second: kept")
    clock.advance(1.01)
    #expect(try await Self.read(memory, store, "a") == "v2:a")
    #expect(memory.count == 1)
  }

  @Test func theOldestAnswersGoBeyondTheBudget() async throws {
    let store = CountingStore()
    let memory = CatalogMemory(store: store, now: ManualSeconds().now, budget: 100)
    for index in 0..<50 { _ = try await Self.read(memory, store, "query \(index)") }
    // Each answer holds about 26 bytes (body and key): three or so fit.
    #expect((1...4).contains(memory.count), "\(memory.count)")
    let calls = store.pageCalls
    _ = try await Self.read(memory, store, "query 49")
    #expect(store.pageCalls == calls, "the newest is kept")
    _ = try await Self.read(memory, store, "query 0")
    #expect(store.pageCalls == calls + 1, "the oldest went")
  }

  @Test func aReadNeverWaitsForAnother() async throws {
    let store = CountingStore()
    let memory = CatalogMemory(store: store, now: ManualSeconds().now)
    _ = try await Self.read(memory, store, "kept")
    let slow = Task { try await Self.read(memory, store, "slow") }
    // While a miss waits on the store, kept answers are given (a deadline, not a sleep).
    let deadline = ContinuousClock.now + .seconds(10)
    while store.pageCalls < 2 {
      try #require(ContinuousClock.now < deadline, "the slow read reached the store")
      await Task.yield()
    }
    for _ in 0..<10 { #expect(try await Self.read(memory, store, "kept") == "v1:kept") }
    await store.gate.open()
    #expect(try await slow.value == "v1:slow")
  }

  /// Through the routes over SQLite: a changed classes file is imported and shown within a
  /// second of the server's clock, with a new ETag; before that the kept page is answered.
  @Test func anImportShowsOnTheNextVersionCheck() async throws {
    let clock = ManualSeconds()
    try await withTemporaryDirectory { folder in
      let file = folder + "/classes.csv"
      @Sendable func write(_ title: String) throws {
        try """
        title,instructor,level,song,videoUrl,thumbnailSlug,duration
        \(title),Ada,beginner,Song,a.mp4,,100

        """.write(toFile: file, atomically: true, encoding: .utf8)
      }
      try write("First Title")
      try await withRouter(
        .sqlite,
        { options in
          options.catalog = file
          options.monotonic = clock.now
        }
      ) { client, _ in
        func get() async throws -> (String, String?) {
          try await client.execute(uri: "/api/classes?limit=5", method: .get) {
            (String(buffer: $0.body), $0.headers[.eTag])
          }
        }
        let (first, tag) = try await get()
        #expect(first.contains("First Title"))
        try write("Second Title")
        #expect(try await get().1 == tag, "kept within the second")
        clock.advance(2)
        let (second, newTag) = try await get()
        #expect(second.contains("Second Title"), "\(second)")
        #expect(newTag != tag)
      }
    }
  }
}
