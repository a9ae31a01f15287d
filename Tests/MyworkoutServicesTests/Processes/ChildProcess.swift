import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How a child process ended.
enum Termination: Equatable, CustomStringConvertible {
  case exited(Int32)
  case signaled(Int32)

  /// Decodes a `waitpid` status (the C macros are not imported into Swift).
  init(status: Int32) {
    let signal = status & 0x7f
    self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  }

  var description: String {
    switch self {
    case .exited(let code): "exit status \(code)"
    case .signaled(let signal): "killed by signal \(signal)"
    }
  }
}

/// A program started with `posix_spawn` and reaped with `waitpid`: Foundation's `Process` can
/// miss a child's exit on Linux when several tests spawn at once. Standard input is /dev/null,
/// standard error goes to a file, standard output to /dev/null or to a pipe the test reads.
struct ChildProcess: Sendable {
  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  let pid: pid_t
  /// The read end of the child's standard output, when it was captured (closed by `wait`).
  let output: Int32?

  /// Starts `arguments[0]` (an absolute path) with this process's environment.
  static func spawn(
    _ arguments: [String], errorLog: String, captureOutput: Bool = false
  ) throws -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pipe: [Int32] = [-1, -1]
    if captureOutput {
      guard Glibc.pipe(&pipe) == 0 else { throw Failed(description: "pipe failed") }
      // Close-on-exec (pipe2 is not imported), so that children other tests start later do not
      // hold the pipe open; dup2 gives this child its own inheritable copy.
      pipe.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
      posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
    } else {
      posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, STDERR_FILENO, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    // The child starts with no blocked signals and default handlers, whatever the test thread
    // had (a worker thread may block signals the child relies on).
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
    let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
    if captureOutput { close(pipe[1]) }
    guard status == 0 else {
      if captureOutput { close(pipe[0]) }
      throw Failed(description: "cannot run \(arguments[0]): \(String(cString: strerror(status)))")
    }
    return ChildProcess(pid: pid, output: captureOutput ? pipe[0] : nil)
  }

  /// The first line the child writes on its standard output (without the newline), or nil if it
  /// closes its output or writes no whole line before `timeout`. Blocks in `poll`, off the
  /// cooperative thread pool.
  func firstLine(timeout: Duration) async -> String? {
    guard let output else { return nil }
    return await Self.blocking { Self.readLine(output, deadline: .now + timeout) }
  }

  /// Sends `signal` to the child.
  func send(_ signal: Int32) {
    kill(pid, signal)
  }

  /// Waits for the child to end and reaps it. Blocks in `waitpid`, off the cooperative pool.
  func wait() async -> Termination {
    if let output { close(output) }
    let pid = pid
    return await Self.blocking {
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { return .exited(-1) }
      }
      return Termination(status: status)
    }
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
