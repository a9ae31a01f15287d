import MyworkoutCore
import Synchronization

/// Read-only connections to `catalog.sqlite`, for the server's reads (issue 30): a page or a
/// class is read on a connection of its own, so that reads run side by side on every core
/// instead of one at a time inside `CatalogStore` (one connection, an actor). WAL lets them read
/// beside the store's connection, which alone imports and repairs.
///
/// A connection is taken for one read and given back; a new one is opened when none is free, and
/// at most `keep` free ones are kept. One whose file is no longer the catalog's (moved aside and
/// rebuilt) is closed. A read that fails (no catalog yet, damage) returns nil: the caller asks
/// the store, which imports or repairs.
package final class CatalogReaders: Sendable {
  private final class Connection: @unchecked Sendable {
    // Used by one read at a time: taken from `free` under the lock, given back after.
    let database: CatalogDatabase
    let file: FileIdentity?

    init(database: CatalogDatabase, file: FileIdentity?) {
      self.database = database
      self.file = file
    }
  }

  private let path: String
  private let keep: Int
  private let free = Mutex<[Connection]>([])

  package init(directory: DataDirectory, keep: Int) {
    path = directory.catalogPath
    self.keep = keep
  }

  /// As `CatalogStore.page`, without bringing the catalog up to date (the caller's version
  /// check does that); nil when it could not be read here.
  @concurrent
  package func page(query: String, offset: Int, limit: Int) async -> CatalogPage? {
    read { database in
      let found = try database.search(
        terms: SearchText.terms(of: query), offset: max(0, offset),
        limit: min(max(0, limit), CatalogStore.maximumLimit))
      return CatalogPage(
        query: query, offset: max(0, offset), classes: found.classes, matching: found.matching,
        isCapped: found.isCapped, total: try database.total())
    }
  }

  /// The class with `id`: `.some(nil)` when the catalog has none; nil when it could not be read.
  @concurrent
  package func danceClass(id: String) async -> DanceClass?? {
    read { database in try database.danceClass(id: id) }
  }

  private func read<T>(_ body: (CatalogDatabase) throws -> T) -> T? {
    let current = FileIdentity(path: path)
    guard current != nil else { return nil }
    var connection = free.withLock { free in free.popLast() }
    if let taken = connection, taken.file != current { connection = nil }
    if connection == nil {
      guard let database = try? CatalogDatabase(readingFrom: path) else { return nil }
      connection = Connection(database: database, file: current)
    }
    guard let connection, let value = try? body(connection.database) else { return nil }
    free.withLock { free in
      if free.count < keep { free.append(connection) }
    }
    return value
  }
}
