import Foundation

/// What `/proc/PID/stat` says of a process: the fields after its name (which may hold spaces
/// and parentheses, so it is skipped to its last `)`).
public enum ProcessStat {
  /// The fields from the state on (`state`, `ppid`, `pgrp`, …), or nil when no such process is.
  public static func fields(of pid: Int32) -> [Substring]? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].split(separator: " ")
  }

  /// The state letter of process `pid` (`T`: stopped, `Z`: ended and not yet reaped).
  public static func state(of pid: Int32) -> Character? {
    fields(of: pid)?.first?.first
  }

  /// The parent of process `pid`.
  public static func parent(of pid: Int32) -> Int32? {
    fields(of: pid).flatMap { $0.count > 1 ? Int32($0[1]) : nil }
  }
}
