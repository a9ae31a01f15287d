import CSpawn
import Foundation
import MyworkoutMedia
import Synchronization
import TestProcesses
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `myworkout-media` (as built beside the tests) with its standard input and output in pipes.
///
/// A thread of its own starts the player and then reads its events as they come, as the app's
/// VideoHost does, keeping them until a test asks. So what a test sees never depends on when
/// the test got to run: with two cores Swift's test pool has two threads, the end-to-end suite
/// holds one for its whole run, and a test waiting its turn for a minute (CI's first, loaded
/// minute) could leave the player's pipe full, the player then waiting to write and reading
/// nothing from the network, and find its own deadlines passed with the events already there.
/// Every wait is an `await`, done off that pool.
final class MediaProcess {
  let pid: pid_t
  private let input: Int32
  /// Closed to stop the reading thread (which then sees its other end hang up).
  private let stop: Int32
  private let events: EventQueue

  init(muted: Bool = true, environment: [String: String] = [:]) throws {
    let executable = try #require(
      BuiltProduct.path("myworkout-media"), "myworkout-media is built with the tests")
    var toChild: [Int32] = [-1, -1]
    var fromChild: [Int32] = [-1, -1]
    var stopping: [Int32] = [-1, -1]
    try #require(pipe(&toChild) == 0 && pipe(&fromChild) == 0 && pipe(&stopping) == 0)
    // Close-on-exec (pipe2 is not imported), so that children other tests start later do not
    // hold them open; dup2 gives this child its own inheritable copies.
    (toChild + fromChild + stopping).forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
    let arguments = [executable] + (muted ? ["--mute"] : [])
    var variables = ProcessInfo.processInfo.environment
    variables.merge(environment) { $1 }
    let launch = Launch(
      arguments: arguments, environment: variables, input: toChild[0], output: fromChild[1])
    events = EventQueue()
    // Spawned on the thread that reads it, which lives as long as the player does: the player
    // dies with the *thread* that started it (PR_SET_PDEATHSIG), and a thread of the test pool
    // ends after a few idle seconds (a paused player was killed so, 5 s after its first frame).
    let (queue, output, stopped) = (events, fromChild[0], stopping[0])
    let started = DispatchSemaphore(value: 0)
    let spawned = Mutex<Result<pid_t, POSIXError>?>(nil)
    Thread.detachNewThread {
      let result = launch.spawn()
      spawned.withLock { $0 = result }
      started.signal()
      guard case .success = result else { return }
      queue.read(from: output, until: stopped)
    }
    started.wait()
    close(toChild[0])
    close(fromChild[1])
    let result = spawned.withLock { $0 }
    guard case .success(let child) = result else {
      [toChild[1], fromChild[0], stopping[0], stopping[1]].forEach { close($0) }
      if case .failure(let error) = result { throw error }
      throw POSIXError(.EIO)
    }
    pid = child
    input = toChild[1]
    stop = stopping[1]
  }

  deinit {
    close(input)
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    close(stop)
  }

  /// Whether the player has not ended. Asked without reaping it (a zombie is "Z" in its
  /// `stat`): `deinit`'s SIGKILL must reach this pid only while it is still the player's, as
  /// pids wrap at 32,768 here and a reaped one soon names another test's process.
  var isRunning: Bool {
    ProcessStat.state(of: pid).map { $0 != "Z" } ?? false
  }

  func send(_ command: MediaCommand) {
    let line = Array((command.line + "\n").utf8)
    _ = line.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
  }

  /// The next event that `matches` (others are passed over), waiting at most `limit`; events
  /// that came before the deadline are answered even when the test asks after it. The waiting is
  /// done on a thread of its own, never on one of the few threads Swift's concurrency runs every
  /// test's tasks on (tests that waited seconds in `poll` there held up the outbox's tests, which
  /// wait for their own tasks, until those gave up: CI failed so, twice).
  func awaitNext(
    within limit: Duration = .seconds(20), _ matches: (MediaEvent) -> Bool
  ) async -> MediaEvent? {
    let deadline = ContinuousClock.now + limit
    while let event = await anyEvent(until: deadline) {
      if matches(event) { return event }
    }
    return nil
  }

  func awaitFrame(within limit: Duration = .seconds(20)) async -> MediaFrame? {
    guard
      case .frame(let frame) = await awaitNext(
        within: limit, { if case .frame = $0 { true } else { false } })
    else { return nil }
    return frame
  }

  /// The last picture of a run of them (a burst of steps, which the player may answer between
  /// its keys): the first within 20 s, then each that follows within `quiet`.
  func awaitLastFrame(quiet: Duration = .milliseconds(400)) async -> MediaFrame? {
    guard var last = await awaitFrame() else { return nil }
    while let later = await awaitFrame(within: quiet) { last = later }
    return last
  }

  /// The end of play, `.ended` or `.failed`, within 20 s; each event before it goes to `seen`.
  func awaitEnd(_ seen: (MediaEvent) -> Void = { _ in }) async -> MediaEvent? {
    await awaitNext(within: .seconds(20)) {
      seen($0)
      switch $0 {
      case .ended, .failed: return true
      default: return false
      }
    }
  }

  /// A player (muted unless told) that opened `source` at `width`x`height` and showed its first
  /// picture.
  static func opened(
    _ source: String, width: Int = 32, height: Int = 18, muted: Bool = true,
    environment: [String: String] = [:]
  ) async throws -> MediaProcess {
    let player = try MediaProcess(muted: muted, environment: environment)
    player.send(.size(width: width, height: height))
    player.send(.open(source: source, timeoutMilliseconds: 5_000))
    _ = try #require(await player.awaitFrame(), "the first picture of \(source)")
    return player
  }

  /// The next event: at once when one has come, else waited for on a thread of its own.
  private func anyEvent(until deadline: ContinuousClock.Instant) async -> MediaEvent? {
    if let event = events.next(until: .now) { return event }
    guard deadline > .now else { return nil }
    let queue = events
    return await withCheckedContinuation { done in
      Thread.detachNewThread { done.resume(returning: queue.next(until: deadline)) }
    }
  }
}

/// The player's events as its reading thread parses them, for the tests to take in order.
private final class EventQueue: @unchecked Sendable {
  private let condition = NSCondition()
  private var events: [MediaEvent] = []
  private var ended = false

  /// Reads `output` until its end or until the other end of `stop` is closed; then closes both.
  func read(from output: Int32, until stop: Int32) {
    var reader = MediaEventReader()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      var ready = [
        pollfd(fd: output, events: Int16(POLLIN), revents: 0),
        pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
      ]
      if poll(&ready, 2, -1) < 0 {
        if errno == EINTR { continue }
        break
      }
      if ready[1].revents != 0 { break }
      let count = Glibc.read(output, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      let parsed = reader.append(buffer[0..<count])
      condition.lock()
      events += parsed
      condition.broadcast()
      condition.unlock()
    }
    condition.lock()
    ended = true
    condition.broadcast()
    condition.unlock()
    close(output)
    close(stop)
  }

  /// The first event not yet taken, waiting until `deadline`; nil when none came by then or the
  /// player's output ended.
  func next(until deadline: ContinuousClock.Instant) -> MediaEvent? {
    condition.lock()
    defer { condition.unlock() }
    while events.isEmpty {
      if ended { return nil }
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return nil }
      let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
      _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
    }
    return events.removeFirst()
  }
}

/// What starts the player: its arguments, environment and the pipe ends it gets as its
/// standard input and output.
private struct Launch: Sendable {
  let arguments: [String]
  let environment: [String: String]
  let input: Int32
  let output: Int32

  func spawn() -> Result<pid_t, POSIXError> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    // Nothing else the tests have open reaches the player (see InheritedDescriptorTests).
    posix_spawn_file_actions_addclosefrom_np(&actions, 3)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let status = posix_spawn(&child, arguments[0], &actions, nil, argv, envp)
    guard status == 0 else { return .failure(POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)) }
    return .success(child)
  }
}
