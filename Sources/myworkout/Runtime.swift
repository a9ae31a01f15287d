import Dispatch
import MyworkoutCore
import MyworkoutServices
import MyworkoutTerminal
import MyworkoutView

#if canImport(Glibc)
  import Glibc
#endif

/// The loop: keys become actions, `reduce` changes the state and returns effects, the effect
/// runner carries them out (answering with more actions), and each change is drawn once.
@MainActor
final class Runtime {
  private(set) var state: AppState
  private let terminal: Terminal
  private var effects: EffectRunner!
  private var spinner: (any DispatchSourceTimer)?

  init(state: AppState, terminal: Terminal, service: any AccountService, sessions: SessionStore) {
    self.state = state
    self.terminal = terminal
    self.effects = EffectRunner(
      service: service, sessions: sessions,
      send: { [unowned self] action in
        send(action)
        render()
      },
      quit: { [unowned self] status in quit(status: status) })
  }

  /// Draws the first frame and runs the loop: keys, resizes and signals until the app quits.
  func run(on loop: MainLoop) -> Never {
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

  func send(_ action: Action) {
    let requested = reduce(&state, action)
    for effect in requested { effects.run(effect) }
    updateSpinner()
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

  /// The spinner is the only timer: it runs while a request runs and stops after it.
  private func updateSpinner() {
    if state.isBusy, spinner == nil {
      let timer = DispatchSource.makeTimerSource(queue: .main)
      timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
      timer.setEventHandler {
        MainActor.assumeIsolated {
          self.send(.spinnerTicked)
          self.render()
        }
      }
      timer.resume()
      spinner = timer
    } else if !state.isBusy, let timer = spinner {
      timer.cancel()
      spinner = nil
    }
  }

  /// Finishes pending writes, restores the terminal and exits.
  func quit(status: Int32) -> Never {
    effects.finishWrites()
    terminal.close()
    exit(status)
  }
}
