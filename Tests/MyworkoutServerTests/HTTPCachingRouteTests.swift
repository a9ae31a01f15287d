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
