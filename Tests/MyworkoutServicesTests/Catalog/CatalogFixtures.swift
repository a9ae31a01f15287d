import Clocks
import Foundation
import MyworkoutCore
import Testing

@testable import MyworkoutServices

/// The repository's root, found from this file's place in it.
let repositoryRoot: String = {
  var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(4)  // Tests/MyworkoutServicesTests/Catalog/CatalogFixtures.swift
  return parts.joined(separator: "/")
}()

/// The project's own catalog.
let shippedCatalog = repositoryRoot + "/Assets/classes.csv"
/// The brief's catalog (351 classes), read from the shared data folder, never copied.
let briefCatalog = repositoryRoot + "/../shared/data/steezy/classes-data.csv"

/// Whether the briefs' files (`../shared/data`) are beside the repository: a clone without
/// them skips the tests that read them, and says why.
let sharedDataPresent = FileManager.default.fileExists(atPath: repositoryRoot + "/../shared/data")
let sharedDataMissing: Comment = "needs the briefs' files in ../shared/data beside the repository"

let header = "title,instructor,level,song,videoUrl,thumbnailSlug"

/// A classes file row with the brief's columns.
func row(
  _ title: String, _ instructor: String = "Ann Teacher", _ level: String = "beginner",
  _ song: String = "Song", video: String = "https://v.example/x.mp4",
  thumbnail: String = "class-thumbnail-1.jpg"
) -> String {
  [title, instructor, level, song, video, thumbnail].joined(separator: ",")
}

/// Writes `lines` (joined by LF, with a final one) to `root/name`; returns the path.
@discardableResult
func writeCatalog(_ lines: [String], to root: String, name: String = "classes.csv") -> String {
  let path = root + "/" + name
  put(Array((lines.joined(separator: "\n") + "\n").utf8), at: path)
  return path
}

/// A store over `directory` importing `file` (the shipped catalog when nil).
func makeCatalogStore(
  _ directory: DataDirectory, file: String? = nil, shipped: String = shippedCatalog,
  notices: NoticeLog = NoticeLog()
) -> CatalogStore {
  CatalogStore(
    directory: directory, source: CatalogSource(file: file, shipped: shipped),
    now: { fixedNow }, onNotice: notices.handler)
}

extension CatalogStore {
  /// Every class matching `query`, in pages of `limit`.
  func all(_ query: String, limit: Int = 100) throws -> [DanceClass] {
    var result: [DanceClass] = []
    while true {
      let page = try page(query: query, offset: result.count, limit: limit)
      result += page.classes
      if page.classes.count < limit { return result }
    }
  }
}

/// Runs `call` and checks that it finishes without ever sleeping on `clock` (if it does sleep,
/// records an issue and lets the clock run so that the call can end).
func expectImmediate<T: Sendable>(
  on clock: TestClock<Duration>, sourceLocation: SourceLocation = #_sourceLocation,
  _ call: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error> {
  let finished = Flag()
  let task = Task { () -> Result<T, any Error> in
    defer { finished.set() }
    do {
      return .success(try await call())
    } catch {
      return .failure(error)
    }
  }
  while !finished.isSet {
    do {
      try await clock.checkSuspension()
    } catch {
      Issue.record("slept on the clock", sourceLocation: sourceLocation)
      await clock.run()
      break
    }
  }
  return await task.value
}
