import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A child started by a test holds only its standard streams, never a descriptor some other
/// test has open at that moment.
///
/// Foundation's `Process` learns that its child ended when a socket it gave the child reaches
/// end of file, and it makes that socket inheritable. A program spawned at the same moment by
/// another test (the stalling stream's server, a player process) that kept it would hold that
/// end open for as long as it lives, and `waitUntilExit()` would wait as long: that is how CI
/// once hung for 90 minutes, a clip's `ffmpeg` done and never seen to end, the clip maker's lock
/// held, and the 2-thread pool starved behind it.
@Suite struct InheritedDescriptorTests {
  /// A connected pair made inheritable, as Foundation's `Process` makes it; `true` when the
  /// first end reaches end of file within a second of this process closing the second, i.e.
  /// when no child kept a copy of it.
  static func nobodyElseHolds(_ spawn: () throws -> Void) throws -> Bool {
    var pair: [Int32] = [-1, -1]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    defer { close(pair[0]) }
    try spawn()
    close(pair[1])
    var request = pollfd(fd: pair[0], events: Int16(POLLIN), revents: 0)
    guard poll(&request, 1, 1_000) == 1 else { return false }
    var byte: UInt8 = 0
    return read(pair[0], &byte, 1) == 0
  }

  @Test func aChildProcessKeepsNoneOfTheTestsDescriptors() throws {
    var child: ChildProcess?
    defer {
      child?.send(SIGKILL)
      _ = child?.waitBlocking()
    }
    #expect(
      try Self.nobodyElseHolds {
        child = try ChildProcess.spawn(["/bin/sleep", "30"], standardOutput: .pipe)
      })
  }

  @Test func aPlayerProcessKeepsNoneOfTheTestsDescriptors() throws {
    var player: MediaProcess?
    defer { player = nil }
    #expect(try Self.nobodyElseHolds { player = try MediaProcess() })
    #expect(player?.isRunning == true)
  }
}
