import Crypto
import HTTPTypes
import Hummingbird
import MyworkoutCore
import MyworkoutServices
import MyworkoutWire
import NIOCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The catalog, per-class progress and the lessons with their completion events (SPEC §15).
extension Backend {
  func addDataRoutes(to router: Router<ServerContext>) {
    // The public catalog: from memory while the catalog's version holds (CatalogMemory).
    router.get("api/classes") { request, _ in
      let base = self.base(request)
      let query = request.uri.queryParameters
      let text = try Self.checkedSearch(Self.formValue("q", in: request.uri.query) ?? "")
      let offset = try Self.integer(query["offset"], name: "offset", default: 0)
      let limit = try Self.integer(query["limit"], name: "limit", default: 50)
      let answer = try await self.catalogCall {
        try await self.catalogMemory.answer(
          .page(query: text, offset: offset, limit: limit, base: base)
        ) {
          let page = try await self.catalog.page(query: text, offset: offset, limit: limit)
          return JSONResponse.bytes(
            CatalogPageDTO(
              query: page.query, offset: page.offset,
              classes: page.classes.map { Self.dto($0, base: base) }, matching: page.matching,
              capped: page.isCapped, total: page.total))
        }
      }
      guard let answer else { throw APIError.notFound }
      return Self.catalogResponse(answer)
    }
    router.get("api/classes/:id") { request, context in
      let id = try context.decodedParameter("id")
      let base = self.base(request)
      let answer = try await self.catalogCall {
        try await self.catalogMemory.answer(.detail(id: id, base: base)) {
          guard let found = try await self.catalog.danceClass(id: id) else { return nil }
          return JSONResponse.bytes(Self.dto(found, base: base))
        }
      }
      guard let answer else { throw APIError.notFound }
      return Self.catalogResponse(answer)
    }
    router.post("api/progress/percents") { request, context in
      let account = try await self.account(request)
      let asked = try await RequestBody.decode(
        PercentsRequest.self, from: request, context: context)
      let classes = try self.checkedClasses(asked)
      let percents = try await self.progressCall {
        try await self.progress.watchedPercents(account: account, classes: classes)
      }
      return JSONResponse.make(PercentsResponse(percents: percents))
    }
    router.get("api/progress/:class") { request, context in
      let account = try await self.account(request)
      let classID = try Self.checkedClassID(context.decodedParameter("class"))
      return JSONResponse.response(try await self.progressBody(account: account, classID: classID))
    }
    router.post("api/progress/:class") { request, context in
      let account = try await self.account(request)
      let classID = try Self.checkedClassID(context.decodedParameter("class"))
      let update = try await RequestBody.decode(
        ProgressUpdateDTO.self, from: request, context: context)
      let change = try self.checkedUpdate(update, account: account, classID: classID)
      let played = change.played
      let key = try Self.idempotencyKey(
        request,
        fingerprint: [
          "progress", classID, String(update.position), played.encoded,
          String(update.addedTimeInClass), update.changedAt.map(String.init) ?? "",
        ])
      // Checked and made with no other change of this class's progress between (on this
      // instance; see `Preconditions`).
      let merged = try await self.changes.withLock("progress \(account) \(classID)") {
        try await self.checkPreconditions(request, account: account, key: key) {
          Preconditions.tag(of: try await self.progressBody(account: account, classID: classID))
        }
        return try await self.progressCall {
          guard let key else { return try await self.progress.record(change) }
          guard let state = try await self.progress.record(change, key: key).value else {
            throw APIError.keyReused
          }
          return state
        }
      }
      return JSONResponse.make(ProgressDTO(merged))
    }
    router.get("api/lessons") { _, _ in
      let file = self.lessonsFile
      // Mimo's `GET /api/lessons` body is the lesson file's JSON: the bytes that were checked.
      do {
        let data = try LessonFile.read(path: file).data
        return Response(
          status: .ok, headers: [.contentType: "application/json"],
          body: .init(byteBuffer: ByteBuffer(bytes: data)))
      } catch let error as LessonLoadError {
        throw APIError(.internalServerError, error: "server_error", description: error.message)
      }
    }
    router.get("api/lessons/completions") { request, _ in
      let account = try await self.account(request)
      return JSONResponse.response(try await self.completionsBody(account: account))
    }
    router.post("api/lessons/completions") { request, context in
      let account = try await self.account(request)
      let event = try await RequestBody.decode(
        CompletionRequest.self, from: request, context: context)
      try self.checkCompletion(event)
      let key = try Self.idempotencyKey(
        request,
        fingerprint: [
          "completion", event.lessonID, String(event.started), String(event.completed),
        ] + (event.round.map { [String($0)] } ?? []))
      let started = Date(timeIntervalSince1970: Double(event.started))
      let completed = Date(timeIntervalSince1970: Double(event.completed))
      let recorded = try await self.changes.withLock("lessons \(account)") {
        try await self.checkPreconditions(request, account: account, key: key) {
          Preconditions.tag(of: try await self.completionsBody(account: account))
        }
        return try await self.progressCall { () async throws -> LessonCompletion? in
          guard let key else {
            return try await self.progress.recordCompletion(
              account: account, lessonID: event.lessonID, started: started,
              completed: completed, round: event.round)
          }
          guard
            let state = try await self.progress.recordCompletion(
              account: account, lessonID: event.lessonID, started: started,
              completed: completed, round: event.round, key: key
            ).value
          else { throw APIError.keyReused }
          return state
        }
      }
      return JSONResponse.make(CompletionResponse(completion: recorded.map(CompletionDTO.init)))
    }
    router.post("api/lessons/rounds") { request, context in
      let account = try await self.account(request)
      // The round the device starts over from, when it says (an empty body does not).
      let data = try await RequestBody.bytes(of: request, context: context)
      var from: Int?
      if !data.isEmpty {
        guard let asked = try? JSONDecoder().decode(StartOverRequest.self, from: data),
          (asked.from.map { $0 >= 1 && $0 <= Int(Int32.max) } ?? true)
        else {
          throw APIError.badRequest(
            "The body is not the JSON expected: 'from', the round to start over from (1 or more).")
        }
        from = asked.from
      }
      // Nothing is answered to a GET here: an If-Match cannot hold.
      try await Preconditions.check(request) { nil }
      // A new round changes what the completions answer: not between a completion's check
      // and its change.
      let started = try await self.changes.withLock("lessons \(account)") {
        try await self.progressCall {
          try await self.progress.startNewRound(account: account, from: from)
        }
      }
      guard let round = started else {
        let current = try await self.progressCall {
          try await self.progress.currentCompletions(account: account).round
        }
        throw APIError(
          .conflict, error: "round_moved",
          description:
            "Round \(from ?? current) is no longer the current one: round \(current) is. "
            + "Nothing was started.")
      }
      return JSONResponse.make(RoundResponse(round: round))
    }
  }

  /// The id of the account a personal request is for: its Bearer token's `sub`.
  func account(_ request: Request) async throws -> String {
    try await accountID(
      of: bearer(request.headers[.authorization], issuer: issuer(host: request.head.authority)))
  }

  static let idempotencyKeyField = HTTPField.Name("Idempotency-Key")!

  /// The request's `Idempotency-Key` (a bare token as Stripe's API takes it, or a quoted
  /// string as the IETF draft writes it), nil without the header. `fingerprint` names the
  /// change it comes with (its route and values), so that a key reused for another change is
  /// told from a retry.
  static func idempotencyKey(_ request: Request, fingerprint: [String]) throws(APIError)
    -> IdempotencyKey?
  {
    guard var value = request.headers[idempotencyKeyField] else { return nil }
    if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
      value = String(value.dropFirst().dropLast())
    }
    guard (1...255).contains(value.utf8.count),
      value.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
    else {
      throw APIError.badRequest("Idempotency-Key must be 1 to 255 visible ASCII characters")
    }
    // Each part's length first, so that no two lists of parts read alike.
    let text = fingerprint.map { "\($0.utf8.count):\($0)" }.joined()
    let digest = SHA256.hash(data: Array(text.utf8))
    return IdempotencyKey(value, request: digest.hexString)
  }

  /// The most words and characters a catalog search may have (the app's field holds 100
  /// characters): a search of 1,000 words failed in SQLite ("Expression tree is too large",
  /// a 500), and each word is a condition of the query.
  package static let searchWords = 32
  package static let searchCharacters = 200

  /// `text`, when it is within the search's bounds; else a 400 that says which.
  static func checkedSearch(_ text: String) throws(APIError) -> String {
    guard text.count <= searchCharacters else {
      throw APIError.badRequest("A search has at most \(searchCharacters) characters")
    }
    guard SearchText.terms(of: text).count <= searchWords else {
      throw APIError.badRequest("A search has at most \(searchWords) words")
    }
    return text
  }

  /// The value named `name` in a raw query string, decoded as a form encodes it: `+` a space
  /// and `%XX` a byte. (Hummingbird's `queryParameters` keeps `+`: a walk-through's
  /// `q=zoe+okafor`, as HTML forms, `URLSearchParams`, Python's `urlencode` and
  /// `curl --data-urlencode` send a space, searched for `zoe+okafor`.) A malformed escape is
  /// kept as written; nil when the name is absent.
  static func formValue(_ name: String, in query: String?) -> String? {
    guard let query else { return nil }
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts[0] == name else { continue }
      let raw = parts.count > 1 ? String(parts[1]).replacing("+", with: " ") : ""
      return Percent.decode(raw) ?? raw
    }
    return nil
  }

  static func integer(_ text: Substring?, name: String, default value: Int) throws(APIError) -> Int
  {
    guard let text else { return value }
    guard let number = Int(text), number >= 0 else {
      throw APIError.badRequest("\(name) must be a whole number, 0 or more")
    }
    return number
  }

  /// A kept catalog answer with its tag (the caching middleware adds `Cache-Control` and
  /// answers `If-None-Match` from it).
  static func catalogResponse(_ answer: CatalogMemory.Answer) -> Response {
    Response(
      status: .ok, headers: [.contentType: "application/json", .eTag: answer.tag],
      body: .init(byteBuffer: answer.body))
  }

  /// This server as the request reached it (through nginx: nginx's address).
  /// The server's origin as the client reached it: the `Host`, and `https` when the proxy in
  /// front that ended TLS says so (`X-Forwarded-Proto`, as nginx and HAProxy set it; heard only
  /// `--behind-proxy`, as `X-Real-IP` is, since a client's own header would otherwise reach a
  /// shared cache's copy): video URLs on a plain-HTTP origin behind TLS cannot be opened.
  func base(_ request: Request) -> String {
    let forwarded =
      options.behindProxy
      ? request.headers[Self.forwardedProto]?.split(separator: ",").first
        .map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() } : nil
    let scheme = forwarded == "https" ? "https" : "http"
    // Without a Host (HTTP/1.0 may leave it out), the address the server listens on.
    guard let host = request.head.authority else {
      return baseURL.withLock { $0 } ?? scheme + "://127.0.0.1"
    }
    return scheme + "://" + host
  }

  package static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!

  static func dto(_ danceClass: DanceClass, base: String) -> ClassDTO {
    ClassDTO(
      id: danceClass.id, title: danceClass.title, instructor: danceClass.instructor,
      level: danceClass.level.rawValue, song: danceClass.song,
      videoURL: videoURL(danceClass.videoURL, base: base),
      thumbnail: danceClass.thumbnailSlug, duration: danceClass.duration)
  }

  private func catalogCall<T>(_ call: () async throws -> T) async throws -> T {
    do {
      return try await call()
    } catch let error as CatalogError {
      // Said to the server's log (APIError's middleware), not to the client: it can hold the
      // store's own words, even its SQL.
      throw APIError(
        .internalServerError, error: "server_error", description: "Classes could not be loaded",
        logged: error.message)
    }
  }

  /// `Preconditions.check`, except for a change sent again with the `Idempotency-Key` of one
  /// already applied: its first try met them, and the change it made is what made its
  /// `If-Match` stale. It goes on to the store, which answers it as remembered (or 422 when
  /// the key came with another change). RFC 9110 §13.1.1 lets a change already made be
  /// answered 2xx; a client that puts refused changes aside would have put an applied one aside.
  private func checkPreconditions(
    _ request: Request, account: String, key: IdempotencyKey?,
    current: () async throws -> String?
  ) async throws {
    do {
      try await Preconditions.check(request, current: current)
    } catch let error as APIError where error.status == .preconditionFailed {
      guard let key,
        try await progressCall({
          try await self.progress.appliedRequest(account: account, key: key.value)
        }) != nil
      else { throw error }
    }
  }

  /// What `GET /api/progress/{class}` answers `account` (its tag is a change's precondition).
  private func progressBody(account: String, classID: String) async throws -> ByteBuffer {
    JSONResponse.bytes(
      ProgressDTO(
        try await progressCall {
          try await self.progress.progress(account: account, classID: classID)
        }))
  }

  /// What `GET /api/lessons/completions` answers `account`.
  private func completionsBody(account: String) async throws -> ByteBuffer {
    let current = try await progressCall {
      try await self.progress.currentCompletions(account: account)
    }
    return JSONResponse.bytes(
      CompletionsResponse(
        completions: current.events.map(CompletionDTO.init), round: current.round))
  }

  private func progressCall<T>(_ call: () async throws -> T) async throws -> T {
    do {
      return try await call()
    } catch let error as ProgressError {
      switch error.refusal {
      case .tooManyIntervals:
        throw APIError(
          .unprocessableContent, error: "too_many_intervals", description: error.message)
      case .tooManyClasses:
        throw APIError(
          .unprocessableContent, error: "too_many_classes", description: error.message)
      case .tooManyLessonEvents:
        throw APIError(
          .unprocessableContent, error: "too_many_lesson_events", description: error.message)
      case nil: break
      }
      throw APIError(.internalServerError, error: "server_error", description: error.message)
    }
  }
}
