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
///
/// Every change (a progress save, a completion) carries a UUID made here as its
/// `Idempotency-Key`; when its answer is lost (no connection, no answer in time, a 5xx), it is
/// sent again with the same key, so that the server applies it once (issue 23).
package struct RemoteProgressService: ProgressService {
  let server: RemoteServer
  let credentials: RemoteCredentials
  /// How many times a change is sent, in all, while its answer is lost.
  let attempts: Int
  /// The clock that stamped the changes (`changed_at`): each sending says when it was sent on
  /// it (`sent_at`), so the server reads the change's time on its own clock.
  let now: @Sendable () -> Date

  package init(
    server: RemoteServer, credentials: RemoteCredentials, attempts: Int = 2,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.server = server
    self.credentials = credentials
    self.attempts = max(1, attempts)
    self.now = now
  }

  package func progress(account: String, classID: String) async throws -> ClassProgress {
    let dto = try await call("read") {
      let answer = try await server.send(
        .GET, "/api/progress/" + Percent.encode(classID), bearer: try bearer())
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return try answer.decode(ProgressDTO.self)
    }
    return dto.progress
  }

  @discardableResult
  package func record(_ update: ProgressUpdate) async throws -> ClassProgress {
    try await record(update, key: UUID())
  }

  /// Sends `update` as the change named `key` (a retry of a change keeps its key).
  @discardableResult
  package func record(_ update: ProgressUpdate, key: UUID) async throws -> ClassProgress {
    let dto = try await call("saved", change: true) {
      try await send(OutboxChange(update), key: key).progress
    }
    return (dto ?? ProgressDTO(lastPosition: 0, watched: [], timeInClass: 0)).progress
  }

  /// What the server answered to a change: the class's progress, or the completion event.
  package struct ChangeAnswer: Sendable {
    var progress: ProgressDTO?
    var completion: CompletionDTO?
    /// The class a progress answer is about.
    var classID: String?
  }

  /// Sends `change` under `key`, sent again while its answer is lost; failures as
  /// `ServiceError`. With `account`, only under that account's own token (`.unauthorized`
  /// when someone else, or no one, is signed in); else under the signed-in person's.
  func send(_ change: OutboxChange, key: UUID, as account: String? = nil) async throws
    -> ChangeAnswer
  {
    let token: String
    if let account {
      guard let own = credentials.bearer(for: account) else { throw ServiceError.unauthorized }
      token = own
    } else {
      token = try bearer()
    }
    return try await self.change {
      switch change {
      case .progress(let classID, let position, let played, let added, let changedAt):
        // Stamped at each sending (a change sent again later says so); none for a change
        // without a time, or "older than any" (0).
        let sentAt =
          changedAt == nil || changedAt == 0
          ? nil : Int64((now().timeIntervalSince1970 * 1_000).rounded(.down))
        let body = ProgressUpdateDTO(
          position: position, played: played, addedTimeInClass: added, changedAt: changedAt,
          sentAt: sentAt)
        let answer = try await server.send(
          .POST, "/api/progress/" + Percent.encode(classID), json: body, bearer: token, key: key)
        guard answer.status == 200 else { throw Self.changeFailure(answer) }
        return ChangeAnswer(progress: try answer.decode(ProgressDTO.self), classID: classID)
      case .completion(let lessonID, let started, let completed, let round):
        let body = CompletionRequest(
          lessonID: lessonID, started: started, completed: completed, round: round)
        let answer = try await server.send(
          .POST, "/api/lessons/completions", json: body, bearer: token, key: key)
        guard answer.status == 200 else { throw Self.changeFailure(answer) }
        return ChangeAnswer(completion: try answer.decode(CompletionResponse.self).completion)
      }
    }
  }

  /// One attempt to hand an outbox entry of `account` to the server, under its key and only
  /// with that account's own token (none signed in, or someone else: `.unauthorized`, kept for
  /// that account's next log-in); `answered` is given the server's answer before the change
  /// counts as delivered.
  package func deliver(
    _ entry: OutboxEntry, of account: String,
    answered: (ChangeAnswer) async -> Void = { _ in }
  ) async -> Delivery {
    do {
      await answered(try await send(entry.change, key: entry.key, as: account))
      return .delivered
    } catch let refused as Refused {
      return .refused(reason: "the server answered \(refused.status) (\(refused.code))")
    } catch let error as ServiceError {
      switch error {
      case .unauthorized, .sessionExpired:
        return .unauthorized(bySession: credentials.bearer(for: account) != nil)
      default:
        return .later
      }
    } catch {
      return .later
    }
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
    try await completionsAndRound(account: account).events
  }

  /// The current round's events and its number (nil from a server that does not say it).
  package func completionsAndRound(account: String) async throws -> (
    events: [LessonCompletion], round: Int?
  ) {
    try await call("read") {
      let answer = try await server.send(.GET, "/api/lessons/completions", bearer: try bearer())
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      let response = try answer.decode(CompletionsResponse.self)
      return (response.completions.map(\.completion), response.round)
    }
  }

  @discardableResult
  package func recordCompletion(account: String, lessonID: String, started: Date, completed: Date)
    async throws -> LessonCompletion?
  {
    try await recordCompletion(
      account: account, lessonID: lessonID, started: started, completed: completed, key: UUID())
  }

  /// Sends the completion as the change named `key` (a retry of a change keeps its key).
  @discardableResult
  package func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date, key: UUID
  ) async throws -> LessonCompletion? {
    let change = OutboxChange.completion(
      lessonID: lessonID, started: Int64(started.timeIntervalSince1970.rounded(.down)),
      completed: Int64(completed.timeIntervalSince1970.rounded(.down)))
    return try await call("saved") {
      try await send(change, key: key).completion.map(\.completion)
    }
  }

  @discardableResult
  package func startNewRound(account: String) async throws -> Int {
    try await startNewRound(account: account, from: nil)
  }

  /// Start over from round `from` (the one the device shows as done; nil: whichever is
  /// current). When another device started over since, nothing starts, and the person is told
  /// (a walk-through's device, showing a round that was over, skipped the round another device
  /// was in the middle of).
  package func startNewRound(account: String, from: Int?) async throws -> Int {
    let answer = try await call("saved") {
      try await server.send(
        .POST, "/api/lessons/rounds", json: from.map { StartOverRequest(from: $0) },
        bearer: try bearer())
    }
    if answer.status == 409 { throw ProgressError(message: Self.roundMovedMessage) }
    return try await call("saved") {
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      return try answer.decode(RoundResponse.self).round
    }
  }

  static let roundMovedMessage =
    "Another device started over first: nothing was started. Leave Lessons and open them again "
    + "to see the round it began"

  /// Runs `send` up to `attempts` times while the answer is lost: no connection, no answer in
  /// time, or a 5xx (the change may have been applied; its key makes the next try harmless).
  private func change<T>(_ send: () async throws -> T) async throws -> T {
    var attempt = 1
    while true {
      do {
        return try await send()
      } catch let error as ServiceError where attempt < attempts && Self.answerLost(error) {
        attempt += 1
      }
    }
  }

  /// The server's own refusal of a change: a 4xx (other than 401, 408 and 429) whose body is
  /// its JSON error. Only this puts a change aside; anything else (a proxy's 404 page while it
  /// reloads, a 403 page, a 408) is "later" (issue 28).
  package struct Refused: Error, Sendable {
    package var status: Int
    package var code: String
  }

  static func changeFailure(_ answer: RemoteServer.Answer) -> any Error {
    let status = answer.status
    if (400..<500).contains(status), ![401, 408, 429].contains(status),
      let code = answer.errorCode
    {
      return Refused(status: status, code: code)
    }
    return RemoteServer.failure(answer)
  }

  static func answerLost(_ error: ServiceError) -> Bool {
    switch error {
    case .network, .timedOut: true
    case .server(let status): status >= 500
    default: false
    }
  }

  private func bearer() throws(ServiceError) -> String {
    guard let token = credentials.bearer else { throw ServiceError.unauthorized }
    return token
  }

  /// Errors as `ProgressError`, worded like the embedded store's (`Progress could not be …`).
  /// `change`: a change's last answer lost means the server may have applied it all the same.
  private func call<T>(_ verb: String, change: Bool = false, _ work: () async throws -> T)
    async throws -> T
  {
    let record = RemoteServer.SendRecord()
    do {
      return try await RemoteServer.$sendRecord.withValue(record) { try await work() }
    } catch let error as ServiceError {
      // Lost after some attempt may have reached the server (not one that never connected).
      let lost = change && record.mayHaveSent && Self.answerLost(error)
      var failure = ProgressError(
        message: "Progress could not be \(verb): \(error.message)",
        isServerAway: error.isServerAway, mayHaveBeenApplied: lost)
      if error.isServerAway { failure.awayNotice = error.awayNotice }
      // Refused with a token in hand (not for the lack of one): the session is over.
      if error == .unauthorized || error == .sessionExpired, credentials.bearer != nil {
        failure.isSessionRefused = true
      }
      throw failure
    } catch let refused as Refused {
      throw ProgressError(
        message:
          "Progress could not be \(verb): \(ServiceError.server(status: refused.status).message)")
    }
  }

}
