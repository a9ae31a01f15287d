import MyworkoutCore
import MyworkoutServices

/// The lessons as a client of myworkout-server: `GET /api/lessons`, Mimo's shape, read by the
/// same mapping as the lesson file.
package struct RemoteLessonService: LessonService {
  let server: RemoteServer

  package init(server: RemoteServer) {
    self.server = server
  }

  package func loadCourse() async throws -> LessonCourse {
    let answer: RemoteServer.Answer
    do {
      answer = try await server.send(.GET, "/api/lessons")
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
    } catch let error as ServiceError {
      throw LessonLoadError(message: "Lessons could not be loaded: \(error.message)")
    }
    let course = try LessonFile.decode(answer.body, path: server.baseURL + "/api/lessons")
    guard !course.lessons.isEmpty else {
      throw LessonLoadError(message: "\(server.baseURL)/api/lessons has no lessons")
    }
    return course
  }
}
