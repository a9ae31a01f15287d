import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MyworkoutServer
import Testing

/// A method a route does not take is `405 Method Not Allowed` with an `Allow` field naming the
/// ones it does (RFC 9110 §15.5.6), not `404`: a walk-through sent `PUT /api/progress/{class}`
/// and `DELETE /api/classes` and was told the resource did not exist.
@Suite struct MethodRouteTests {
  @Test(arguments: [
    ("PUT", "/api/progress/some-class", "GET, HEAD, POST"),
    ("DELETE", "/api/classes", "GET, HEAD"),
    ("PATCH", "/api/classes/abc", "GET, HEAD"),
    ("GET", "/oauth/token", "POST"),
    ("DELETE", "/api/lessons/completions", "GET, HEAD, POST"),
    ("PUT", "/videos/bounce.mp4", "GET, HEAD"),
    ("OPTIONS", "/userinfo", "GET, HEAD"),
  ])
  func aMethodTheRouteDoesNotTakeIs405WithItsMethods(
    method: String, path: String, allowed: String
  ) async throws {
    try await withRouter(.sqlite) { client, _ in
      let answer = try await client.execute(
        uri: path, method: try #require(HTTPRequest.Method(method))
      ) { response in
        (
          Int(response.status.code), response.headers[.allow],
          try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
            as? [String: Any]
        )
      }
      #expect(answer.0 == 405, "\(method) \(path)")
      #expect(answer.1 == allowed, "\(method) \(path)")
      #expect(answer.2?["error"] as? String == "method_not_allowed", "\(method) \(path)")
    }
  }

  /// A path no route has is still `404`, whatever the method; a route's own `404` (a class
  /// that is not there) is not turned into a `405`.
  @Test func aPathNoRouteHasIsStill404() async throws {
    try await withRouter(.sqlite) { client, _ in
      for (method, path) in [
        (HTTPRequest.Method.get, "/nope"), (.delete, "/api/nope/deeper"), (.put, "/api"),
        (.get, "/api/classes/not-a-class"), (.get, "/api/classes/a/b"),
      ] {
        let status = try await client.execute(uri: path, method: method) {
          Int($0.status.code)
        }
        #expect(status == 404, "\(method) \(path)")
      }
    }
  }
}
