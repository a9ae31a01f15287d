import MyworkoutCore

/// The embedded catalog service: `catalog.sqlite` through a `CatalogStore`, with a deliberate
/// latency on an injected clock for a first load and each search (SPEC §16). The store's work
/// runs off the main actor while the clock sleeps, so a call takes the latency or its work,
/// whichever is longer; cancelling the call cancels both.
package struct EmbeddedCatalogService: CatalogService {
  let store: CatalogStore
  let clock: any Clock<Duration>
  let latency: Duration

  package init(store: CatalogStore, clock: any Clock<Duration>, latency: Duration = .seconds(1)) {
    self.store = store
    self.clock = clock
    self.latency = latency
  }

  package func page(query: String, offset: Int, limit: Int) async throws -> CatalogPage {
    guard offset == 0 else {
      return try await store.page(query: query, offset: offset, limit: limit)
    }
    let store = store
    async let page = store.page(query: query, offset: offset, limit: limit)
    try await clock.sleep(for: latency)
    return try await page
  }

  package func danceClass(id: String) async throws -> DanceClass? {
    try await store.danceClass(id: id)
  }
}
