#if canImport(Glibc)
  import Glibc
#endif

/// FFmpeg's words (its `av_strerror` texts) for why a source cannot be played, as the Player's
/// state line says them after `No video: ` (SPEC §19). Over the network, what only a lost
/// connection produces there (an input error, an end before the headers) is `no connection`;
/// a local file's own errors keep their meaning.
package enum FailureReason {
  package static func text(for words: String, networked: Bool) -> String {
    switch words {
    case "No such file or directory": "file not found"
    case "Is a directory": "not a file"
    case "Permission denied": "not allowed (permission denied)"
    case "Server returned 401 Unauthorized (authorization failed)": "not allowed (401)"
    case "Server returned 403 Forbidden (access denied)": "not allowed (403)"
    case "Server returned 404 Not Found": "not found (404)"
    case "Server returned 5XX Server Error reply": "the server had a problem (5xx)"
    case "Server returned 4XX Client Error, but not one of 40{0,1,3,4}":
      "refused by the server (4xx)"
    case "Server returned 400 Bad Request": "refused by the server (400)"
    case "Connection refused", "Network is unreachable", "Connection reset by peer",
      "Broken pipe", "Immediate exit requested":
      "no connection"
    // FFmpeg's read timeout: a server that took the connection and sent nothing since.
    case "Connection timed out": "the server did not answer"
    // (A `where` binds to the last pattern only: one case each.)
    case "Input/output error" where networked: "no connection"
    case "End of file" where networked: "no connection"
    case "End of file", "Invalid data found when processing input":
      "not a video this player can read"
    default: words.isEmpty ? "cannot be played" : words
    }
  }

  /// Why a local `source` cannot be opened before FFmpeg tries: `not a file` for what is there
  /// but is not a regular file (a FIFO's open would wait for a writer for ever, a device's read
  /// would never end); nil for a regular file, a missing one (FFmpeg says so) and the network.
  package static func localProblem(_ source: String) -> String? {
    guard !isNetworked(source) else { return nil }
    // FFmpeg's file protocol takes `file:` off and opens the rest.
    let path = source.hasPrefix("file:") ? String(source.dropFirst(5)) : source
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT == S_IFREG ? nil : "not a file"
  }

  /// Whether `source` is read over the network (FFmpeg's protocols other than files).
  package static func isNetworked(_ source: String) -> Bool {
    guard let colon = source.firstIndex(of: ":") else { return false }
    let scheme = source[..<colon].lowercased()
    return scheme != "file" && scheme.count > 1 && scheme.allSatisfy(\.isLetter)
  }
}
