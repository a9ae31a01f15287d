import MyworkoutCore

/// The catalog API the Classes screen talks to (SPEC §11). Every call is asynchronous and runs
/// its work off the main actor; failures are thrown as `CatalogError` (one line for the user);
/// a cancelled call throws `CancellationError`.
package protocol CatalogService: Sendable {
  /// The classes matching `query` (every space-separated term in title, instructor, level or
  /// song; case, diacritics and word boundaries ignored) from `offset` on, at most `limit` (up to
  /// 500), in file order. A page at offset 0 is a first load or a new search: it pays the mock
  /// latency; later pages of the same query do not (SPEC §16).
  func page(query: String, offset: Int, limit: Int) async throws -> CatalogPage

  /// The class with `id`, or nil when the catalog has none (immediate: it looks up a class the
  /// screen has already listed).
  func danceClass(id: String) async throws -> DanceClass?
}
