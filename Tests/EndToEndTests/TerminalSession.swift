import Foundation
import TestProcesses
import Testing

/// Runs the real `myworkout` binary in a real terminal (a tmux pane of a private tmux server),
/// types into it with `send-keys` and reads the screen with `capture-pane`, as a person would.
final class TerminalSession {
  let dataDirectory: URL
  /// The tmux server's socket name; each start of the pane gets a new server (see `startTmux`).
  private var socket: String
  private let workspace: URL
  private static let session = "app"

  /// The built binary: beside the test bundle (same build folder), or `MYWORKOUT_BINARY`.
  static var binary: String {
    ProcessInfo.processInfo.environment["MYWORKOUT_BINARY"] ?? BuiltProduct.path("myworkout")
      ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/myworkout").path
  }

  /// A fresh data directory and tmux server; `launch` starts the app in it.
  init(dataDirectory: URL? = nil) throws {
    workspace = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("myworkout-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    self.dataDirectory = dataDirectory ?? workspace.appendingPathComponent("data")
    socket = "mw-\(UUID().uuidString.prefix(8))"
    let config = workspace.appendingPathComponent("tmux.conf")
    try """
    set -g remain-on-exit on
    set -g default-terminal "tmux-256color"
    set -g escape-time 0
    set -g status off
    """.write(to: config, atomically: true, encoding: .utf8)
    self.config = config.path
  }

  private let config: String

  deinit {
    _ = try? tmux(["kill-server"])
    try? FileManager.default.removeItem(at: workspace)
  }

  /// Starts the app (again, after it quit) in a window of the given size.
  func launch(
    _ arguments: [String] = [], width: Int = 80, height: Int = 24,
    environment: [String: String] = [:]
  ) throws {
    var env = [
      "MYWORKOUT_DATA_DIR": dataDirectory.path, "HOME": workspace.path, "LANG": "C.UTF-8",
      "LC_ALL": "C.UTF-8",
    ]
    env.merge(environment) { $1 }
    let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }
    // A small shell runs the app and writes its exit status to a file when it ends. It traps
    // (not ignores) the signals a terminal sends, so it outlives the app to write the status and
    // the app still starts with their default actions.
    try? FileManager.default.removeItem(at: statusFile)
    let script = "trap : INT TERM HUP; \"$@\"; echo $? > " + Self.quote(statusFile.path)
    let command =
      "exec env " + assignments.joined(separator: " ") + " sh -c " + Self.quote(script) + " sh "
      + ([Self.binary] + arguments).map(Self.quote).joined(separator: " ")
    try startTmux(width: width, height: height, command: command)
  }

  /// Starts a shell (bash, no start-up files) in the pane instead of the app, with the same
  /// environment, so a test can run the app from a prompt and look at the terminal afterwards.
  func launchShell(width: Int = 80, height: Int = 24, environment: [String: String] = [:]) throws {
    var env = [
      "MYWORKOUT_DATA_DIR": dataDirectory.path, "HOME": workspace.path, "LANG": "C.UTF-8",
      "LC_ALL": "C.UTF-8", "PS1": "$ ", "APP": Self.binary,
    ]
    env.merge(environment) { $1 }
    let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }
    let command = "exec env " + assignments.joined(separator: " ") + " bash --norc --noprofile"
    try startTmux(width: width, height: height, command: command)
  }

  /// Starts the pane. Its output is not captured: the tmux server this may start inherits the
  /// client's standard output, and a pipe held open by it would never reach end of file.
  private func startTmux(width: Int, height: Int, command: String) throws {
    // A new server on a new socket: killing the old session ends its server, and a client that
    // reached that socket while the server was still exiting got "server exited unexpectedly"
    // and a pane that never started (seen on a loaded machine).
    _ = try? tmux(["kill-server"])
    socket = "mw-\(UUID().uuidString.prefix(8))"
    try tmux(
      [
        // The pane starts in the test's own workspace, so files its shell writes (`stty -g >
        // before`) never land in the repository.
        "-f", config, "new-session", "-d", "-s", Self.session, "-c", workspace.path, "-x",
        "\(width)", "-y", "\(height)", command,
      ], captureOutput: false)
  }

  /// The process id of the app started from the shell (a child of the pane's process).
  func childPID() throws -> Int32? {
    try childPID(of: try pid())
  }

  /// A child of process `parent` (the first found).
  func childPID(of parent: Int32) throws -> Int32? {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.lazy.compactMap { Int32($0) }.first { ProcessStat.parent(of: $0) == parent }
  }

  /// Whether the pane shows the normal screen with a visible cursor and no mouse reporting (as
  /// a shell expects).
  func terminalLooksRestored() throws -> Bool {
    let flags = try tmux([
      "display-message", "-p", "-t", Self.session,
      "#{alternate_on} #{cursor_flag} #{mouse_any_flag}",
    ]).trimmingCharacters(in: .whitespacesAndNewlines)
    return flags == "0 1 0"
  }

  /// Whether the program in the pane asked the terminal to report the mouse.
  func mouseReporting() throws -> Bool {
    try tmux(["display-message", "-p", "-t", Self.session, "#{mouse_any_flag}"])
      .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
  }

  /// A click of the first mouse button at a cell (from 0): the press and the release, each in
  /// its own write, as an xterm reports them in the SGR encoding the app asks for.
  func click(row: Int, column: Int) throws {
    try mouse("\u{1B}[<0;\(column + 1);\(row + 1)M")
    try mouse("\u{1B}[<0;\(column + 1);\(row + 1)m")
  }

  /// The mouse wheel turned down (away from the person) over a cell.
  func wheelDown(row: Int, column: Int) throws {
    try mouse("\u{1B}[<65;\(column + 1);\(row + 1)M")
  }

  private func mouse(_ report: String) throws {
    let bytes = Array(report.utf8).map { String($0, radix: 16) }
    try tmux(["send-keys", "-t", Self.session, "-H"] + bytes)
  }

  /// Where the terminal's cursor stands (row and column, from 0).
  func cursor() throws -> (row: Int, column: Int) {
    let text = try tmux(["display-message", "-p", "-t", Self.session, "#{cursor_y} #{cursor_x}"])
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
    return (parts.first ?? -1, parts.last ?? -1)
  }

  /// The screen with its colours and attributes as escape sequences.
  func screenWithAttributes() throws -> String {
    try tmux(["capture-pane", "-p", "-e", "-t", Self.session])
  }

  /// The same with the spaces at the ends of lines kept (a picture's last cells are spaces on
  /// a background colour).
  func screenWithColours() throws -> String {
    try tmux(["capture-pane", "-p", "-e", "-N", "-t", Self.session])
  }

  /// Types text literally.
  func type(_ text: String) throws { try tmux(["send-keys", "-t", Self.session, "-l", text]) }

  /// Sends raw bytes to the terminal, as a terminal sends a key's escape sequence.
  func send(bytes: [UInt8]) throws {
    let hex = bytes.map { String($0, radix: 16) }
    try tmux(["send-keys", "-t", Self.session, "-H"] + hex)
  }

  /// Presses named keys (`Enter`, `Tab`, `BTab`, `Escape`, `Up`, `C-c`, ...).
  func press(_ keys: String...) throws {
    for key in keys { try tmux(["send-keys", "-t", Self.session, key]) }
  }

  /// Sends `keys` in one `send-keys`: they reach the app in one burst, as fast typing does.
  func pressAtOnce(_ keys: [String]) throws {
    try tmux(["send-keys", "-t", Self.session] + keys)
  }

  /// Pastes text the way a terminal does with bracketed paste on.
  func paste(_ text: String) throws {
    let buffer = workspace.appendingPathComponent("paste.txt")
    try text.write(to: buffer, atomically: true, encoding: .utf8)
    try tmux(["load-buffer", "-b", "p", buffer.path])
    try tmux(["paste-buffer", "-p", "-b", "p", "-t", Self.session])
  }

  func resize(width: Int, height: Int) throws {
    try tmux(["resize-window", "-t", Self.session, "-x", "\(width)", "-y", "\(height)"])
  }

  /// What the screen shows now.
  func screen() throws -> String {
    try tmux(["capture-pane", "-p", "-t", Self.session])
  }

  /// The app's process id (the pane runs it directly).
  func pid() throws -> Int32 {
    Int32(
      try tmux(["display-message", "-p", "-t", Self.session, "#{pane_pid}"])
        .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  private var statusFile: URL { workspace.appendingPathComponent("exit-status") }

  /// The exit status once the app launched by `launch` has exited, else nil.
  func exitStatus() throws -> Int32? {
    guard let text = try? String(contentsOf: statusFile, encoding: .utf8), text.hasSuffix("\n")
    else { return nil }
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Waits until the screen shows the text (polling the real terminal), failing with the
  /// screen's contents when it does not within the time limit.
  @discardableResult
  func waitFor(
    _ text: String, timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    try waitUntil(timeout: timeout, sourceLocation: sourceLocation, "'\(text)' on screen") {
      $0.contains(text)
    }
  }

  @discardableResult
  func waitUntil(
    timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation, _ what: String,
    _ condition: (String) -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while Date() < deadline {
      last = try screen()
      if condition(last) {
        // A capture can land between the writes that draw one frame: return only a screen
        // that two captures in a row agree on (and that still meets the condition).
        Thread.sleep(forTimeInterval: 0.02)
        let again = try screen()
        if again == last { return last }
        continue
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
    Issue.record("Timed out waiting for \(what). Screen:\n\(last)", sourceLocation: sourceLocation)
    throw TimedOut()
  }

  /// Waits for the app to exit and returns its status.
  func waitForExit(timeout: Double = 10) throws -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let status = try exitStatus() { return status }
      Thread.sleep(forTimeInterval: 0.02)
    }
    Issue.record("The app did not exit. Screen:\n\(try screen())")
    throw TimedOut()
  }

  struct TimedOut: Error {}

  @discardableResult
  private func tmux(_ arguments: [String], captureOutput: Bool = true) throws -> String {
    var environment = ProcessInfo.processInfo.environment
    environment["LANG"] = "C.UTF-8"
    environment["LC_ALL"] = "C.UTF-8"
    // Tests set these themselves where they matter; the runner's own values must not leak in.
    for name in ["TMUX", "NO_COLOR", "MYWORKOUT_DATA_DIR", "XDG_DATA_HOME"] {
      environment.removeValue(forKey: name)
    }
    let command = ["tmux", "-u", "-L", socket] + arguments
    guard captureOutput else {
      _ = try ChildProcess.spawn(command, environment: environment, searchPath: true)
        .waitBlocking()
      return ""
    }
    return try ChildProcess.run(command, environment: environment, searchPath: true)
  }

  static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
