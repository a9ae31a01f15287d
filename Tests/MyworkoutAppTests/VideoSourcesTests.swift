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
}
