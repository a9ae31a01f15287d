import Foundation
import Testing

/// Runs the real `myworkout` binary in a real terminal (a tmux pane of a private tmux server),
/// types into it with `send-keys` and reads the screen with `capture-pane`, as a person would.
final class TerminalSession {
  let dataDirectory: URL
  private let socket: String
  private let workspace: URL
  private static let session = "app"

  /// The built binary: beside the test bundle (same build folder), or `MYWORKOUT_BINARY`.
  static var binary: String {
    if let path = ProcessInfo.processInfo.environment["MYWORKOUT_BINARY"] { return path }
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while folder.path != "/" {
      let candidate = folder.appendingPathComponent("myworkout")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
      folder = folder.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
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
    let command =
      "exec env " + assignments.joined(separator: " ") + " "
      + ([Self.binary] + arguments).map(Self.quote).joined(separator: " ")
    _ = try? tmux(["kill-session", "-t", Self.session])
    try tmux([
      "-f", config, "new-session", "-d", "-s", Self.session, "-x", "\(width)", "-y", "\(height)",
      command,
    ])
  }

  /// Types text literally.
  func type(_ text: String) throws { try tmux(["send-keys", "-t", Self.session, "-l", text]) }

  /// Presses named keys (`Enter`, `Tab`, `BTab`, `Escape`, `Up`, `C-c`, ...).
  func press(_ keys: String...) throws {
    for key in keys { try tmux(["send-keys", "-t", Self.session, key]) }
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
    Int32(try tmux(["display-message", "-p", "-t", Self.session, "#{pane_pid}"])
      .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  /// The exit status once the app has exited, else nil.
  func exitStatus() throws -> Int32? {
    let text = try tmux([
      "display-message", "-p", "-t", Self.session, "#{pane_dead} #{pane_dead_status}",
    ]).trimmingCharacters(in: .whitespacesAndNewlines)
    let parts = text.split(separator: " ")
    guard parts.first == "1", parts.count == 2 else { return nil }
    return Int32(parts[1])
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
      if condition(last) { return last }
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
  private func tmux(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "-L", socket] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
