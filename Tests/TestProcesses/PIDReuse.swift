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

  /// Whether the next pid can be chosen here: root (the file is writable by all, but the
  /// kernel refuses others' writes) and the file there to write.
  public static let isPossible: Bool = {
    guard geteuid() == 0 else { return false }
    let fd = open(lastPID, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    close(fd)
    return true
  }()

  /// `arguments` started as process `pid` (which must have ended and been reaped), or nil when
  /// other processes took that pid first every time.
  public static func spawn(_ arguments: [String], as pid: pid_t) throws -> ChildProcess? {
    // The pid cursor is the whole machine's: put back where it stood, so that other tests'
    // processes do not get recently freed pids meanwhile.
    let saved = last()
    defer {
      if let saved, let now = last(), saved > now { _ = write(saved) }
    }
    for _ in 0..<100 {
      guard write(pid - 1) else { return nil }
      let child = try ChildProcess.spawn(arguments)
      if child.pid == pid { return child }
      child.send(SIGKILL)
      _ = child.waitBlocking()
    }
    return nil
  }

  /// The last pid handed out.
  private static func last() -> pid_t? {
    (try? String(contentsOfFile: lastPID, encoding: .utf8))
      .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  /// Sets the last pid handed out.
  private static func write(_ last: pid_t) -> Bool {
    let fd = open(lastPID, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let text = Array("\(last)".utf8)
    return Glibc.write(fd, text, text.count) == text.count
  }
}
