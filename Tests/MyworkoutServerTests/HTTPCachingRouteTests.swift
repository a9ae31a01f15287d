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
