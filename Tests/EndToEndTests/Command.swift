import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program and returns its standard output, with `posix_spawnp` and `waitpid` directly:
/// Foundation's `Process` can miss a child's exit on Linux when several tests spawn at once.
enum Command {
  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  /// - Parameter captureOutput: false sends the output to /dev/null, for programs that leave a
  ///   daemon behind holding their standard output (a pipe would then never reach end of file).
  @discardableResult
  static func run(
    _ arguments: [String], environment: [String: String], captureOutput: Bool = true
  ) throws -> String {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pipe: [Int32] = [-1, -1]
    if captureOutput {
      guard Glibc.pipe(&pipe) == 0 else { throw Failed(description: "pipe failed") }
      posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
      posix_spawn_file_actions_addclose(&actions, pipe[0])
      posix_spawn_file_actions_addclose(&actions, pipe[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    // The child starts with no blocked signals and default handlers, whatever the test thread
    // had: a tmux server that inherited a worker thread's blocked SIGCHLD would never reap its
    // panes (so no exit status), and the app would start with its signals blocked.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard status == 0 else {
      throw Failed(description: "cannot run \(arguments[0]): \(String(cString: strerror(status)))")
    }
    var output = Data()
    if captureOutput {
      close(pipe[1])
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(pipe[0], &buffer, buffer.count)
        if count > 0 {
          output.append(contentsOf: buffer[0..<count])
        } else if count == 0 || errno != EINTR {
          break
        }
      }
      close(pipe[0])
    }
    var exitStatus: Int32 = 0
    while waitpid(pid, &exitStatus, 0) < 0, errno == EINTR {}
    return String(decoding: output, as: UTF8.self)
  }
}
