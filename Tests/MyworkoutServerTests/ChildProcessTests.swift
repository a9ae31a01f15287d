import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The tests' own child processes: a child is signalled only until it is reaped. Once reaped
/// its pid is free, and the kernel gives it to the next process when pids wrap (at 32,768
/// here, often within one test run): a `defer` that signalled a server its test had already
/// killed and reaped could end another test's process (found while looking for why a clean-up
/// shell of `ExitWatchTests` ended in CI; that was a wait without a last look).
@Suite struct ChildProcessTests {
  /// Signalled and waited for again after it was reaped, as the tests' `defer`s do after a
  /// kill and a wait in the test's body: the stranger now under its pid gets no signal, and
  /// the wait answers at once (it waited for the stranger's end, a minute and a half here).
  @Test(
    .enabled(
      if: PIDReuse.isPossible, "choosing a pid needs /proc/sys/kernel/ns_last_pid writable (root)"),
    .timeLimit(.minutes(1)))
  func aReapedChildIsNeverSignalledAgain() throws {
    let ended = try ChildProcess.spawn(["/bin/true"])
    #expect(ended.waitBlocking() == .exited(0))
    let stranger = try #require(
      try PIDReuse.spawn(["/bin/sleep", "90"], as: ended.pid), "a process under the freed pid")
    defer {
      stranger.send(SIGKILL)
      _ = stranger.waitBlocking()
    }
    ended.send(SIGTERM)
    #expect(ended.waitBlocking() == .exited(0), "asked again, it answers how the child ended")
    // The first fatal signal to arrive is the one the stranger dies of.
    stranger.send(SIGKILL)
    #expect(stranger.waitBlocking() == .signaled(SIGKILL), "the stranger got only its own signal")
  }
}

/// Waiting for an answer with a deadline, as the tests that watch processes and files do.
@Suite struct EventuallyTests {
  /// The pool's threads held by blocking tests: the waiting task wakes after its deadline, by
  /// when the answer is there (CI: `ExitWatchTests` gave up without a last look).
  @Test func anAnswerThatCameWhileTheWaiterWasHeldIsSeen() async throws {
    var asked = 0
    let answer = try await eventually(within: .milliseconds(20)) { () -> String? in
      asked += 1
      guard asked > 1 else {
        usleep(60_000)  // held past the deadline
        return nil
      }
      return "there"
    }
    #expect(answer == "there")
    #expect(asked == 2)
  }

  @Test func noAnswerIsNilAfterTheDeadline() async throws {
    let started = ContinuousClock.now
    let answer = try await eventually(within: .milliseconds(30)) { () -> Int? in nil }
    #expect(answer == nil)
    #expect(ContinuousClock.now - started >= .milliseconds(30))
  }
}
