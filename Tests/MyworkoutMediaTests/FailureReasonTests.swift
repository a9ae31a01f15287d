import MyworkoutMedia
import Testing

/// What the state line says after `No video: ` for FFmpeg's words, on a file and over the
/// network (a hostile walk-through saw `End of file` and `Is a directory` there).
@Suite struct FailureReasonTests {
  @Test(arguments: [
    ("No such file or directory", false, "file not found"),
    ("Is a directory", false, "not a file"),
    ("Server returned 404 Not Found", true, "not found (404)"),
    ("Server returned 5XX Server Error reply", true, "the server had a problem (5xx)"),
    ("Connection refused", true, "no connection"),
    // A server that took the connection and then sent nothing (stopped, hung): it is there.
    ("Connection timed out", true, "the server did not answer"),
    ("Input/output error", true, "no connection"),
    ("End of file", true, "no connection"),
    ("End of file", false, "not a video this player can read"),
    ("Input/output error", false, "Input/output error"),
    ("", false, "cannot be played"),
  ])
  func ffmpegsWordsAsTheStateLineSaysThem(words: String, networked: Bool, text: String) {
    #expect(FailureReason.text(for: words, networked: networked) == text)
  }

  @Test func onlyURLsOtherThanFilesAreNetworked() {
    #expect(FailureReason.isNetworked("http://127.0.0.1:8080/videos/bounce.mp4"))
    #expect(FailureReason.isNetworked("https://example.com/a.mp4"))
    #expect(!FailureReason.isNetworked("/home/ada/Assets/videos/bounce.mp4"))
    #expect(!FailureReason.isNetworked("file:/tmp/a.mp4"))
    #expect(!FailureReason.isNetworked("C:clip.mp4"))
    #expect(!FailureReason.isNetworked("clips/a:b.mp4"))
  }
}
