import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MyworkoutServer
import Testing

/// Path parameters are percent-decoded, on every route that has one: Hummingbird hands them
/// over as the URL has them, while ids are listed, filed and named in JSON decoded. A
/// walk-through found an image whose file name has a space and an `é` listed by `/v2/list` but
/// answered 404 at the URL the list gave, and progress saved to `caf%C3%A9%20x` filed under
/// that text, not found by a watched-% question naming `café x`.
@Suite struct PathParameterRouteTests {
  typealias Routes = IdempotencyRouteTests

  @Test func anImageWhoseNameNeedsEncodingIsServedAtTheListedURL() async throws {
    try await withTemporaryDirectory { images in
      let name = "my aurora \u{E9}.png"
      let bytes = try Data(contentsOf: URL(fileURLWithPath: assetsPath + "/images/aurora.png"))
      try bytes.write(to: URL(fileURLWithPath: images + "/" + name))
      try bytes.write(to: URL(fileURLWithPath: images + "/my%zzaurora.png"))
      try await withRouter(.sqlite, { $0.imagesDirectory = images }) { client, _ in
        let list = try await client.execute(uri: "/v2/list", method: .get) { response in
          try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
            as? [[String: Any]] ?? []
        }
        let listed = try #require(list.first { $0["id"] as? String == name })
        let url = try #require(listed["download_url"] as? String)
        let path = try #require(url.range(of: "/id/").map { String(url[$0.lowerBound...]) })
        #expect(path == "/id/my%20aurora%20%C3%A9.png")
        let served = try await client.execute(uri: path, method: .get) { response in
          (Int(response.status.code), Data(response.body.readableBytesView))
        }
        #expect(served.0 == 200)
        #expect(served.1 == bytes)
        // A `%` that starts no escape is itself: the URL typed as the name is (a strict
        // decoding refused it with 404).
        let typed = try await client.execute(uri: "/id/my%zzaurora.png", method: .get) {
          Int($0.status.code)
        }
        #expect(typed == 200)
        // An escape decodes, whatever follows it: `%2a` is `*`, and `my*urora.png` is not
        // listed.
        let star = try await client.execute(uri: "/id/my%2aurora.png", method: .get) {
          Int($0.status.code)
        }
        #expect(star == 404)
      }
    }
  }

  /// An image named `50%.png` is served at the URL a person types (`/id/50%.png`), as before
  /// path parameters were decoded, and at the one the list gives (`/id/50%25.png`); a NUL
  /// escape is still refused before any route sees it.
  @Test func anImageNamedWithAPercentSignIsServedAsTyped() async throws {
    try await withTemporaryDirectory { images in
      let bytes = try Data(contentsOf: URL(fileURLWithPath: assetsPath + "/images/aurora.png"))
      try bytes.write(to: URL(fileURLWithPath: images + "/50%.png"))
      try await withRouter(.sqlite, { $0.imagesDirectory = images }) { client, _ in
        for path in ["/id/50%.png", "/id/50%25.png"] {
          let served = try await client.execute(uri: path, method: .get) { response in
            (Int(response.status.code), Data(response.body.readableBytesView))
          }
          #expect(served.0 == 200, "\(path)")
          #expect(served.1 == bytes, "\(path)")
        }
        let nul = try await client.execute(uri: "/id/50%00.png", method: .get) {
          Int($0.status.code)
        }
        #expect(nul == 400)
      }
    }
  }

  @Test(arguments: Store.allCases)
  func progressSavedToAnEncodedClassIDIsFoundByItsDecodedID(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let save: [String: Any] = [
        "position": 1_000, "played": [[0, 1_000]], "added_time_in_class": 1_000,
      ]
      let saved = try await Routes.post(
        client, "/api/progress/caf%C3%A9%20x", save, token, key: nil)
      #expect(saved.status == 200, "\(saved.body)")
      let asked: [String: Any] = ["classes": [["id": "caf\u{E9} x", "duration": 10]]]
      let answer = try await Routes.post(client, "/api/progress/percents", asked, token, key: nil)
      #expect(answer.status == 200, "\(answer.body)")
      #expect((answer.body["percents"] as? [String: Int])?["caf\u{E9} x"] == 10, "\(answer.body)")
      // Two spellings of one id in the URL are one class.
      let read = try await Routes.get(client, "/api/progress/caf%c3%a9%20x", token)
      #expect(read["time_in_class"] as? Int == 1_000, "\(read)")
      // Escapes whose bytes are not UTF-8 leave the id as it was sent: a class of its own.
      let notUTF8 = try await Routes.get(client, "/api/progress/caf%C3", token)
      #expect(notUTF8["time_in_class"] as? Int == 0, "\(notUTF8)")
    }
  }

  /// A `%` that starts no escape is filed as itself (`50%off`), as before path parameters were
  /// decoded: a strict decoding answered 404 and the save was lost.
  @Test(arguments: Store.allCases)
  func progressSavedToAClassIDWithAPercentSignIsFiledUnderIt(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let save: [String: Any] = [
        "position": 1_000, "played": [[0, 1_000]], "added_time_in_class": 1_000,
      ]
      let saved = try await Routes.post(client, "/api/progress/50%off", save, token, key: nil)
      #expect(saved.status == 200, "\(saved.body)")
      let asked: [String: Any] = ["classes": [["id": "50%off", "duration": 10]]]
      let answer = try await Routes.post(client, "/api/progress/percents", asked, token, key: nil)
      #expect((answer.body["percents"] as? [String: Int])?["50%off"] == 10, "\(answer.body)")
      let read = try await Routes.get(client, "/api/progress/50%25off", token)
      #expect(read["time_in_class"] as? Int == 1_000, "\(read)")
    }
  }
}

/// The image folder is served to anyone, without a token: only the plain files in it. A
/// walk-through linked `/etc/hostname` into it as `host.jpg` and `/id/host.jpg` answered the
/// file (`public, max-age=86400`); a linked folder answered 500 with the server's own path.
@Suite struct ImageFolderRouteTests {
  @Test func aSymbolicLinkInTheImageFolderIsNeitherListedNorServed() async throws {
    try await withTemporaryDirectory { images in
      let bytes = try Data(contentsOf: URL(fileURLWithPath: assetsPath + "/images/aurora.png"))
      try bytes.write(to: URL(fileURLWithPath: images + "/plain.png"))
      let outside = images + "-outside"
      try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: outside) }
      try bytes.write(to: URL(fileURLWithPath: outside + "/secret.png"))
      try FileManager.default.createSymbolicLink(
        atPath: images + "/host.png", withDestinationPath: outside + "/secret.png")
      try FileManager.default.createSymbolicLink(
        atPath: images + "/inside.png", withDestinationPath: images + "/plain.png")
      try FileManager.default.createSymbolicLink(
        atPath: images + "/folder.png", withDestinationPath: outside)
      try await withRouter(.sqlite, { $0.imagesDirectory = images }) { client, _ in
        let ids = try await client.execute(uri: "/v2/list", method: .get) { response in
          (try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
            as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(ids == ["plain.png"])
        for name in ["host.png", "inside.png", "folder.png"] {
          let answer = try await client.execute(uri: "/id/" + name, method: .get) {
            (Int($0.status.code), String(buffer: $0.body))
          }
          #expect(answer.0 == 404, "\(name): \(answer)")
          #expect(!answer.1.contains(images), "no path of the server's: \(answer.1)")
        }
        let plain = try await client.execute(uri: "/id/plain.png", method: .get) {
          Int($0.status.code)
        }
        #expect(plain == 200)
      }
    }
  }
}
