import CSpawn
import Dispatch
import MyworkoutCore
import MyworkoutMedia
import MyworkoutView

#if canImport(Glibc)
  import Glibc
#endif

/// Where the Player's video commands go and its reports come from: `myworkout-media` in the
/// app; nothing in the runtime's tests of §12's clock.
@MainActor
protocol VideoPlaying: AnyObject {
  func handle(_ command: VideoCommand)
}

/// Runs `myworkout-media` (beside this executable) for the Player's class: commands as lines on
/// its standard input, reports read from its standard output in the main loop's `poll`. A
/// picture goes straight to the terminal; its media time reaches the state at most once a
/// second of media while playing (every picture while paused: a seek's, a step's). The process
/// is started when a Player with a video opens and killed when it closes, so nothing of FFmpeg
/// is on the app's start path and a decoder that crashes takes nothing else with it.
@MainActor
final class VideoHost: VideoPlaying {
  struct Wiring {
    /// Answers the state: the actions in order, then one drawing.
    var send: @MainActor ([Action]) -> Void
    /// Shows a picture; nil when the last one shown is no longer the video's (another video
    /// starts, or none).
    var picture: @MainActor (VideoPicture?) -> Void
    /// Watches a descriptor for reading in the main loop (nil stops watching).
    var watch: @MainActor (Int32, (@MainActor () -> Void)?) -> Void
  }

  private let executable: String
  private let locate: (String) -> MediaSource?
  private let muted: Bool
  private var wiring: Wiring?
  private var child: pid_t = 0
  private var commands: Int32 = -1
  private var events: Int32 = -1
  private var reader = MediaEventReader()
  /// The number of the last picture shown (each is numbered, so that the next one's changes
  /// are laid only over the one they were made against).
  private var shownSerial = 0
  private var playing = false
  private var lastSecond = -1
  /// The media time of the picture on screen (said at a pause: while playing it reaches the
  /// state only when its second changes).
  private var onScreen: Int?
  /// Counts the commands handled: a report held for later is dropped if another came since.
  private var commandCount = 0
  /// Step commands written to this player process: its `stepped` count says when all landed.
  private var stepsWritten = 0

  /// The file or URL to open for a class's `videoUrl`, and the header that goes with it.
  struct MediaSource {
    var source: String
    var header: String?
  }

  init(executable: String, muted: Bool, locate: @escaping (String) -> MediaSource?) {
    self.executable = executable
    self.muted = muted
    self.locate = locate
  }

  func connect(_ wiring: Wiring) { self.wiring = wiring }

  /// Why the video stops when the player no longer reads its commands.
  static let stoppedAnswering = "the player stopped answering"

  /// Why a remote catalog's video that is not an http(s) URL does not play.
  static let notOnTheServer = "not on the server"

  /// `myworkout-media` beside the running executable.
  static func besideExecutable() -> String {
    (AssetsLocation.executableDirectory ?? ".") + "/myworkout-media"
  }

  func handle(_ command: VideoCommand) {
    commandCount &+= 1
    switch command {
    case .open(let videoURL):
      stop()
      guard let source = locate(videoURL) else {
        report(.failed(Self.notOnTheServer))
        return
      }
      guard start() else {
        report(
          .failed(
            access(executable, X_OK) == 0
              ? "the player (myworkout-media) could not start"
              : "myworkout-media is not beside myworkout"))
        return
      }
      if let header = source.header { write(.header(header)) }
      write(.open(source: source.source, timeoutMilliseconds: 10_000))
    case .close:
      stop()
    case .size(let width, let height): write(.size(width: width, height: height))
    case .play:
      playing = true
      write(.play)
    case .pause:
      let wasPlaying = playing
      playing = false
      write(.pause)
      // Where play stopped is the picture on screen, not the last quarter second's time: said
      // after the pause's own effects (its save) have run, unless another command came first.
      if wasPlaying, let onScreen {
        let count = commandCount
        DispatchQueue.main.async { [weak self] in
          MainActor.assumeIsolated {
            guard let self, self.commandCount == count, !self.playing else { return }
            self.report(.shown(milliseconds: onScreen))
          }
        }
      }
    case .seek(let milliseconds): write(.seek(milliseconds: milliseconds))
    case .speed(let speed): write(.speed(speed.hundredths))
    case .sound(let on): write(.sound(on))
    case .volume(let percent): write(.volume(percent))
    case .step(let forward):
      stepsWritten += 1
      write(.step(forward ? 1 : -1))
    case .mark(let milliseconds): write(.mark(milliseconds))
    }
  }

  private func report(_ event: VideoEvent) {
    wiring?.send([.player(.video(event))])
  }

  private func write(_ command: MediaCommand) {
    guard commands >= 0 else { return }
    let bytes = Array((command.line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.write(commands, $0.baseAddress, $0.count)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        // The pipe is full: the player has not read a pipe's worth of commands (it is stopped
        // or stuck). Waiting for it would freeze the app; it is given up on.
        if written < 0 && errno == EAGAIN {
          stop()
          report(.failed(Self.stoppedAnswering))
        }
        return
      }
      offset += written
    }
  }

  private func start() -> Bool {
    wiring?.picture(nil)
    var input: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    guard pipe(&input) == 0 else { return false }
    guard pipe(&output) == 0 else {
      close(input[0])
      close(input[1])
      return false
    }
    // The app's ends are closed in the player (and in any later child).
    for fd in [input[0], input[1], output[0], output[1]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    // A picture (120 KB at 200x60, 576 KB over a whole 400x120 terminal) goes through in one
    // write and is read in one wake-up, not in 64 KB pieces. Where the system allows less,
    // the pipe stays as it is.
    _ = fcntl(output[0], Self.setPipeSize, Self.pipeSize)
    if buffer.isEmpty {
      // Not filled in advance: only the pages a picture reaches become memory.
      buffer = [UInt8](unsafeUninitializedCapacity: Int(Self.pipeSize)) { _, count in
        count = Int(Self.pipeSize)
      }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO)
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO)
    // FFmpeg's and PulseAudio's words never reach the app's screen.
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
    // Nothing else the app has open (its databases, its terminal's descriptors) reaches the
    // player, whatever its close-on-exec flag.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    // The app blocks its signals for its signalfd; the player takes them as usual.
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    // A process group of its own: the terminal's Ctrl-Z stops the app alone (which pauses the
    // video first), and the shell's job is the app's.
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    var arguments = [executable]
    if muted { arguments.append("--mute") }
    let argv = arguments.map { strdup($0) } + [nil]
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    for pointer in argv { free(pointer) }
    posix_spawn_file_actions_destroy(&actions)
    posix_spawnattr_destroy(&attributes)
    close(input[0])
    close(output[1])
    guard status == 0 else {
      close(input[1])
      close(output[0])
      return false
    }
    child = pid
    stepsWritten = 0
    commands = input[1]
    events = output[0]
    _ = fcntl(events, F_SETFL, fcntl(events, F_GETFL) | O_NONBLOCK)
    _ = fcntl(commands, F_SETFL, fcntl(commands, F_GETFL) | O_NONBLOCK)
    reader = MediaEventReader()
    playing = false
    lastSecond = -1
    onScreen = nil
    let descriptor = events
    wiring?.watch(descriptor) { [weak self] in self?.readable() }
    return true
  }

  /// Ends the player at once (Esc leaves without waiting for it).
  private func stop() {
    guard child > 0 else { return }
    wiring?.picture(nil)
    wiring?.watch(events, nil)
    close(commands)
    close(events)
    kill(child, SIGKILL)
    var status: Int32 = 0
    waitpid(child, &status, 0)
    (child, commands, events) = (0, -1, -1)
  }

  private static let pipeSize: Int32 = 1 << 20
  /// Linux's `F_SETPIPE_SZ` (`F_LINUX_SPECIFIC_BASE + 7`), which Glibc's module leaves out.
  private static let setPipeSize: Int32 = 1031
  /// At most this many reads of `buffer` a turn of the loop (see `readable`).
  private static let readsPerTurn = 4
  /// Read into, reused (made when a player starts): a picture at a time.
  private var buffer: [UInt8] = []

  private func readable() {
    var latest: MediaFrame?
    // What changed since the last picture shown, over every frame read now (nil: not known).
    var changes: [Int: MediaPatch.Span]? = [:]
    var reports: [VideoEvent] = []
    var ended = false
    // A few reads a turn at most: a player that floods the pipe must not keep the loop from
    // the keys and signals (it comes back here at once while more is waiting).
    for _ in 0..<Self.readsPerTurn where events >= 0 {
      let count = read(events, &buffer, buffer.count)
      if count == 0 {
        ended = true
        break
      }
      if count < 0 { break }
      for event in reader.append(buffer[0..<count]) {
        switch event {
        case .frame(let frame):
          latest = frame
          onScreen = frame.milliseconds
          if let spans = frame.changes, changes != nil {
            for span in spans {
              let known = changes?[span.band]
              changes?[span.band] = MediaPatch.Span(
                band: span.band, from: min(span.from, known?.from ?? span.from),
                to: max(span.to, known?.to ?? span.to))
            }
          } else {
            changes = nil
          }
          let second = frame.milliseconds / 1000
          if !playing || second != lastSecond {
            lastSecond = second
            reports.append(.shown(milliseconds: frame.milliseconds))
          }
        case .ready(let duration, let width, let height, _, let sound):
          reports.append(
            .ready(durationMilliseconds: duration, width: width, height: height, hasSound: sound))
        case .time(let milliseconds): reports.append(.time(milliseconds: milliseconds))
        case .buffering(let on): reports.append(.buffering(on))
        case .ended:
          playing = false
          reports.append(.ended)
        case .failed(let reason): reports.append(.failed(reason))
        case .sound(let note): reports.append(.sound(note))
        case .stepped(let count): if count == stepsWritten { reports.append(.stepsLanded) }
        case .patch: break  // laid over its picture by the reader: a `frame` here
        }
      }
      if reader.damaged {
        ended = true
        break
      }
    }
    if let latest {
      shownSerial += 1
      let runs = changes.map {
        $0.values.sorted { $0.band < $1.band }.map {
          VideoPicture.Run(band: $0.band, from: $0.from, to: $0.to)
        }
      }
      wiring?.picture(
        VideoPicture(
          width: latest.width, height: latest.height, rgb: latest.rgb, serial: shownSerial,
          changes: runs.map { VideoPicture.Changes(base: shownSerial - 1, runs: $0) }))
    }
    if !reports.isEmpty { wiring?.send(reports.map { .player(.video($0)) }) }
    if ended {
      stop()
      report(.failed(VideoPhase.playerStopped))
    }
  }
}
