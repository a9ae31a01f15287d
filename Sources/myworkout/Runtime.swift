import Dispatch
import MyworkoutCore
import MyworkoutServices
import MyworkoutTerminal
import MyworkoutView

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// The loop: keys become actions, `reduce` changes the state and returns effects, the effect
/// runner carries them out (answering with more actions), and each change is drawn once.
@MainActor
final class Runtime {
  private(set) var state: AppState
  private let terminal: Terminal
  private let service: any AccountService
  private let sessions: SessionStore
  /// Made on first use, once `self` exists for its callbacks.
  private lazy var effects = EffectRunner(
    service: service, sessions: sessions,
    send: { [unowned self] action in dispatch(action) },
    quit: { [unowned self] status in quit(status: status) })
  private var spinner: (any DispatchSourceTimer)?
  /// Fires when the signed-in session's token stops being accepted, with that token.
  private var expiry: (token: String, timer: any DispatchSourceTimer)?
  private let acceptedUntil: (String) -> Date?

  init(
    state: AppState, terminal: Terminal, service: any AccountService, sessions: SessionStore,
    acceptedUntil: @escaping (String) -> Date?
  ) {
    self.state = state
    self.terminal = terminal
    self.acceptedUntil = acceptedUntil
    self.service = service
    self.sessions = sessions
  }

  /// Draws the first frame and runs the loop: keys, resizes and signals until the app quits.
  func run(on loop: MainLoop) -> Never {
    watchExpiry()
    render()
    loop.run(
      MainLoop.Handlers(
        input: { [unowned self] in keysArrived() },
        resize: { [unowned self] in
          terminal.updateSize()
          render()
        },
        suspend: { [unowned self] in
          terminal.suspend()
          render()
        },
        terminate: { [unowned self] status in quit(status: status) }))
  }

  /// Something the world did (an answer, a timer, a notice): handle it and draw the result.
  func dispatch(_ action: Action) {
    send(action)
    render()
  }

  private func send(_ action: Action) {
    let requested = reduce(&state, action)
    for effect in requested { effects.run(effect) }
    updateSpinner()
    watchExpiry()
  }

  private func keysArrived() {
    for key in terminal.readKeys() {
      // Ctrl-C normally arrives as SIGINT; as a key only if the terminal's ISIG is off.
      if key == .control("c") { quit(status: 130) }
      if let action = KeyBindings.action(for: key, in: state) { send(action) }
    }
    render()
  }

  func render() {
    terminal.draw(Renderer.render(state, width: terminal.width, height: terminal.height))
  }

  /// The spinner's timer runs while a request runs and stops after it.
  private func updateSpinner() {
    if state.isBusy, spinner == nil {
      spinner = timer(sending: .spinnerTicked) {
        $0.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
      }
    } else if !state.isBusy, let timer = spinner {
      timer.cancel()
      spinner = nil
    }
  }

  /// While Profile shows a session, a wall-clock timer waits for its token to expire, so the
  /// screen turns to the expiry message at that moment rather than at the next request.
  private func watchExpiry() {
    var token: String?
    if case .profile(let profile) = state.screen { token = profile.session?.token }
    guard token != expiry?.token else { return }
    expiry?.timer.cancel()
    expiry = nil
    guard let token, let deadline = acceptedUntil(token) else { return }
    let seconds = max(0, deadline.timeIntervalSinceNow)
    expiry = (
      token, timer(sending: .sessionExpired) { $0.schedule(wallDeadline: .now() + seconds) }
    )
  }

  /// A started timer on the main queue that dispatches `action` each time it fires.
  private func timer(
    sending action: Action, schedule: (any DispatchSourceTimer) -> Void
  ) -> any DispatchSourceTimer {
    let timer = DispatchSource.makeTimerSource(queue: .main)
    schedule(timer)
    timer.setEventHandler { MainActor.assumeIsolated { self.dispatch(action) } }
    timer.resume()
    return timer
  }

  /// Finishes pending writes, restores the terminal and exits.
  func quit(status: Int32) -> Never {
    effects.finishWrites()
    terminal.close()
    exit(status)
  }
}
