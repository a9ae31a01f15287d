import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The catalog in `catalog.sqlite`, kept up to date with its classes file (SPEC §11). An actor:
/// its SQLite work runs on the global executor, never on the main actor, one call at a time.
///
/// The file is imported when the catalog is first needed and again whenever a first page is
/// asked for after the file changed (size and modification time, then content hash). A file
/// that cannot be read, or is not a classes file, gives way to the shipped one, with a notice.
/// A damaged `catalog.sqlite` is moved aside, with a notice, and rebuilt from the file; a newer
/// version's is made again for this one, quietly.
///
/// Calls throw `CatalogError`, or `CancellationError` when the calling task was cancelled
/// (a running statement is interrupted, an import rolled back).
package actor CatalogStore {
  let directory: DataDirectory
  let source: CatalogSource
  let now: @Sendable () -> Date
  let onNotice: @Sendable (String) -> Void
  private var database: CatalogDatabase?
  /// The file the catalog was opened from (device and inode), to move aside only that file.
  private var opened: FileIdentity?
  private var isRebuilding = false
  private var reported: Set<String> = []

  /// The largest page `page(query:offset:limit:)` returns.
  package static let maximumLimit = 500

  /// - Parameter onNotice: called (off the main actor) with each one-line notice for the user:
  ///   bad rows skipped, a file that could not be used, a damaged catalog moved aside. Each
  ///   distinct notice is reported once per store.
  package init(
    directory: DataDirectory, source: CatalogSource,
    now: @escaping @Sendable () -> Date = { Date() },
    onNotice: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.directory = directory
    self.source = source
    self.now = now
    self.onNotice = onNotice
  }

  /// The classes matching `query` (SPEC §11 search) from `offset` on, at most `limit` of them.
  /// A first page (offset 0) first brings the catalog up to date with its file.
  package func page(query: String, offset: Int, limit: Int) throws -> CatalogPage {
    try guarded {
      if offset == 0 || database == nil { try refresh() }
      let terms = SearchText.terms(of: query)
      let found = try withDatabase { database in
        try database.search(
          terms: terms, offset: max(0, offset), limit: min(max(0, limit), Self.maximumLimit))
      }
      let total = try withDatabase { try $0.total() }
      return CatalogPage(
        query: query, offset: max(0, offset), classes: found.classes, matching: found.matching,
        isCapped: found.isCapped, total: total)
    }
  }

  /// What the catalog holds now, after bringing it up to date with its file: the file's path and
  /// SHA-256. Changes exactly when an import changes the classes (the server's page cache is
  /// stamped with it).
  package func version() throws -> String {
    try guarded {
      try refresh()
      guard let source = try withDatabase({ try $0.source() }) else { return "" }
      return source.path + "#" + source.sha256
    }
  }

  /// The class with `id`, or nil when the catalog has none.
  package func danceClass(id: String) throws -> DanceClass? {
    try guarded {
      if database == nil { try refresh() }
      return try withDatabase { try $0.danceClass(id: id) }
    }
  }

  /// Brings the catalog up to date with the chosen file, or the shipped one if the chosen one
  /// cannot be used.
  func refresh() throws {
    do {
      try refresh(from: source.file)
    } catch let error as FileError where source.file != source.shipped {
      report("\(error.message); showing the shipped classes instead")
      try refresh(from: source.shipped)
    }
  }

  private func refresh(from path: String) throws {
    let current = try SourceFile.identify(path)
    let stored = try withDatabase { try $0.source() }
    if let stored, stored.hasSameStat(as: current) {
      if let notice = try withDatabase({ try $0.skippedNotice() }) { report(notice) }
      return
    }
    let hashed = try SourceFile.read(path)
    if let stored, stored.path == hashed.path, stored.sha256 == hashed.sha256 {
      // Touched, not changed: remember the new size and time, keep the classes.
      try withDatabase { database in
        try database.connection.transaction(.immediate) { try database.setSource(hashed) }
      }
      return
    }
    let outcome = try withDatabase { database in
      try CatalogImport.run(path: path, into: database, unlessAlready: hashed)
    }
    let notice = try outcome.map(\.skipped.notice) ?? withDatabase { try $0.skippedNotice() }
    if let notice { report(notice) }
  }

  /// Runs `body` on the open catalog. When the catalog turns out to be damaged, moves it aside,
  /// rebuilds it from the file and runs `body` once more. A newer version's catalog is removed
  /// instead, without a word: it is whole, and only a copy of its file, which that version
  /// makes again too (moved aside, an older and a newer copy sharing a folder piled copies up
  /// and called each other's catalog damaged).
  private func withDatabase<T>(_ body: (CatalogDatabase) throws -> T) throws -> T {
    do {
      return try body(try openDatabase())
    } catch let error as SQLiteError where error.isDamage && !isRebuilding {
      return try rebuilt(after: moveAside, body)
    } catch is NewerSchemaError where !isRebuilding {
      return try rebuilt(after: removeNewer, body)
    }
  }

  /// `body` run on the catalog rebuilt from its file after `clearing` the one that was there.
  private func rebuilt<T>(after clearing: () throws -> Void, _ body: (CatalogDatabase) throws -> T)
    throws -> T
  {
    isRebuilding = true
    defer { isRebuilding = false }
    try clearing()
    try refresh()
    return try body(try openDatabase())
  }

  private func openDatabase() throws -> CatalogDatabase {
    if let database { return database }
    opened = FileIdentity(path: directory.catalogPath)
    let database = try CatalogDatabase(path: directory.catalogPath)
    if opened == nil { opened = FileIdentity(path: directory.catalogPath) }
    self.database = database
    return database
  }

  /// Closes the catalog and moves it aside, unless another copy of the app has already put a
  /// new file in its place.
  private func moveAside() throws {
    database = nil
    let name = try DatabaseQuarantine.moveAside(
      path: directory.catalogPath, ifStill: opened, directory: directory, now: now())
    if let name {
      report("catalog.sqlite could not be read; moved it aside to \(name) and rebuilt it")
    }
  }

  /// Closes the catalog and removes a newer version's file, unless another copy of the app has
  /// already put a new file in its place.
  private func removeNewer() throws {
    database = nil
    try DatabaseQuarantine.remove(
      path: directory.catalogPath, ifStill: opened, directory: directory)
  }

  private func report(_ notice: String) {
    guard reported.insert(notice).inserted else { return }
    onNotice(notice)
  }

  /// Runs `body`, turning every failure into a `CatalogError` or a `CancellationError`.
  private func guarded<T>(_ body: () throws -> T) throws -> T {
    try Task.checkCancellation()
    do {
      return try body()
    } catch let error as SQLiteError where error.isInterrupt {
      throw CancellationError()
    } catch let error as CancellationError {
      throw error
    } catch let error as CatalogError {
      throw error
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw CatalogError.unavailable(String(describing: error))
    }
  }
}
