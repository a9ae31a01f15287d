import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MyworkoutRemote
import MyworkoutServer
import MyworkoutServices
import MyworkoutWire
import Testing

/// `GET /videos/<file>` (SPEC §19, issue 29): the class videos to a valid bearer token only,
/// with byte ranges, validators and nothing outside the folder; the catalog names them.
@Suite struct VideoRouteTests {
  typealias Routes = IdempotencyRouteTests

  struct Answer: Sendable {
    var status: Int
    var headers: HTTPFields
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// A folder with `clip.mp4` (1,000 known bytes), and a secret beside it.
  static func withVideos(
    accel: String? = nil,
    _ body: @Sendable (any TestClientProtocol, [UInt8]) async throws -> Void
  ) async throws {
    try await withTemporaryDirectory { folder in
      let videos = folder + "/videos"
      try FileManager.default.createDirectory(atPath: videos, withIntermediateDirectories: true)
      let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
      try Data(bytes).write(to: URL(fileURLWithPath: videos + "/clip.mp4"))
      for other in ["clip.ts", "clip.webm", "clip.mkv"] {
        try Data(bytes).write(to: URL(fileURLWithPath: videos + "/" + other))
      }
      try Data("secret".utf8).write(to: URL(fileURLWithPath: folder + "/secret.txt"))
      try Data("hidden".utf8).write(to: URL(fileURLWithPath: videos + "/.hidden.mp4"))
      // What else a videos folder holds (the shipped one has the script that makes them).
      try Data("#!/bin/sh".utf8).write(to: URL(fileURLWithPath: videos + "/make-videos.sh"))
      try FileManager.default.createSymbolicLink(
        atPath: videos + "/link.mp4", withDestinationPath: folder + "/secret.txt")
      try await withRouter(
        .sqlite,
        { options in
          options.videosDirectory = videos
          options.videosAccel = accel
        }
      ) { client, _ in try await body(client, bytes) }
    }
  }

  static func get(
    _ client: any TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get,
    token: String?, _ extra: HTTPFields = [:]
  ) async throws -> Answer {
    var headers = extra
    if let token { headers[.authorization] = "Bearer " + token }
    return try await client.execute(uri: uri, method: method, headers: headers) {
      Answer(
        status: Int($0.status.code), headers: $0.headers,
        body: Array($0.body.readableBytesView))
    }
  }

  @Test func onlyABearerOfAValidTokenGetsTheBytes() async throws {
    try await Self.withVideos { client, _ in
      let none = try await Self.get(client, "/videos/clip.mp4", token: nil)
      #expect(none.status == 401)
      #expect(none.text.contains("\"error\""), "a JSON error: \(none.text)")
      #expect(none.headers[.contentType]?.hasPrefix("application/json") == true)
      let forged = try await Self.get(client, "/videos/clip.mp4", token: "not.a.token")
      #expect(forged.status == 401)
      let head = try await Self.get(client, "/videos/clip.mp4", method: .head, token: nil)
      #expect(head.status == 401)
      // An id_token is not an access token (it went to whichever app the person signed in to).
      let idToken = try await client.execute(
        uri: "/authenticate", method: .post, headers: jsonHeaders,
        body: jsonBody([
          "email": "registered@email.com", "password": "password", "client_id": "app",
        ])
      ) { try JSONDecoder().decode(TokenResponse.self, from: Data($0.body.readableBytesView)) }
      .idToken
      #expect(try await Self.get(client, "/videos/clip.mp4", token: idToken).status == 401)
    }
  }

  @Test func theWholeFileWithItsValidators() async throws {
    try await Self.withVideos { client, bytes in
      let token = try await Routes.token(client)
      let whole = try await Self.get(client, "/videos/clip.mp4", token: token)
      #expect(whole.status == 200)
      #expect(whole.body == bytes)
      #expect(whole.headers[.contentType] == "video/mp4")
      #expect(whole.headers[.acceptRanges] == "bytes")
      #expect(whole.headers[.contentLength] == "1000")
      let tag = try #require(whole.headers[.eTag])
      #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
      #expect(whole.headers[.lastModified]?.hasSuffix(" GMT") == true)
      #expect(whole.headers[.cacheControl] == "private, max-age=86400")
      let again = try await Self.get(
        client, "/videos/clip.mp4", token: token, [.ifNoneMatch: tag])
      #expect(again.status == 304)
      #expect(again.body.isEmpty)
      // Without If-None-Match, If-Modified-Since (RFC 9110 §13.1.3) at or after the file's
      // date; an earlier date, or one that is not a date, gets the file.
      let modified = try #require(whole.headers[.lastModified])
      for (since, status) in [
        (modified, 304), ("Fri, 01 Jan 2100 00:00:00 GMT", 304),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 200), ("yesterday", 200),
        // A day February does not have is not a date (not 2 March 2100).
        ("Tue, 30 Feb 2100 00:00:00 GMT", 200),
      ] {
        let answer = try await Self.get(
          client, "/videos/clip.mp4", token: token, [.ifModifiedSince: since])
        #expect(answer.status == status, "\(since)")
      }
      let tagWins = try await Self.get(
        client, "/videos/clip.mp4", token: token,
        [.ifNoneMatch: "\"other\"", .ifModifiedSince: modified])
      #expect(tagWins.status == 200, "If-None-Match decides when both come")
      let head = try await Self.get(client, "/videos/clip.mp4", method: .head, token: token)
      #expect(head.status == 200 && head.body.isEmpty)
      #expect(head.headers[.contentLength] == "1000" && head.headers[.eTag] == tag)
    }
  }

  /// Each container the player plays is served with its media type; MPEG-TS too, which the
  /// player times from its start and seeks in exactly (a `.ts` file was refused with 404).
  @Test func eachVideoFormatWithItsMediaType() async throws {
    try await Self.withVideos { client, bytes in
      let token = try await Routes.token(client)
      for (name, type) in [
        ("clip.ts", "video/mp2t"), ("clip.webm", "video/webm"), ("clip.mkv", "video/x-matroska"),
      ] {
        let answer = try await Self.get(client, "/videos/" + name, token: token)
        #expect(answer.status == 200 && answer.body == bytes, "\(name): \(answer.status)")
        #expect(answer.headers[.contentType] == type, "\(name)")
      }
    }
  }

  @Test func byteRangesAsFFmpegAndBrowsersAskForThem() async throws {

    try await Self.withVideos { client, bytes in
      let token = try await Routes.token(client)
      let cases: [(String, Range<Int>)] = [
        ("bytes=10-19", 10..<20), ("bytes=990-", 990..<1_000), ("bytes=-5", 995..<1_000),
        ("bytes=0-", 0..<1_000), ("bytes=500-5000", 500..<1_000), ("bytes=0-0", 0..<1),
        // Numbers past any length (a walk-through's): the last N bytes are all of them.
        ("bytes=-99999999999999999999999", 0..<1_000),
        ("bytes=0-99999999999999999999999", 0..<1_000),
      ]
      for (range, expected) in cases {
        let answer = try await Self.get(client, "/videos/clip.mp4", token: token, [.range: range])
        #expect(answer.status == 206, "\(range)")
        #expect(Array(answer.body) == Array(bytes[expected]), "\(range)")
        #expect(
          answer.headers[.contentRange]
            == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/1000", "\(range)")
        #expect(answer.headers[.contentLength] == String(expected.count), "\(range)")
      }
      for range in [
        "bytes=1000-", "bytes=2000-3000", "bytes=-0", "bytes=99999999999999999999999-",
        // Both past any length, in order (a walk-through got the whole file).
        "bytes=99999999999999999999999-99999999999999999999999",
        "bytes=99999999999999999999998-99999999999999999999999",
      ] {
        let answer = try await Self.get(client, "/videos/clip.mp4", token: token, [.range: range])
        #expect(answer.status == 416, "\(range)")
        #expect(answer.headers[.contentRange] == "bytes */1000", "\(range)")
        // The API's JSON error, as nginx's 416 in scripts/cluster (it had no body).
        #expect(answer.headers[.contentType] == "application/json", "\(range)")
        #expect(answer.text.contains(#""error":"range_not_satisfiable""#), "\(answer.text)")
      }
      // What is not a single byte range is ignored, as RFC 9110 allows: the whole file.
      for range in [
        "bytes=5-1", "items=0-10", "bytes=0-1,5-6", "bytes=x-y", "bytes=99999999999999999999-5",
        "bytes=99999999999999999999999-99999999999999999999998",
      ] {
        let answer = try await Self.get(client, "/videos/clip.mp4", token: token, [.range: range])
        #expect(answer.status == 200 && answer.body == bytes, "\(range)")
      }
      // If-Range with another validator: the whole file, not a piece of a changed one.
      let stale = try await Self.get(
        client, "/videos/clip.mp4", token: token, [.range: "bytes=0-9", .ifRange: "\"old\""])
      #expect(stale.status == 200 && stale.body == bytes)
    }
  }

  /// RFC 9110 §5.6.7: a recipient MUST accept all three forms of an HTTP date; the two
  /// obsolete ones (RFC 850's, C's asctime) were ignored, so the same instant was a 412 in one
  /// spelling and the whole (changed) file in another.
  @Test func everyFormOfAnHTTPDateIsRead() async throws {
    try await Self.withVideos { client, _ in
      let token = try await Routes.token(client)
      for (field, date, status) in [
        (HTTPField.Name.ifUnmodifiedSince, "Sat, 01 Jan 2000 00:00:00 GMT", 412),
        (.ifUnmodifiedSince, "Saturday, 01-Jan-00 00:00:00 GMT", 412),
        (.ifUnmodifiedSince, "Sat Jan  1 00:00:00 2000", 412),
        (.ifUnmodifiedSince, "Friday, 01-Jan-99 00:00:00 GMT", 412),
        (.ifModifiedSince, "Fri Jan  1 00:00:00 2100", 304),
        (.ifModifiedSince, "Friday, 01-Jan-44 00:00:00 GMT", 304),
        (.ifModifiedSince, "Thu Nov 31 00:00:00 2100", 200),
      ] as [(HTTPField.Name, String, Int)] {
        let answer = try await Self.get(client, "/videos/clip.mp4", token: token, [field: date])
        #expect(answer.status == status, "\(field): \(date)")
      }
      #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
      #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
      #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
    }
  }

  /// The router reads `//videos/clip.mp4` as `/videos/clip.mp4`, and so must everything that
  /// decides by the path: the caching layer took it for another route (`private, no-cache`,
  /// and behind nginx an ETag of the empty body, so the file's own tag was a 412).
  @Test func aPathWithDoubledSlashesIsTheSameResource() async throws {
    try await Self.withVideos { client, _ in
      let token = try await Routes.token(client)
      let plain = try await Self.get(client, "/videos/clip.mp4", token: token)
      for path in ["//videos/clip.mp4", "/videos//clip.mp4", "//videos//clip.mp4"] {
        let answer = try await Self.get(client, path, token: token)
        #expect(answer.status == 200, "\(path)")
        #expect(answer.headers[.cacheControl] == plain.headers[.cacheControl], "\(path)")
        #expect(answer.headers[.eTag] == plain.headers[.eTag], "\(path)")
      }
    }
  }

  /// Nothing outside the folder, no hidden files, and nothing in it but videos (a walk-through
  /// was sent the shipped folder's script).
  @Test func nothingOutsideTheFolderAndNoHiddenFiles() async throws {
    try await Self.withVideos { client, _ in
      let token = try await Routes.token(client)
      for path in [
        "/videos/..%2Fsecret.txt", "/videos/%2E%2E/secret.txt", "/videos/../secret.txt",
        "/videos/link.mp4", "/videos/.hidden.mp4", "/videos/missing.mp4", "/videos/",
        "/videos/clip.mp4%00.txt", "/videos/%2Ftmp%2Fx", "/videos/make-videos.sh",
      ] {
        let answer = try await Self.get(client, path, token: token)
        #expect([404, 400].contains(answer.status), "\(path): \(answer.status)")
        #expect(!answer.text.contains("secret"), "\(path)")
      }
    }
  }

  @Test func behindNginxTheInstanceOnlyAuthorisesAndNamesTheFile() async throws {
    try await Self.withVideos(accel: "/_videos/") { client, _ in
      let token = try await Routes.token(client)
      let answer = try await Self.get(
        client, "/videos/clip.mp4", token: token, [.range: "bytes=0-9"])
      #expect(answer.status == 200)
      #expect(answer.body.isEmpty, "no video bytes from the instance")
      #expect(answer.headers[HTTPField.Name("X-Accel-Redirect")!] == "/_videos/clip.mp4")
      let refused = try await Self.get(client, "/videos/clip.mp4", token: nil)
      #expect(refused.status == 401)
      #expect(refused.headers[HTTPField.Name("X-Accel-Redirect")!] == nil)
      let missing = try await Self.get(client, "/videos/none.mp4", token: token)
      #expect(missing.status == 404)
    }
  }

  @Test func theCatalogNamesTheServersVideosAndPassesAbsoluteURLsThrough() async throws {
    try await withRouter { client, _ in
      let page = try await client.execute(
        uri: "/api/classes?limit=200", method: .get
      ) { response in
        try JSONDecoder().decode(
          CatalogPageDTO.self, from: Data(response.body.readableBytesView))
      }
      #expect(!page.classes.isEmpty)
      for item in page.classes {
        #expect(
          item.videoURL.hasPrefix("http://") && item.videoURL.contains("/videos/")
            && item.videoURL.hasSuffix(".mp4"), "\(item.videoURL)")
      }
      let one = try #require(page.classes.first)
      let detail = try await client.execute(
        uri: "/api/classes/" + one.id, method: .get
      ) { response in
        try JSONDecoder().decode(ClassDTO.self, from: Data(response.body.readableBytesView))
      }
      #expect(detail.videoURL == one.videoURL)
    }
    #expect(
      Backend.videoURL("https://cdn.example/a.mp4", base: "http://h")
        == "https://cdn.example/a.mp4")
    #expect(Backend.videoURL("bounce.mp4", base: "http://h") == "http://h/videos/bounce.mp4")
    #expect(Backend.videoURL("a b.mp4", base: "http://h") == "http://h/videos/a%20b.mp4")
    #expect(Backend.videoURL("", base: "http://h") == "")
    // Only http(s) passes through: a file URL would be opened on the client's own disk.
    #expect(Backend.videoURL("file:///etc/passwd", base: "http://h") == "")
    #expect(Backend.videoURL("FTP://h/a.mp4", base: "http://h") == "")
    #expect(
      Backend.videoURL("HTTPS://cdn.example/a.mp4", base: "http://h") == "HTTPS://cdn.example/a.mp4"
    )
  }

  /// Behind a proxy that ends TLS (`--behind-proxy`, `X-Forwarded-Proto: https`), the
  /// catalog's video URLs are https ones: plain-HTTP URLs on a TLS port could not be opened.
  /// Without `--behind-proxy` a client's own header changes nothing (a shared cache keeps what
  /// the first asker got).
  @Test(arguments: [true, false])
  func behindTLSTheCatalogNamesHTTPSVideoURLs(behindProxy: Bool) async throws {
    try await withRouter(.sqlite, { $0.behindProxy = behindProxy }) { client, _ in
      for (proto, scheme) in [
        ("https", "https://"), ("HTTPS, http", "https://"), ("ftp", "http://"),
      ] {
        let page = try await client.execute(
          uri: "/api/classes?limit=3", method: .get,
          headers: [Backend.forwardedProto: proto]
        ) { response in
          try JSONDecoder().decode(
            CatalogPageDTO.self, from: Data(response.body.readableBytesView))
        }
        #expect(!page.classes.isEmpty)
        let expected = behindProxy ? scheme : "http://"
        #expect(page.classes.allSatisfy { $0.videoURL.hasPrefix(expected) }, "\(proto)")
      }
    }
  }

  @Test func theSessionsTokenGoesOnlyToTheServersOwnVideos() {
    let server = "http://127.0.0.1:8080"
    #expect(RemoteServer.isOwnVideo("http://127.0.0.1:8080/videos/a.mp4", server: server))
    #expect(RemoteServer.isOwnVideo("HTTP://127.0.0.1:8080/videos/a.mp4", server: server + "/"))
    #expect(RemoteServer.isOwnVideo("http://h/videos/a.mp4", server: "http://H:80"))
    #expect(RemoteServer.isOwnVideo("https://h:443/videos/a.mp4", server: "https://h"))
    #expect(!RemoteServer.isOwnVideo("http://127.0.0.1:8081/videos/a.mp4", server: server))
    #expect(!RemoteServer.isOwnVideo("https://127.0.0.1:8080/videos/a.mp4", server: server))
    #expect(!RemoteServer.isOwnVideo("http://127.0.0.1:8080/id/a.png", server: server))
    #expect(!RemoteServer.isOwnVideo("http://127.0.0.1:8080.evil/videos/a", server: server))
    #expect(!RemoteServer.isOwnVideo("http://x@127.0.0.1:8080/videos/a", server: server))
    #expect(!RemoteServer.isOwnVideo("https://cdn.steezy.co/videos/a.mp4", server: server))
    #expect(!RemoteServer.isOwnVideo("bounce.mp4", server: server))
  }
}
