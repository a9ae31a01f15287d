import Testing

@testable import myworkout

/// Where a class's video is opened from (SPEC §19): in remote mode only what the server can
/// send (an http(s) URL; a walk-through saw a server's `file://` URL open a file on the
/// client's disk), locally a URL, a path, or a name beside the catalog or in `Assets/videos/`.
@Suite struct VideoSourcesTests {
  @Test func remoteModeOpensOnlyHTTPURLs() {
    let sources = VideoSources(
      catalogFolder: "/nowhere", assets: "/assets", bearer: { _ in "t0ken" }, remote: true)
    #expect(sources.locate("file:///etc/passwd") == nil)
    #expect(sources.locate("/etc/passwd") == nil)
    #expect(sources.locate("bounce.mp4") == nil)
    let own = sources.locate("https://h/videos/bounce.mp4")
    #expect(own?.source == "https://h/videos/bounce.mp4")
    #expect(own?.header == "Authorization: Bearer t0ken")
  }

  @Test func localModeOpensFilesAndURLs() {
    let sources = VideoSources(catalogFolder: "/nowhere", assets: "/assets", bearer: nil)
    #expect(sources.locate("file:///clips/a.mp4")?.source == "/clips/a.mp4")
    #expect(sources.locate("/clips/a.mp4")?.source == "/clips/a.mp4")
    #expect(sources.locate("bounce.mp4")?.source == "/assets/videos/bounce.mp4")
    #expect(sources.locate("http://cdn/a.mp4")?.header == nil)
  }

  /// A `file://` URL as RFC 8089 writes it (a walk-through's encoded names said `No video: file
  /// not found`): its path percent-decoded, the host empty or `localhost`, or no `//` at all.
  /// A `%` that starts no escape is the name's own.
  @Test func aFileURLIsDecodedAsTheStandardWritesIt() {
    let sources = VideoSources(catalogFolder: "/nowhere", assets: "/assets", bearer: nil)
    #expect(sources.locate("file:///tmp/with%20space.mp4")?.source == "/tmp/with space.mp4")
    #expect(sources.locate("file:///tmp/caf%C3%A9.mp4")?.source == "/tmp/café.mp4")
    #expect(sources.locate("file://localhost/tmp/a.mp4")?.source == "/tmp/a.mp4")
    #expect(sources.locate("FILE://LocalHost/tmp/a.mp4")?.source == "/tmp/a.mp4")
    #expect(sources.locate("file:/tmp/a.mp4")?.source == "/tmp/a.mp4")
    #expect(sources.locate("file:///tmp/100%.mp4")?.source == "/tmp/100%.mp4")
    #expect(sources.locate("file:///tmp/with space.mp4")?.source == "/tmp/with space.mp4")
    // Each escape on its own: a stray `%` keeps the others decoded.
    #expect(sources.locate("file:///tmp/a%20b%.mp4")?.source == "/tmp/a b%.mp4")
    // A NUL would end the path early where C reads it (another file): never decoded.
    #expect(sources.locate("file:///tmp/a%20b.mp4%00.txt")?.source == "/tmp/a b.mp4%00.txt")
  }
}
