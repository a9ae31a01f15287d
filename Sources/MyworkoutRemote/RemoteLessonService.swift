import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The lessons as a client of myworkout-server: `GET /api/lessons`, Mimo's shape, read by the
/// same mapping as the lesson file. With a `cache`, the last answer is kept and stands in while
/// the server is away (SPEC §18), with a notice.
package struct RemoteLessonService: LessonService {
  let server: RemoteServer
  let cache: RemoteCache?
  let onNotice: @Sendable (String) -> Void

  static let path = "/api/lessons"
  static func keptNotice(_ error: ServiceError) -> String {
    error.awayNotice + ": showing lessons saved on this device."
  }

  package init(
    server: RemoteServer, cache: RemoteCache? = nil,
    onNotice: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.server = server
    self.cache = cache
    self.onNotice = onNotice
  }

  package func loadCourse() async throws -> LessonCourse {
    let (body, tag, kept) = try await fetch()
    let course = try Self.course(from: body, source: server.baseURL + Self.path)
    if let kept {
      onNotice(Self.keptNotice(kept))
    } else {
      await cache?.keep(body, tag: tag, for: Self.path)
    }
    return course
  }

  /// The body of `GET /api/lessons`, or the one kept while the server is away (`kept`: why it
  /// was); failures as `LessonLoadError`.
  private func fetch() async throws -> (body: Data, tag: String?, kept: ServiceError?) {
    do {
      let answer = try await server.get(Self.path, revalidating: cache)
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return (answer.body, answer.tag, nil)
    } catch let error as ServiceError {
      if error.isServerAway, let body = await cache?.body(for: Self.path) {
        return (body, nil, error)
      }
      throw LessonLoadError(message: "Lessons could not be loaded: \(error.message)")
    }
  }

  /// Parsing, kept out of the async function: Swift 6.3's optimiser crashes (signal 11 in
  /// coroutine splitting) on a typed-throws call inside this async function in release builds.
  static func course(from data: Data, source: String) throws -> LessonCourse {
    let course = try LessonFile.decode(data, path: source)
    guard !course.lessons.isEmpty else {
      throw LessonLoadError(message: "\(source) has no lessons")
    }
    return course
  }
}
