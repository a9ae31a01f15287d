import Foundation
import Testing

extension TerminalSession {
  /// Starts a shell in the pane and runs the app from its prompt with `arguments` (already
  /// quoted for the shell), recording the terminal modes before and after: when the app ends,
  /// the screen shows `status=<exit status>` and, if the modes came back as they were,
  /// `modes-restored`. It runs in the session's own folder with core dumps off, so it leaves no
  /// file behind elsewhere.
  func launchInShell(
    _ arguments: String = "", width: Int = 80, height: Int = 24,
    environment: [String: String] = [:], waitingFor text: String
  ) throws {
    try launchShell(width: width, height: height, environment: environment)
    try waitFor("$")
    try type(
      "cd \"$HOME\"; ulimit -c 0; stty -g > before; \"$APP\" \(arguments); echo \"status=$?\"; "
        + "stty -g > after; cmp -s before after && echo modes-re\"\"stored")
    try press("Enter")
    try waitFor(text)
  }
}

extension TerminalSession {
  /// After `launchInShell`: waits until the app has ended and the shell printed its status;
  /// returns the status and the screen.
  func waitForShellStatus(sourceLocation: SourceLocation = #_sourceLocation) throws
    -> (status: Int32, screen: String)
  {
    var status: Int32?
    let screen = try waitUntil(sourceLocation: sourceLocation, "the shell printing the status") {
      screen in
      let line = screen.split(separator: "\n").first { $0.hasPrefix("status=") }
      status = line.flatMap { Int32($0.dropFirst("status=".count)) }
      return status != nil
    }
    return (status ?? -1, screen)
  }
}
