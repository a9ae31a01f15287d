import CSpawn
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Clean-up that runs when this test process ends, however it ends. An `atexit` handler does
/// not run when a test crashes or is killed, and the PostgreSQL clusters and PulseAudio
/// daemons the tests start then ran on for good (three were found after one crashed run). A
/// shell started here waits for the end of a pipe whose other end only this process holds: the
/// kernel closes it when the process ends, by exit or by signal, and the shell then runs the
/// script. It runs in a session of its own (`setsid`), so a Ctrl-C that ends the tests (the
/// terminal signals its foreground process group) does not end it first.
public enum ExitWatch {
  /// The write ends, held open until the process ends (never closed by the tests).
  private static let held = Mutex<[Int32]>([])

  /// Runs `script` with `sh` (its arguments `$1`, `$2`, … from `arguments`) once this process
  /// has ended.
  public static func atEnd(
    _ script: String, arguments: [String] = [], environment: [String: String]? = nil
  ) throws {
    let watch = try watch(script, arguments: arguments, environment: environment)
    held.withLock { $0.append(watch.end) }
  }

  /// Starts the watch: the shell's process, and the end whose closing runs `script` (`atEnd`
  /// holds it until this process ends; a test closes it itself to stand for that).
  public static func watch(
    _ script: String, arguments: [String] = [], environment: [String: String]? = nil
  ) throws -> (shell: pid_t, end: Int32) {
    var ends: [Int32] = [-1, -1]
    // Close-on-exec from the start, so that no other child (another test's, started in the same
    // moment) holds the write end open after this process ends.
    guard pipe2(&ends, O_CLOEXEC) == 0 else {
      throw ChildProcess.Failed(description: "pipe failed")
    }
    defer { close(ends[0]) }
    do {
      let shell = try ChildProcess.spawn(
        ["/usr/bin/setsid", "/bin/sh", "-c", "cat >/dev/null; " + script, "sh"] + arguments,
        environment: environment, standardInput: ends[0])
      return (shell.pid, ends[1])
    } catch {
      close(ends[1])
      throw error
    }
  }
}
