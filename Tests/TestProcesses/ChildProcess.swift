import CSpawn
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// How a child process ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
  case exited(Int32)
  case signaled(Int32)

  /// Decodes a `waitpid` status (the C macros are not imported into Swift).
  public init(status: Int32) {
    let signal = status & 0x7f
    self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  }

  public var description: String {
    switch self {
    case .exited(let code): "exit status \(code)"
    case .signaled(let signal): "killed by signal \(signal)"
    }
  }
}

/// A program started with `posix_spawn` and reaped with `waitpid`, for tests that run real
/// processes: Foundation's `Process` can miss a child's exit on Linux when several tests spawn at
/// once. Standard input is /dev/null unless told.
///
/// A child is reaped once, and signalled only until then: pids wrap at `pid_max` (32,768 on
/// this machine, and a test run starts tens of thousands of processes), so a signal sent to a
/// reaped child's pid can end another test's process (as a `defer` that signalled a server the
/// test had already killed and reaped could).
public final class ChildProcess: Sendable {
  public struct Failed: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
  }

  /// Where a standard stream of the child goes.
  public enum Stream: Sendable {
    /// Discarded. Use it for programs that leave a daemon behind holding the stream (a tmux
    /// server): a pipe would then never reach end of file.
    case null
    /// A pipe this process reads (standard output only).
    case pipe
    /// A file, created or truncated, mode 0600.
    case file(String)
  }

  public let pid: pid_t
  /// The read end of the child's standard output, when it was piped (closed by `wait`).
  public let output: Int32?

  /// How the child ended, once it is reaped; whether `output` is closed.
  private let state = Mutex<(ended: Termination?, outputClosed: Bool)>((nil, false))

  private init(pid: pid_t, output: Int32?) {
    self.pid = pid
    self.output = output
  }

  /// Starts `arguments[0]` (a path, or with `searchPath` a name looked up in PATH) with
  /// `environment` (this process's when nil); `standardInput`, when given, is a descriptor
  /// this process has open.
  public static func spawn(
    _ arguments: [String], environment: [String: String]? = nil, searchPath: Bool = false,
    standardInput: Int32? = nil, standardOutput: Stream = .null, standardError: Stream = .null
  ) throws -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pipe: [Int32] = [-1, -1]
    let captureOutput: Bool
    if case .pipe = standardOutput { captureOutput = true } else { captureOutput = false }
    if captureOutput {
      // Close-on-exec from the start, so that children other tests start do not hold the pipe
      // open; dup2 gives this child its own inheritable copy.
      guard pipe2(&pipe, O_CLOEXEC) == 0 else { throw Failed(description: "pipe failed") }
      posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
    } else {
      redirect(STDOUT_FILENO, to: standardOutput, in: &actions)
    }
    redirect(STDERR_FILENO, to: standardError, in: &actions)
    if let standardInput {
      posix_spawn_file_actions_adddup2(&actions, standardInput, STDIN_FILENO)
    } else {
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    }
    // Nothing else this process has open reaches the child: another test's pipe or socket kept
    // open by a long-lived child would never reach end of file (Foundation's `Process` waits for
    // exactly that to see its child end).
    posix_spawn_file_actions_addclosefrom_np(&actions, 3)

    let argv = arguments.map { strdup($0) } + [nil]
    let variables = environment ?? ProcessInfo.processInfo.environment
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    // The child starts with no blocked signals and default handlers, whatever the test thread
    // had: a worker thread may block signals the child relies on (a tmux server that inherited
    // a blocked SIGCHLD never reaps its panes).
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var pid: pid_t = 0
    let status =
      searchPath
      ? posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
      : posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
    if captureOutput { close(pipe[1]) }
    guard status == 0 else {
      if captureOutput { close(pipe[0]) }
      throw Failed(description: "cannot run \(arguments[0]): \(String(cString: strerror(status)))")
    }
    return ChildProcess(pid: pid, output: captureOutput ? pipe[0] : nil)
  }

  private static func redirect(
    _ fd: Int32, to stream: Stream, in actions: inout posix_spawn_file_actions_t
  ) {
    switch stream {
    case .null, .pipe:
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
    case .file(let path):
      posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
  }

  /// Runs a program to its end and returns what it wrote on standard output. Blocking.
  public static func run(
    _ arguments: [String], environment: [String: String]? = nil, searchPath: Bool = false
  ) throws -> String {
    let child = try spawn(
      arguments, environment: environment, searchPath: searchPath, standardOutput: .pipe)
    let output = child.readToEnd()
    _ = child.waitBlocking()
    return output
  }

  /// Everything the child writes on its piped standard output, until it closes it. Blocking.
  public func readToEnd() -> String {
    guard let output, !state.withLock({ $0.outputClosed }) else { return "" }
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(output, &buffer, buffer.count)
      if count > 0 {
        data += buffer[0..<count]
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Waits for the child to end and reaps it, blocking the calling thread. Called again, it
  /// answers how the child ended.
  public func waitBlocking() -> Termination {
    // Reaped already: its pid may name another child by now, whose end is not to wait for.
    if let ended = state.withLock({ $0.ended }) { return ended }
    state.withLock { state in
      if let output, !state.outputClosed {
        close(output)
        state.outputClosed = true
      }
    }
    // Waits for the end without reaping, so that the pid stays this child's (a zombie) until
    // `state` records the reaping: `send` never signals a pid that may name another process.
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
    return state.withLock { state in
      if let ended = state.ended { return ended }
      var status: Int32 = 0
      var ended = Termination.exited(-1)
      while true {
        if waitpid(pid, &status, 0) == pid {
          ended = Termination(status: status)
          break
        }
        guard errno == EINTR else { break }
      }
      state.ended = ended
      return ended
    }
  }

  /// The first line the child writes on its standard output (without the newline), or nil if it
  /// closes its output or writes no whole line before `timeout`. Blocks in `poll`, off the
  /// cooperative thread pool.
  public func firstLine(timeout: Duration) async -> String? {
    guard let output, !state.withLock({ $0.outputClosed }) else { return nil }
    return await Self.blocking { Self.readLine(output, deadline: .now + timeout) }
  }

  /// Sends `signal` to the child, unless it has been reaped.
  public func send(_ signal: Int32) {
    state.withLock { state in
      if state.ended == nil { kill(pid, signal) }
    }
  }

  /// Waits for the child to end and reaps it. Blocks in `waitpid`, off the cooperative pool.
  public func wait() async -> Termination {
    let child = self
    return await Self.blocking { child.waitBlocking() }
  }

  /// Runs blocking system calls on a thread of their own, so that waiting on children never
  /// starves the (small, on this 2-core machine) pool that runs the tests.
  private static func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: work()) }
    }
  }

  private static func readLine(_ fd: Int32, deadline: ContinuousClock.Instant) -> String? {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let left = ContinuousClock.now.duration(to: deadline).components
      let milliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000
      guard milliseconds > 0 else { return nil }
      var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, Int32(clamping: milliseconds))
      if ready < 0, errno == EINTR { continue }
      guard ready > 0 else { return nil }
      let count = read(fd, &byte, 1)
      if count < 0, errno == EINTR { continue }
      guard count == 1 else { return nil }
      if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
      line.append(byte)
    }
  }
}
