import Foundation
import Hummingbird
import HummingbirdTesting
import MyworkoutServer
import Testing

/// The server's API as an OpenAPI 3 document (issue 28): `GET /openapi.json` serves it, and it
/// names exactly the routes the router has, so that the fuzzer in `.ci/run`
/// (`Tests/api-fuzz/run.sh`, Schemathesis) tries every one and nothing that is not there.
@Suite struct OpenAPITests {
  static func document() throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
  }

  @Test func everyRouteIsInTheDocumentAndNothingElse() async throws {
    try await withRouter { _, backend in
      let routes = Set(
        ServerApplication.router(backend).routes.map { route -> String in
          // `/api/classes/:id` → `/api/classes/{id}`
          let path = route.path.description.split(separator: "/").map { part in
            part.hasPrefix(":") ? "{" + part.dropFirst() + "}" : String(part)
          }.joined(separator: "/")
          return route.method.rawValue.uppercased() + " /" + path
        })
      let document = try Self.document()
      #expect(document["openapi"] as? String == "3.0.3")
      let paths = try #require(document["paths"] as? [String: [String: Any]])
      let methods = ["get", "post", "put", "delete", "patch", "head", "options"]
      let documented = Set(
        paths.flatMap { path, operations in
          operations.keys.filter(methods.contains).map { $0.uppercased() + " " + path }
        })
      #expect(
        routes == documented,
        "only routed: \(routes.subtracting(documented)); only documented: \(documented.subtracting(routes))"
      )
    }
  }

  @Test func theServerServesItsDocument() async throws {
    try await withRouter { client, _ in
      let (status, body) = try await client.execute(uri: "/openapi.json", method: .get) {
        (Int($0.status.code), String(buffer: $0.body))
      }
      #expect(status == 200)
      #expect(body == OpenAPIDocument.json)
    }
  }
}
