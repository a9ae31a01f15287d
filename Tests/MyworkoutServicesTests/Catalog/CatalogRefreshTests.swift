import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(Glibc)
  import Glibc
#endif

/// When the catalog imports (SPEC §11): first need, then only when the file changed; a file
/// that cannot be used gives way to the shipped one; a damaged catalog is moved aside and rebuilt.
@Suite struct CatalogRefreshTests {
  /// Puts a row straight into catalog.sqlite: it survives exactly as long as no import runs.
  func plantSentinel(_ directory: DataDirectory) throws {
    let database = try SQLiteDatabase(path: directory.catalogPath)
    try database.execute(
      """
      INSERT INTO classes VALUES (100000, 'sentinel', 'Sentinel', 'x', 'beginner', 's', 'u', 't',
        60, 'sentinel')
      """)
  }

  func setModified(_ path: String, seconds: Int) {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
  }

  @Test func importsOnlyWhenTheFileChanged() async throws {
    try await withTemporaryDirectory { root throws in
      let file = writeCatalog([header, row("One")], to: root)
      let directory = try DataDirectory.prepare(path: root + "/data")
      #expect(!exists(directory.catalogPath), "nothing happens before the catalog is needed")
      let store = makeCatalogStore(directory, file: file)
      #expect(try await store.all("").map(\.title) == ["One"])
      try plantSentinel(directory)
      #expect(try await store.all("").map(\.title) == ["One", "Sentinel"])
      // Touched, same bytes: no import, in this store or a new one (a relaunch).
      setModified(file, seconds: 1_700_000_000)
      #expect(try await store.all("").map(\.title) == ["One", "Sentinel"])
      #expect(try await makeCatalogStore(directory, file: file).all("").count == 2)
      // Changed bytes: imported again, on the next first page.
      writeCatalog([header, row("One"), row("Two")], to: root)
      #expect(
        try await store.page(query: "", offset: 1, limit: 5).classes.map(\.title) == ["Sentinel"])
      #expect(try await store.all("").map(\.title) == ["One", "Two"])
    }
  }

  @Test func aFileThatCannotBeReadFallsBackToTheShippedOne() async throws {
    try await withDataDirectory { directory throws in
      let notices = NoticeLog()
      let missing = directory.path + "/missing.csv"
      let store = makeCatalogStore(directory, file: missing, notices: notices)
      #expect(try await store.all("").count >= 40)
      #expect(try await store.all("").count >= 40)
      #expect(
        notices.all == [
          "Cannot read \(missing): No such file or directory; showing the shipped classes instead"
        ])
    }
  }

  @Test(arguments: [
    (["title,instructor,song,videoUrl,thumbnailSlug", "a,b,c,d,e"], "has no \"level\" column"),
    ([String](), "is empty"),
  ])
  func aFileThatIsNotACatalogFallsBack(lines: [String], reason: String) async throws {
    try await withTemporaryDirectory { root throws in
      let file = root + "/odd.csv"
      put(Array(lines.joined(separator: "\n").utf8), at: file)
      let directory = try DataDirectory.prepare(path: root + "/data")
      let notices = NoticeLog()
      let store = makeCatalogStore(directory, file: file, notices: notices)
      #expect(try await store.all("").count >= 40)
      #expect(notices.all == ["odd.csv \(reason); showing the shipped classes instead"])
    }
  }

  @Test func withoutAnyReadableFileTheCatalogIsUnavailable() async throws {
    try await withDataDirectory { directory throws in
      let shipped = directory.path + "/none.csv"
      let store = makeCatalogStore(directory, shipped: shipped)
      await #expect(
        throws: CatalogError.unavailable("Cannot read \(shipped): No such file or directory")
      ) {
        try await store.page(query: "", offset: 0, limit: 10)
      }
    }
  }

  @Test(arguments: ["garbage", "directory", "foreign"])
  func aDamagedCatalogIsMovedAsideAndRebuilt(kind: String) async throws {
    try await withDataDirectory { directory throws in
      let path = directory.catalogPath
      switch kind {
      case "garbage": put(Array(repeating: 0x5A, count: 8192), at: path)
      case "directory": #expect(mkdir(path, 0o700) == 0)
      default:
        // A SQLite file, but not one of ours.
        try SQLiteDatabase(path: path).execute("CREATE TABLE other(x)")
      }
      let notices = NoticeLog()
      let store = makeCatalogStore(directory, notices: notices)
      #expect(try await store.all("").count >= 40)
      let moved = "catalog.sqlite.corrupt-20261121T141500Z"
      #expect(
        notices.all == [
          "catalog.sqlite could not be read; moved it aside to \(moved) and rebuilt it"
        ])
      #expect(listing(directory.path).contains(moved))
      #expect(permissions(path) == 0o600)
    }
  }

  /// A newer version's catalog is whole and only a copy of its file: made again for this
  /// version without a word, and nothing moved aside (an older and a newer copy sharing a
  /// folder piled up `.corrupt-` copies and called each other's catalog damaged).
  @Test func aNewerVersionsCatalogIsMadeAgainQuietly() async throws {
    try await withDataDirectory { directory throws in
      try SQLiteDatabase(path: directory.catalogPath).execute(
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); PRAGMA user_version = 2")
      let notices = NoticeLog()
      let store = makeCatalogStore(directory, notices: notices)
      #expect(try await store.all("").count >= 40)
      #expect(notices.all.isEmpty)
      #expect(!listing(directory.path).contains { $0.contains(".corrupt-") })
      #expect(try SQLiteDatabase(path: directory.catalogPath).userVersion() == 1)
    }
  }

  @Test func damageFoundWhileReadingIsRepairedToo() async throws {
    try await withDataDirectory { directory throws in
      let notices = NoticeLog()
      let store = makeCatalogStore(directory, notices: notices)
      let count = try await store.all("").count
      try SQLiteDatabase(path: directory.catalogPath).execute(
        "UPDATE classes SET level = 'expert' WHERE position = 1")
      #expect(try await store.page(query: "", offset: 0, limit: 500).classes.count == count)
      #expect(notices.all.count == 1)
      #expect(
        notices.all.first?.hasPrefix("catalog.sqlite could not be read; moved it aside") == true)
      #expect(try await store.all("").count == count)
    }
  }
}
