import MyworkoutCore
import MyworkoutServices
import MyworkoutView

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// The loop: keys become actions through the screen's key map, `reduce` changes the state and
/// returns effects, the effect runner carries them out (answering with more actions), the
/// timers are brought in line with `subscriptions(state)`, and each change is drawn once.
@MainActor
final class Runtime {
  private(set) var state: AppState
  /// The key map of `state` as last drawn (nil once the state changes): keys look up their
  /// action in it rather than making it again for each key.
  private var drawnKeys: KeyMap?
  private let terminal: any TerminalBackend
  private let timers: any TimerSource
  private let acceptedUntil: (String) -> Date?
  /// The wall clock (the Player's time; a fixed or stepped one in tests).
  private let now: () -> Date
  private var effects: EffectRunner!
  /// The timers running now, one per subscription.
  private var running: [Subscription: any TimerToken] = [:]
  /// Restores the terminal and ends the process; tests record the status instead.
  private let exit: @MainActor (Int32) -> Void
  /// Says a line on the restored terminal (standard error), after the screen is gone.
  private let report: @MainActor (String) -> Void
  /// How long Ctrl-Z, quitting and logging out wait for the saves before they go on anyway.
  private let saveLimits: SaveLimits
  /// The Player's video player (nil: classes play on §12's clock alone).
  private let video: (any VideoPlaying)?

  /// How long the app waits for pending saves before it stops or ends: long enough for a local
  /// write or a request on a sound network, short enough that a dead server never holds the
  /// terminal hostage.
  struct SaveLimits {
    var beforeStop: Duration = .seconds(2)
    var beforeExit: Duration = .seconds(5)
    /// Before the session is forgotten at a log-out (remote mode sends the saves with it).
    var beforeLogOut: Duration = .seconds(5)
    /// Before a class's progress read gives up on that class's saves still on their way.
    var beforeRead: Duration = .seconds(10)
  }

  /// - Parameters:
  ///   - acceptedUntil: when a session token stops being accepted (its expiry), or nil.
  ///   - now: reads the wall clock.
  ///   - exit: ends the process after the terminal is restored.
  ///   - saveLimits: how long to wait for saves before stopping or ending.
  ///   - executor: where the effects' work runs (the app's `WorkerThreads`; nil: Swift's pool).
  init(
    state: AppState, terminal: any TerminalBackend, services: Services,
    sessions: any SessionPersisting, timers: any TimerSource,
    acceptedUntil: @escaping (String) -> Date?, now: @escaping () -> Date,
    exit: @escaping @MainActor (Int32) -> Void, saveLimits: SaveLimits = SaveLimits(),
    video: (any VideoPlaying)? = nil, executor: (any TaskExecutor)? = nil,
    report: @escaping @MainActor (String) -> Void = Runtime.toStandardError
  ) {
    self.saveLimits = saveLimits
    self.report = report
    self.video = video
    self.state = state
    self.state.display.video = video != nil
    self.state.display.size = TerminalSize(width: terminal.width, height: terminal.height)
    self.terminal = terminal
    self.timers = timers
    self.acceptedUntil = acceptedUntil
    self.now = now
    self.exit = exit
    effects = EffectRunner(
      services: services, sessions: sessions, executor: executor,
      savesBeforeLogOut: saveLimits.beforeLogOut, savesBeforeRead: saveLimits.beforeRead,
      now: now,
      // Weak: an answer can arrive after the runtime is gone (in tests; the app has exited).
      send: { [weak self] action in self?.dispatch(action) },
      quit: { [weak self] status in self?.quit(status: status) })
  }

  /// Draws the first frame and starts the timers the state asks for.
  func start() {
    startTimers()
    render()
  }

  /// Runs the loop: keys, resizes and signals until the app quits.
  func run(on loop: MainLoop) -> Never {
    start()
    loop.run(
      MainLoop.Handlers(
        input: { [unowned self] in keysArrived() },
        resize: { [unowned self] in resized() },
        suspend: { [unowned self] in suspend() },
        continued: { [unowned self] in continued() },
        terminate: { [unowned self] status in dispatch(.terminationRequested(status: status)) }))
  }

  /// Ctrl-Z: the state hears of it first (the Player pauses and saves), the saves are made,
  /// then the terminal is given back and the process stops (a kill of the stopped process loses
  /// nothing). On `fg` the clock starts again from now, so the time stopped counts for nothing,
  /// and the screen is drawn again.
  func suspend() {
    send(.suspended)
    effects.finishWrites(within: saveLimits.beforeStop)
    terminal.suspend()
    resumedFromSuspend = true
    apply(.resumed(wallTime()))
    render()
  }

  /// SIGCONT. After the app's own Ctrl-Z (`suspend`, which already took the terminal back),
  /// nothing. After a stop it did not ask for (SIGSTOP from outside), the shell had the terminal
  /// meanwhile and set its own modes: the app takes it back and draws everything again (a
  /// playing class is paused by the clock's sleep rule, as after a sleep).
  func continued() {
    guard !resumedFromSuspend else {
      resumedFromSuspend = false
      return
    }
    terminal.reclaim()
    render()
  }

  /// A SIGCONT is on its way from the app's own stop (see `continued`).
  private var resumedFromSuspend = false

  /// Something the world did (an answer, a timer, a notice): handle it and draw the result.
  func dispatch(_ action: Action) {
    dispatch([action])
  }

  /// Several things at once (what the video's player said since the last turn): each handled in
  /// order, then one drawing.
  func dispatch(_ actions: [Action]) {
    for action in actions { send(action) }
    render()
  }

  /// Standard input is readable: every key waiting is handled, then one frame is drawn.
  func keysArrived() {
    for key in terminal.readKeys() {
      // The terminal's stop and quit keys reach the app as keys (they are not signals, so that
      // a paste can hold them): Ctrl-Z stops as SIGTSTP does, Ctrl-\ quits as SIGQUIT does.
      // What was typed after them in the same read is dropped, as the terminal's own stop and
      // quit characters flushed it.
      if key == .control("z") {
        suspend()
        break
      }
      if key == .control("\\") {
        raise(SIGQUIT)
        break
      }
      let keys =
        drawnKeys
        ?? KeyBindings.keyMap(for: state, width: terminal.width, height: terminal.height)
      if let action = keys.action(for: key) { send(action) }
    }
    render()
  }

  func resized() {
    terminal.updateSize()
    send(.terminalResized(TerminalSize(width: terminal.width, height: terminal.height)))
    render()
  }

  /// The ids of the requests running now (for tests).
  var runningRequests: Set<EffectID> { effects.runningIDs }
  /// The timers running now (for tests).
  var runningTimers: Set<Subscription> { Set(running.keys) }

  /// While a screen keeps time, the clock is read before every other action, so what the
  /// action does happens at the right moment (a key pauses the Player where it is now).
  private func send(_ action: Action) {
    if !Self.isClockReading(action), running.keys.contains(where: \.isClock) {
      apply(.clockRead(wallTime()))
    }
    apply(action)
  }

  private static func isClockReading(_ action: Action) -> Bool {
    switch action {
    case .clockRead, .resumed: true
    default: false
    }
  }

  private func apply(_ action: Action) {
    drawnKeys = nil
    for effect in reduce(&state, action) {
      if case .video(let command) = effect {
        video?.handle(command)
      } else {
        effects.run(effect, for: state.session)
      }
    }
    startTimers()
  }

  /// Brings the timers in line with the state; a clock that starts is read at once (the
  /// Player's time starts when it opens).
  private func startTimers() {
    if syncTimers().contains(where: \.isClock) { apply(.clockRead(wallTime())) }
  }

  private func wallTime() -> WallTime {
    WallTime(milliseconds: Int64((now().timeIntervalSince1970 * 1000).rounded(.down)))
  }

  private func render() {
    let frame = Renderer.frame(state, width: terminal.width, height: terminal.height)
    drawnKeys = frame.keys
    terminal.draw(frame.grid)
  }

  /// How the video player reaches this runtime and the loop.
  func videoWiring(loop: MainLoop) -> VideoHost.Wiring {
    VideoHost.Wiring(
      send: { [unowned self] actions in dispatch(actions) },
      picture: { [unowned self] picture in showVideo(picture) },
      watch: { fd, readable in loop.watch(fd, readable) })
  }

  /// A video picture to show now (it does not pass through the state).
  func showVideo(_ picture: VideoPicture?) {
    terminal.drawVideo(picture)
  }

  /// Starts the timers the state now asks for and stops the ones it no longer does; returns
  /// the ones it started.
  @discardableResult
  private func syncTimers() -> [Subscription] {
    let wanted = subscriptions(state)
    for (subscription, token) in running where !wanted.contains(subscription) {
      token.cancel()
      running[subscription] = nil
    }
    var started: [Subscription] = []
    for subscription in wanted where running[subscription] == nil {
      running[subscription] = start(subscription)
      started.append(subscription)
    }
    return started
  }

  private func start(_ subscription: Subscription) -> any TimerToken {
    switch subscription {
    case .spinner:
      return timers.repeating(every: .milliseconds(100)) { [unowned self] in
        dispatch(.spinnerTicked)
      }
    case .sessionExpiry(let token):
      // A token whose expiry cannot be read is treated as expired now.
      let deadline = acceptedUntil(token) ?? Date()
      return timers.once(at: deadline) { [unowned self] in dispatch(.sessionExpired) }
    case .searchPause:
      return timers.once(after: .milliseconds(150)) { [unowned self] in
        dispatch(.classes(.searchPauseEnded))
      }
    case .clock(let interval?):
      return timers.repeating(every: interval) { [unowned self] in
        dispatch(.clockRead(wallTime()))
      }
    case .volumeNote(let note):
      return timers.once(after: .seconds(2)) { [unowned self] in
        dispatch(.player(.volumeNoteEnded(note)))
      }
    case .clock(nil):
      // Read before actions only: nothing wakes the app.
      return NoTimer()
    }
  }

  /// Finishes pending writes, restores the terminal, says what progress could not be saved
  /// (the screen that showed the notices is gone), and exits.
  func quit(status: Int32) {
    for token in running.values { token.cancel() }
    running = [:]
    effects.finishWrites(within: saveLimits.beforeExit)
    terminal.close()
    if let lost = effects.unsavedProgress(waited: saveLimits.beforeExit) { report(lost) }
    exit(status)
  }

  /// One line on standard error.
  static func toStandardError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}

/// The token of a subscription that needs no timer.
@MainActor
private final class NoTimer: TimerToken {
  func cancel() {}
}
