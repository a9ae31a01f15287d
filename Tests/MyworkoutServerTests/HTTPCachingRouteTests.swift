import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MyworkoutRemote
import MyworkoutServer
import MyworkoutServices
import Testing

/// HTTP caching as the web does it (issue 30): `ETag` and `Cache-Control` on every GET, `304`
/// for a matching `If-None-Match`, `HEAD` on every GET route; personal answers are private.
@Suite struct HTTPCachingRouteTests {
  typealias Routes = IdempotencyRouteTests

  struct Answer: Sendable {
    var status: Int
    var tag: String?
    var cacheControl: String?
    var body: String
  }

  static func get(
    _ client: any TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get,
    token: String? = nil, ifNoneMatch: String? = nil
  ) async throws -> Answer {
    var headers: HTTPFields = [:]
    if let token { headers[.authorization] = "Bearer " + token }
    if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
    return try await client.execute(uri: uri, method: method, headers: headers) {
      Answer(
        status: Int($0.status.code), tag: $0.headers[.eTag],
        cacheControl: $0.headers[.cacheControl], body: String(buffer: $0.body))
    }
  }

  @Test(arguments: Store.allCases)
  func theCatalogIsPublicAndAnswers304WhenUnchanged(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let first = try await Self.get(client, "/api/classes?limit=5")
      #expect(first.status == 200)
      let tag = try #require(first.tag)
      #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""), "a strong tag: \(tag)")
      #expect(first.cacheControl == "public, max-age=60")
      let again = try await Self.get(client, "/api/classes?limit=5", ifNoneMatch: tag)
      #expect(again.status == 304)
      #expect(again.body.isEmpty)
      #expect(again.tag == tag)
      // Another page is another tag; a list of tags with ours matches; * matches.
      let other = try await Self.get(client, "/api/classes?limit=6", ifNoneMatch: tag)
      #expect(other.status == 200 && other.tag != tag)
      let listed = try await Self.get(
        client, "/api/classes?limit=5", ifNoneMatch: "\"nope\", W/\(tag)")
      #expect(listed.status == 304)
      // HEAD: the GET's headers, no body.
      let head = try await Self.get(client, "/api/classes?limit=5", method: .head)
      #expect(head.status == 200 && head.body.isEmpty && head.tag == tag)
      for path in ["/api/lessons", "/.well-known/jwks.json", "/openapi.json", "/v2/list"] {
        let answer = try await Self.get(client, path, method: .head)
        #expect(answer.status == 200 && answer.tag != nil, "HEAD \(path)")
      }
    }
  }

  @Test(arguments: Store.allCases)
  func personalAnswersArePrivateAndTheirTagFollowsTheProgress(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let before = try await Self.get(client, "/api/progress/c1", token: token)
      #expect(before.cacheControl == "private, no-cache")
      let tag = try #require(before.tag)
      #expect(
        try await Self.get(client, "/api/progress/c1", token: token, ifNoneMatch: tag).status
          == 304)
      _ = try await Routes.post(
        client, "/api/progress/c1",
        ["position": 1_000, "played": [[0, 1_000]], "added_time_in_class": 1_000], token,
        key: nil)
      let after = try await Self.get(client, "/api/progress/c1", token: token, ifNoneMatch: tag)
      #expect(after.status == 200, "a save changes the tag")
      #expect(after.tag != tag)
      let completions = try await Self.get(client, "/api/lessons/completions", token: token)
      #expect(completions.cacheControl == "private, no-cache")
    }
  }
}

/// Preconditions on a change (RFC 9110 §13.1.1–13.1.2, §13.2): a POST with `If-Match` is
/// made only while the tag names what a GET of the same URI answers now (strongly compared),
/// one with `If-None-Match` only while none does; else `412` and nothing changes. A walk-through
/// found both ignored: a client guarding against a lost update had its stale change applied.
@Suite struct PreconditionRouteTests {
  typealias Routes = IdempotencyRouteTests

  static func post(
    _ client: any TestClientProtocol, _ uri: String, _ body: [String: Any], token: String?,
    _ conditions: HTTPFields
  ) async throws -> (status: Int, body: [String: Any]) {
    var headers = conditions
    headers[.contentType] = "application/json"
    if let token { headers[.authorization] = "Bearer " + token }
    return try await client.execute(
      uri: uri, method: .post, headers: headers, body: jsonBody(body)
    ) { (Int($0.status.code), $0.body.json) }
  }

  @Test(arguments: Store.allCases)
  func aChangeIsMadeOnlyWhileItsConditionHolds(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let save: [String: Any] = [
        "position": 1_000, "played": [[0, 1_000]], "added_time_in_class": 1_000,
      ]
      let read = { try await HTTPCachingRouteTests.get(client, "/api/progress/c1", token: token) }
      let first = try #require(try await read().tag)
      let stale = try await Self.post(
        client, "/api/progress/c1", save, token: token, [.ifMatch: "\"stale\""])
      #expect(stale.status == 412)
      #expect(stale.body["error"] as? String == "precondition_failed")
      #expect(try await read().tag == first, "nothing was changed")
      let current = try await Self.post(
        client, "/api/progress/c1", save, token: token, [.ifMatch: "\"x\", " + first])
      #expect(current.status == 200)
      let second = try #require(try await read().tag)
      #expect(second != first)
      // The tag read before the change no longer names the progress: a lost update refused.
      let lost = try await Self.post(
        client, "/api/progress/c1", save, token: token, [.ifMatch: first])
      #expect(lost.status == 412)
      // A weak tag never matches If-Match; `*` does while there is progress to name.
      #expect(
        try await Self.post(
          client, "/api/progress/c1", save, token: token, [.ifMatch: "W/" + second]
        ).status == 412)
      #expect(
        try await Self.post(client, "/api/progress/c1", save, token: token, [.ifMatch: "*"])
          .status == 200)
      #expect(
        try await Self.post(
          client, "/api/progress/c1", save, token: token, [.ifNoneMatch: "*"]
        ).status == 412)
      let third = try #require(try await read().tag)
      #expect(
        try await Self.post(
          client, "/api/progress/c1", save, token: token, [.ifNoneMatch: "\"other\""]
        ).status == 200)
      #expect(try await read().tag != third)
      // A condition is not a credential: without a token the answer is still 401.
      #expect(
        try await Self.post(
          client, "/api/progress/c1", save, token: nil, [.ifMatch: "\"stale\""]
        ).status == 401)
      // Completions, the other personal change.
      let completion: [String: Any] = [
        "lesson_id": "1", "started": 1_700_000_000, "completed": 1_700_000_100,
      ]
      #expect(
        try await Self.post(
          client, "/api/lessons/completions", completion, token: token,
          [.ifMatch: "\"stale\""]
        ).status == 412)
      // A URI with nothing to GET has no current representation: If-Match cannot hold.
      let mobile = try await Self.post(
        client, "/api/me/mobile", ["mobile": "0123456789"], token: token, [.ifMatch: "*"])
      #expect(mobile.status == 412)
    }
  }
}

extension PreconditionRouteTests {
  /// A change sent again with its `Idempotency-Key` after its answer was lost carries the
  /// `If-Match` of its first try, which the change itself made stale: it gets the remembered
  /// answer, not a 412 (RFC 9110 §13.1.1 lets a change that was already made be answered 2xx;
  /// a client that puts refused changes aside would have put an applied one aside). The key
  /// with another change is still 422.
  @Test(arguments: Store.allCases)
  func aRetryOfAnAppliedChangeGetsItsAnswerWhateverItsIfMatch(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let save: [String: Any] = [
        "position": 1_000, "played": [[0, 1_000]], "added_time_in_class": 1_000,
      ]
      let key = HTTPField.Name("Idempotency-Key")!
      let first = try #require(
        try await HTTPCachingRouteTests.get(client, "/api/progress/c1", token: token).tag)
      let applied = try await Self.post(
        client, "/api/progress/c1", save, token: token, [.ifMatch: first, key: "k-1"])
      #expect(applied.status == 200)
      let again = try await Self.post(
        client, "/api/progress/c1", save, token: token, [.ifMatch: first, key: "k-1"])
      #expect(again.status == 200, "\(again.body)")
      #expect(again.body["time_in_class"] as? Int == 1_000, "counted once")
      var other = save
      other["position"] = 2_000
      let reused = try await Self.post(
        client, "/api/progress/c1", other, token: token, [.ifMatch: first, key: "k-1"])
      #expect(reused.status == 422)
      // A new key under the stale tag: refused.
      let stale = try await Self.post(
        client, "/api/progress/c1", save, token: token, [.ifMatch: first, key: "k-2"])
      #expect(stale.status == 412)
      let completion: [String: Any] = [
        "lesson_id": "1", "started": 1_700_000_000, "completed": 1_700_000_100,
      ]
      let events = try #require(
        try await HTTPCachingRouteTests.get(client, "/api/lessons/completions", token: token).tag)
      for _ in 0..<2 {
        let sent = try await Self.post(
          client, "/api/lessons/completions", completion, token: token,
          [.ifMatch: events, key: "k-3"])
        #expect(sent.status == 200, "\(sent.body)")
      }
    }
  }
}

extension PreconditionRouteTests {
  /// Changes sent at one instant under one tag: one is made, the rest are 412 (a walk-through's
  /// 32 at once saw up to 15 made; the check and the change were two steps). One instance
  /// checks and changes an account's progress one change at a time.
  @Test func changesSentAtOnceUnderOneTagMakeOne() async throws {
    try await withRouter(.sqlite) { client, _ in
      let token = try await Routes.token(client)
      // Twenty rounds of each: as two steps, more than one went through in half the runs.
      for (round, uri)
        in (Array(repeating: "/api/progress/c1", count: 20)
        + Array(repeating: "/api/lessons/completions", count: 20)).enumerated()
      {
        let tag = try #require(try await HTTPCachingRouteTests.get(client, uri, token: token).tag)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
          for index in 0..<32 {
            let body: [String: Any] =
              uri.hasSuffix("completions")
              ? [
                "lesson_id": "\(round)-\(index)", "started": 1_700_000_000,
                "completed": 1_700_000_100,
              ]
              : ["position": index, "played": [[0, index + 1]], "added_time_in_class": 1]
            let payload = jsonBody(body)
            let headers: HTTPFields = [
              .contentType: "application/json", .authorization: "Bearer " + token, .ifMatch: tag,
            ]
            group.addTask {
              try await client.execute(
                uri: uri, method: .post, headers: headers, body: payload
              ) { Int($0.status.code) }
            }
          }
          return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(uri): \(statuses.sorted())")
        #expect(statuses.filter { $0 == 412 }.count == 31, "\(uri)")
      }
    }
  }
}

/// Remote mode revalidates what its offline cache holds (issue 30): `If-None-Match` with the
/// kept tag, and on `304` the kept copy is used (nothing sent again).
@Suite struct RemoteRevalidationTests {
  @Test func aPageKeptIsRevalidatedAndUsedOn304() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      try await withLiveServer { url, _ in
        let cache = RemoteCache(directory: directory, server: url)
        let catalog = RemoteCatalogService(server: RemoteServer(baseURL: url), cache: cache)
        let first = try await catalog.page(query: "", offset: 0, limit: 5)
        let path = "/api/classes?q=&offset=0&limit=5"
        let tag = try #require(await cache.tag(for: path))
        // The kept copy, marked: a 304 must answer with it.
        var kept =
          try JSONSerialization.jsonObject(
            with: try #require(await cache.body(for: path))) as! [String: Any]
        kept["total"] = 99_999
        await cache.keep(try JSONSerialization.data(withJSONObject: kept), tag: tag, for: path)
        let second = try await catalog.page(query: "", offset: 0, limit: 5)
        #expect(second.total == 99_999, "the kept copy, revalidated by a 304")
        #expect(second.classes == first.classes)
        // A tag the server does not have: the whole answer, kept anew.
        await cache.keep(Data("{}".utf8), tag: "\"stale\"", for: path)
        let third = try await catalog.page(query: "", offset: 0, limit: 5)
        #expect(third == first)
        #expect(await cache.tag(for: path) == tag)
      }
    }
  }
}

/// Preconditions on a read (RFC 9110 §13.1.1, §13.1.4, §13.2.2): a GET or HEAD whose `If-Match`
/// names no current tag (strongly compared), or, without `If-Match`, whose
/// `If-Unmodified-Since` is before the resource's `Last-Modified`, is `412`, not the bytes: a
/// client resuming a download of a file that changed meanwhile must not be given the new file's
/// bytes to join to the old one's. A walk-through found both ignored on every GET.
@Suite struct ReadPreconditionTests {
  typealias Routes = IdempotencyRouteTests
  typealias Videos = VideoRouteTests

  @Test(arguments: Store.allCases)
  func aJSONAnswerNamedByAnotherTagIs412(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      for (path, token) in [("/api/classes?limit=5", nil), ("/api/progress/c1", token)] {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer " + token }
        let tag = try #require(
          try await client.execute(uri: path, method: .get, headers: headers) {
            $0.headers[.eTag]
          })
        for (ifMatch, status) in [
          (tag, 200), ("*", 200), ("\"other\", \(tag)", 200), ("\"other\"", 412),
          ("W/\(tag)", 412),
        ] {
          for method in [HTTPRequest.Method.get, .head] {
            var conditional = headers
            conditional[.ifMatch] = ifMatch
            let answer = try await client.execute(uri: path, method: method, headers: conditional) {
              (Int($0.status.code), String(buffer: $0.body))
            }
            #expect(answer.0 == status, "\(method) \(path) If-Match: \(ifMatch)")
            if status == 412, method == .get {
              #expect(answer.1.contains("precondition_failed"), "\(answer.1)")
            }
          }
        }
        // Routes answer JSON without a date of change: If-Unmodified-Since is ignored.
        var since = headers
        since[.ifUnmodifiedSince] = "Thu, 01 Jan 1970 00:00:00 GMT"
        #expect(
          try await client.execute(uri: path, method: .get, headers: since) {
            Int($0.status.code)
          } == 200)
      }
      // A condition does not turn a refusal into a 412: 401 and 404 stay.
      let missing = try await client.execute(
        uri: "/api/classes/nope", method: .get, headers: [.ifMatch: "\"other\""]
      ) { Int($0.status.code) }
      #expect(missing == 404)
      let anonymous = try await client.execute(
        uri: "/api/progress/c1", method: .get, headers: [.ifMatch: "\"other\""]
      ) { Int($0.status.code) }
      #expect(anonymous == 401)
    }
  }

  @Test func aVideoChangedSinceItsTagOrDateIs412() async throws {
    try await Videos.withVideos { client, _ in
      let token = try await Routes.token(client)
      let whole = try await Videos.get(client, "/videos/clip.mp4", token: token)
      let tag = try #require(whole.headers[.eTag])
      let modified = try #require(whole.headers[.lastModified])
      for (extra, status) in [
        ([HTTPField.Name.ifMatch: tag], 200), ([.ifMatch: "*"], 200),
        ([.ifMatch: "\"other\""], 412), ([.ifMatch: "W/\(tag)"], 412),
        ([.ifUnmodifiedSince: modified], 200),
        ([.ifUnmodifiedSince: "Fri, 01 Jan 2100 00:00:00 GMT"], 200),
        ([.ifUnmodifiedSince: "Thu, 01 Jan 1970 00:00:00 GMT"], 412),
        // Not a date: ignored.
        ([.ifUnmodifiedSince: "yesterday"], 200),
        // If-Match decides when both come.
        ([.ifMatch: tag, .ifUnmodifiedSince: "Thu, 01 Jan 1970 00:00:00 GMT"], 200),
      ] as [([HTTPField.Name: String], Int)] {
        var fields: HTTPFields = [.range: "bytes=0-9"]
        for (name, value) in extra { fields[name] = value }
        let answer = try await Videos.get(client, "/videos/clip.mp4", token: token, fields)
        #expect(answer.status == (status == 200 ? 206 : 412), "\(extra)")
        if status == 412 { #expect(answer.headers[.contentRange] == nil) }
      }
      // Without a token: 401 first.
      let anonymous = try await Videos.get(
        client, "/videos/clip.mp4", token: nil, [.ifMatch: "\"other\""])
      #expect(anonymous.status == 401)
    }
  }
}
