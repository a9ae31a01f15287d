import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Starts a program under a pid chosen by the test: the pid of a process that has ended, as
/// the kernel hands it out again once pids wrap (at 32,768 on this machine, often within a
/// test run). So a test can show that a signal meant for the ended process does not reach the
/// one that now has its pid. Needs `/proc/sys/kernel/ns_last_pid` writable (root).
public enum PIDReuse {
  private static let lastPID = "/proc/sys/kernel/ns_last_pid"

  /// Whether the next pid can be chosen here.
  public static let isPossible: Bool = {
    let fd = open(lastPID, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    close(fd)
    return true
  }()

  /// `arguments` started as process `pid` (which must have ended and been reaped), or nil when
  /// other processes took that pid first every time.
  public static func spawn(_ arguments: [String], as pid: pid_t) throws -> ChildProcess? {
    for _ in 0..<100 {
      let fd = open(lastPID, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { return nil }
      let text = Array("\(pid - 1)".utf8)
      let written = write(fd, text, text.count)
      close(fd)
      guard written == text.count else { return nil }
      let child = try ChildProcess.spawn(arguments)
      if child.pid == pid { return child }
      child.send(SIGKILL)
      _ = child.waitBlocking()
    }
    return nil
  }
}
