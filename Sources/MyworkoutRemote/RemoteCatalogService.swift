import MyworkoutCore
import MyworkoutServices
import MyworkoutWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The catalog as a client of myworkout-server: `GET /api/classes` (search and paging) and
/// `GET /api/classes/{id}`. Failures are `CatalogError`s carrying the remote message.
///
/// With a `cache`, every answer is kept, and while the server is away (SPEC §18) a page asked
/// before is answered as it was, and a search not asked before looks through every class kept;
/// a notice says that the list comes from this device.
package struct RemoteCatalogService: CatalogService {
  let server: RemoteServer
  let cache: RemoteCache?
  let onNotice: @Sendable (String) -> Void

  static func keptPageNotice(_ error: ServiceError) -> String {
    error.awayNotice + ": showing classes saved on this device."
  }
  static func keptSearchNotice(_ count: Int, _ error: ServiceError) -> String {
    error.awayNotice
      + ": searched the \(count) \(count == 1 ? "class" : "classes") saved on this device."
  }

  package init(
    server: RemoteServer, cache: RemoteCache? = nil,
    onNotice: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.server = server
    self.cache = cache
    self.onNotice = onNotice
  }

  static let pagesPath = "/api/classes?"

  package func page(query: String, offset: Int, limit: Int) async throws -> CatalogPage {
    let path =
      Self.pagesPath + "q=" + Percent.encode(query)
      + "&offset=\(max(0, offset))&limit=\(max(0, limit))"
    do {
      let answer = try await server.get(path, revalidating: cache)
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      let page = Self.page(try answer.decode(CatalogPageDTO.self), query: query)
      await cache?.keep(answer.body, tag: answer.tag, for: path)
      return page
    } catch let error as ServiceError {
      if error.isServerAway, let cache {
        if let body = await cache.body(for: path),
          let kept = try? JSONDecoder().decode(CatalogPageDTO.self, from: body)
        {
          onNotice(Self.keptPageNotice(error))
          return Self.page(kept, query: query)
        }
        let classes = await Self.keptClasses(cache)
        if !classes.isEmpty {
          onNotice(Self.keptSearchNotice(classes.count, error))
          return Self.search(classes, query: query, offset: offset, limit: limit)
        }
      }
      throw CatalogError.unavailable(error.message)
    }
  }

  package func danceClass(id: String) async throws -> DanceClass? {
    let path = "/api/classes/" + Percent.encode(id)
    do {
      let answer = try await server.get(path, revalidating: cache)
      if answer.status == 404 { return nil }
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      let found = Self.danceClass(try answer.decode(ClassDTO.self))
      await cache?.keep(answer.body, tag: answer.tag, for: path)
      return found
    } catch let error as ServiceError {
      if error.isServerAway, let cache,
        let kept = await Self.keptClasses(cache).first(where: { $0.id == id })
      {
        return kept
      }
      throw CatalogError.unavailable(error.message)
    }
  }

  static func page(_ dto: CatalogPageDTO, query: String) -> CatalogPage {
    CatalogPage(
      query: query, offset: dto.offset, classes: dto.classes.map(Self.danceClass),
      matching: dto.matching, isCapped: dto.capped, total: dto.total)
  }

  static func danceClass(_ dto: ClassDTO) -> DanceClass {
    DanceClass(
      id: dto.id, title: dto.title, instructor: dto.instructor,
      level: ClassLevel(parsing: dto.level) ?? .beginner, song: dto.song, videoURL: dto.videoURL,
      thumbnailSlug: dto.thumbnail, duration: dto.duration)
  }

  /// Every class in the kept pages and details, each once, in the catalog's order as far as
  /// the pages tell it (pages by their offset).
  static func keptClasses(_ cache: RemoteCache) async -> [DanceClass] {
    let decoder = JSONDecoder()
    let pages = await cache.bodies(under: pagesPath)
      .compactMap { try? decoder.decode(CatalogPageDTO.self, from: $0) }
      .sorted { $0.offset < $1.offset }
    let details = await cache.bodies(under: "/api/classes/")
      .compactMap { try? decoder.decode(ClassDTO.self, from: $0) }
    var seen: Set<String> = []
    var classes: [DanceClass] = []
    for dto in pages.flatMap(\.classes) + details where seen.insert(dto.id).inserted {
      classes.append(danceClass(dto))
    }
    return classes
  }

  /// SPEC §11's search over `classes`, as the server does it.
  static func search(_ classes: [DanceClass], query: String, offset: Int, limit: Int)
    -> CatalogPage
  {
    let terms = SearchText.terms(of: query)
    let matching = classes.filter { danceClass in
      SearchText.matches(
        terms,
        in: SearchText.searchable(
          title: danceClass.title, instructor: danceClass.instructor, level: danceClass.level,
          song: danceClass.song))
    }
    let start = min(max(0, offset), matching.count)
    return CatalogPage(
      query: query, offset: start,
      classes: Array(matching[start..<min(matching.count, start + max(0, limit))]),
      matching: matching.count, isCapped: false, total: classes.count)
  }
}
