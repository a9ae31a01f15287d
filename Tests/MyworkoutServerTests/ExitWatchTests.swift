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
    let text = try await eventually(within: .seconds(10)) {
      (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { $0 == "gone" ? $0 : nil }
    }
    var status: Int32 = 0
    let ended = waitpid(watch.shell, &status, text == nil ? WNOHANG : 0) == watch.shell
    #expect(text == "gone", "the shell: \(ended ? "\(Termination(status: status))" : "running")")
  }
}
