import MyworkoutCore
import MyworkoutServices
import MyworkoutWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Watch progress and lesson completion events as a client of myworkout-server. Personal: each
/// call carries the signed-in Bearer token, and the server files it under the token's `sub`
/// (the `account` arguments name the same person and are not sent).
package struct RemoteProgressService: ProgressService {
  let server: RemoteServer
  let credentials: RemoteCredentials

  package init(server: RemoteServer, credentials: RemoteCredentials) {
    self.server = server
    self.credentials = credentials
  }

  package func progress(account: String, classID: String) async throws -> ClassProgress {
    let dto = try await call("read") {
      let answer = try await server.send(
        .GET, "/api/progress/" + Percent.encode(classID), bearer: try bearer())
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return try answer.decode(ProgressDTO.self)
    }
    return Self.progress(dto)
  }

  @discardableResult
  package func record(_ update: ProgressUpdate) async throws -> ClassProgress {
    let body = ProgressUpdateDTO(
      position: update.position,
      played: update.played.ranges.map { [$0.lowerBound, $0.upperBound] },
      addedTimeInClass: update.addedTimeInClass)
    let dto = try await call("saved") {
      let answer = try await server.send(
        .POST, "/api/progress/" + Percent.encode(update.classID), json: body, bearer: try bearer())
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return try answer.decode(ProgressDTO.self)
    }
    return Self.progress(dto)
  }

  package func watchedPercents(account: String, classes: [DanceClass]) async throws -> [String: Int]
  {
    let body = PercentsRequest(classes: classes.map { .init(id: $0.id, duration: $0.duration) })
    return try await call("read") {
      let answer = try await server.send(
        .POST, "/api/progress/percents", json: body, bearer: try bearer())
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return try answer.decode(PercentsResponse.self).percents
    }
  }

  // MARK: Lesson completion events (the app's LessonProgressStoring)

  package func completions(account: String) async throws -> [LessonCompletion] {
    try await call("read") {
      let answer = try await server.send(.GET, "/api/lessons/completions", bearer: try bearer())
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return try answer.decode(CompletionsResponse.self).completions.map(Self.completion)
    }
  }

  @discardableResult
  package func recordCompletion(account: String, lessonID: String, started: Date, completed: Date)
    async throws -> LessonCompletion?
  {
    let body = CompletionRequest(
      lessonID: lessonID, started: Int64(started.timeIntervalSince1970.rounded(.down)),
      completed: Int64(completed.timeIntervalSince1970.rounded(.down)))
    return try await call("saved") {
      let answer = try await server.send(
        .POST, "/api/lessons/completions", json: body, bearer: try bearer())
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return try answer.decode(CompletionResponse.self).completion.map(Self.completion)
    }
  }

  @discardableResult
  package func startNewRound(account: String) async throws -> Int {
    try await call("saved") {
      let answer = try await server.send(.POST, "/api/lessons/rounds", bearer: try bearer())
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return try answer.decode(RoundResponse.self).round
    }
  }

  private func bearer() throws(ServiceError) -> String {
    guard let token = credentials.bearer else { throw ServiceError.unauthorized }
    return token
  }

  /// Errors as `ProgressError`, worded like the embedded store's (`Progress could not be …`).
  private func call<T>(_ verb: String, _ work: () async throws -> T) async throws -> T {
    do {
      return try await work()
    } catch let error as ServiceError {
      throw ProgressError(message: "Progress could not be \(verb): \(error.message)")
    }
  }

  static func progress(_ dto: ProgressDTO) -> ClassProgress {
    ClassProgress(
      lastPosition: dto.lastPosition,
      watched: IntervalSet(
        dto.watched.compactMap { $0.count == 2 && $0[0] < $0[1] ? $0[0]..<$0[1] : nil }),
      timeInClass: dto.timeInClass)
  }

  static func completion(_ dto: CompletionDTO) -> LessonCompletion {
    LessonCompletion(
      lessonID: dto.lessonID, round: dto.round,
      started: Date(timeIntervalSince1970: Double(dto.started)),
      completed: Date(timeIntervalSince1970: Double(dto.completed)))
  }
}
