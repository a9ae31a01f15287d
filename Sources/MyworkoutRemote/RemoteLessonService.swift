import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The lessons as a client of myworkout-server: `GET /api/lessons`, Mimo's shape, read by the
/// same mapping as the lesson file.
package struct RemoteLessonService: LessonService {
  let server: RemoteServer

  package init(server: RemoteServer) {
    self.server = server
  }

  package func loadCourse() async throws -> LessonCourse {
    let body = try await fetch()
    return try Self.course(from: body, source: server.baseURL + "/api/lessons")
  }

  /// The body of `GET /api/lessons`; failures as `LessonLoadError`.
  private func fetch() async throws -> Data {
    do {
      let answer = try await server.send(.GET, "/api/lessons")
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return answer.body
    } catch let error as ServiceError {
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
