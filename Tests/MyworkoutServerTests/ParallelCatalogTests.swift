import Foundation
import MyworkoutCore
import MyworkoutServices
import Testing

@testable import MyworkoutServer

/// The server's SQLite catalog reads on connections of their own (issue 30): the same answers
/// as the store's one connection, before the first import (through the store) and after a new
/// import, with many reads at once.
@Suite struct ParallelCatalogTests {
  static func withCatalog(
    _ body: @Sendable (ParallelCatalog, CatalogStore, String) async throws -> Void
  ) async throws {
    try await withTemporaryDirectory { folder in
      let directory = try DataDirectory.prepare(path: folder + "/data")
      let file = folder + "/classes.csv"
      try FileManager.default.copyItem(atPath: assetsPath + "/classes.csv", toPath: file)
      let store = CatalogStore(
        directory: directory,
        source: CatalogSource(file: file, shipped: assetsPath + "/classes.csv"))
      let catalog = ParallelCatalog(
        store: store, readers: CatalogReaders(directory: directory, keep: 2))
      try await body(catalog, store, file)
    }
  }

  @Test func readsAnswerAsTheStoreDoes() async throws {
    try await Self.withCatalog { catalog, store, _ in
      // Before any import: the read connections have no file; the store imports.
      let first = try await catalog.page(query: "", offset: 0, limit: 10)
      #expect(first.total == 44 && first.classes.count == 10)
      for (query, offset) in [("", 0), ("", 40), ("hip", 0), ("zzqq", 0), ("é", 2)] {
        let parallel = try await catalog.page(query: query, offset: offset, limit: 20)
        let serial = try await store.page(query: query, offset: offset, limit: 20)
        #expect(parallel == serial, "\(query) \(offset)")
      }
      let one = try #require(first.classes.first)
      #expect(try await catalog.danceClass(id: one.id) == one)
      #expect(try await catalog.danceClass(id: "none") == nil)
    }
  }

  @Test func aNewImportIsReadAndManyReadsRunAtOnce() async throws {
    try await Self.withCatalog { catalog, store, file in
      _ = try await catalog.page(query: "", offset: 0, limit: 5)
      try """
      title,instructor,level,song,videoUrl,thumbnailSlug,duration
      Only One,Ada,beginner,Song,a.mp4,,100

      """.write(toFile: file, atomically: true, encoding: .utf8)
      let before = try await store.version()
      #expect(try await catalog.version() == before, "the version check imports")
      #expect(try await catalog.page(query: "", offset: 0, limit: 5).total == 1)
      // Many reads at once, all on connections of their own or reused ones.
      try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<32 {
          group.addTask { try await catalog.page(query: "only", offset: 0, limit: 5).matching }
        }
        for try await matching in group { #expect(matching == 1) }
      }
    }
  }

  /// A newer version's catalog is not read on these connections (its tables may mean something
  /// else there): nil, so that the caller asks the store, which makes it again for this version.
  @Test func aNewerVersionsCatalogIsNotReadHere() async throws {
    try await Self.withCatalog { _, store, file in
      _ = try await store.page(query: "", offset: 0, limit: 5)
      let slash = try #require(file.lastIndex(of: "/"))
      let folder = String(file[..<slash])
      let directory = try DataDirectory.prepare(path: folder + "/data")
      let readers = CatalogReaders(directory: directory, keep: 2)
      #expect(await readers.page(query: "", offset: 0, limit: 5)?.total == 44)
      try SQLiteDatabase(path: directory.catalogPath).execute("PRAGMA user_version = 2")
      let fresh = CatalogReaders(directory: directory, keep: 2)
      #expect(await fresh.page(query: "", offset: 0, limit: 5) == nil)
    }
  }
}
