import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The clean-up that stops the tests' PostgreSQL clusters and PulseAudio daemons when a test
/// process crashes: its script runs once the watched end closes (as the kernel closes it when
/// the process ends), and not before, and in a session of its own, which the terminal's Ctrl-C
/// does not reach.
@Suite struct ExitWatchTests {
  @Test func theScriptRunsWhenTheEndClosesInASessionOfItsOwn() async throws {
    let folder = NSTemporaryDirectory() + "exit-watch-\(getpid())-\(UInt32.random(in: 0...9999))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/ran"
    let watch = try ExitWatch.watch(#"printf '%s' "$1" > "$2""#, arguments: ["gone", file])
    // Its own session once `setsid` has run.
    let started = ContinuousClock.now + .seconds(10)
    while getsid(watch.shell) != watch.shell, ContinuousClock.now < started {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(getsid(watch.shell) == watch.shell)
    #expect(!FileManager.default.fileExists(atPath: file), "ran before the end closed")
    close(watch.end)
    let deadline = ContinuousClock.now + .seconds(10)
    var text: String?
    while text != "gone", ContinuousClock.now < deadline {
      text = try? String(contentsOfFile: file, encoding: .utf8)
      try await Task.sleep(for: .milliseconds(10))
    }
    let state = (try? String(contentsOfFile: "/proc/\(watch.shell)/status", encoding: .utf8))?
      .split(separator: "\n").first { $0.hasPrefix("State:") }
    #expect(text == "gone", "the shell: \(state.map(String.init) ?? "gone")")
    var status: Int32 = 0
    waitpid(watch.shell, &status, 0)
  }
}
