import MyworkoutCore
import MyworkoutServices
import MyworkoutWire

/// The catalog as a client of myworkout-server: `GET /api/classes` (search and paging) and
/// `GET /api/classes/{id}`. Failures are `CatalogError`s carrying the remote message.
package struct RemoteCatalogService: CatalogService {
  let server: RemoteServer

  package init(server: RemoteServer) {
    self.server = server
  }

  package func page(query: String, offset: Int, limit: Int) async throws -> CatalogPage {
    let path =
      "/api/classes?q=" + Percent.encode(query) + "&offset=\(max(0, offset))&limit=\(max(0, limit))"
    let page = try await Self.catalogCall {
      let answer = try await server.send(.GET, path)
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return try answer.decode(CatalogPageDTO.self)
    }
    return CatalogPage(
      query: query, offset: page.offset, classes: page.classes.map(Self.danceClass),
      matching: page.matching, isCapped: page.capped, total: page.total)
  }

  package func danceClass(id: String) async throws -> DanceClass? {
    try await Self.catalogCall {
      let answer = try await server.send(.GET, "/api/classes/" + Percent.encode(id))
      if answer.status == 404 { return nil }
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return Self.danceClass(try answer.decode(ClassDTO.self))
    }
  }

  static func danceClass(_ dto: ClassDTO) -> DanceClass {
    DanceClass(
      id: dto.id, title: dto.title, instructor: dto.instructor,
      level: ClassLevel(parsing: dto.level) ?? .beginner, song: dto.song, videoURL: dto.videoURL,
      thumbnailSlug: dto.thumbnail, duration: dto.duration)
  }

  private static func catalogCall<T>(_ call: () async throws -> T) async throws -> T {
    do {
      return try await call()
    } catch let error as ServiceError {
      throw CatalogError.unavailable(error.message)
    }
  }
}
