import MyworkoutCore
import MyworkoutView
import Testing

/// Remote mode's outbox as drawn (SPEC §18): the header's state and the log-out question.
@Suite struct SyncViewTests {
  static var signedIn: AppState {
    .launch(with: .valid(ScreenSnapshotTests.session))
  }

  static func state(waiting: Int, offline: Bool) -> AppState {
    var state = signedIn
    _ = reduce(
      &state, .syncChanged(SyncStatus(account: "auth0|ada", waiting: waiting, offline: offline)))
    return state
  }

  func header(_ state: AppState, width: Int) -> String {
    Renderer.render(state, width: width, height: 24).lines[0]
  }

  @Test func theHeaderShowsTheOutboxBeforeCtrlO() {
    let line = header(Self.state(waiting: 3, offline: true), width: 80)
    #expect(line.hasSuffix("offline — 3 changes waiting  Ctrl-O log out"), "\(line)")
    #expect(line.contains("registered@email.com"))
    #expect(header(Self.state(waiting: 3, offline: false), width: 80).contains("syncing…  Ctrl-O"))
    #expect(!header(Self.state(waiting: 0, offline: false), width: 80).contains("sync"))
  }

  @Test(arguments: [60, 45, 40, 34, 20])
  func onANarrowHeaderTheEmailGivesWayFirstAndNothingIsCut(width: Int) {
    let line = header(Self.state(waiting: 12, offline: true), width: width)
    let state = "offline — 12 changes waiting"
    if width >= state.count + 9 {
      #expect(line.contains(state), "\(line)")
    } else {
      // Too narrow even for the state: the header keeps its section, whole.
      #expect(!line.contains("offline —"), "\(line)")
    }
    #expect(!line.contains("offline — 12 changes waitin "))
  }

  @Test func theQuestionIsDrawnWithItsButtonsAndTakesTheKeys() {
    var state = Self.state(waiting: 3, offline: true)
    _ = reduce(&state, .logOutPressed)
    assertSnapshot(Renderer.render(state, width: 80, height: 24), named: "log-out-unsent-80x24")
    assertSnapshot(Renderer.render(state, width: 40, height: 12), named: "log-out-unsent-40x12")
    #expect(KeyBindings.action(for: .enter, in: state) == .logOutConfirmation(.pressed(.stay)))
    #expect(KeyBindings.action(for: .tab, in: state) == .logOutConfirmation(.focusMoved))
    #expect(KeyBindings.action(for: .escape, in: state) == .logOutConfirmation(.pressed(.stay)))
    #expect(
      KeyBindings.action(for: .character("y"), in: state) == .logOutConfirmation(.pressed(.logOut)))
    // The screen below takes none of them.
    #expect(KeyBindings.action(for: .character("c"), in: state) == nil)
    #expect(KeyBindings.action(for: .control("c"), in: state) == .interruptPressed)
  }
}
