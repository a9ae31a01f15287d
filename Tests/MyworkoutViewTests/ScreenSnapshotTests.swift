import MyworkoutCore
import MyworkoutView
import Testing

@Suite struct ScreenSnapshotTests {
  static let profile = Profile(
    email: "registered@email.com", gender: .female, mobile: "+60123456789",
    firstName: "Registered", lastName: "User")
  static let session = Session(
    token: "t", profile: profile,
    gravatarHash: "6f0b1b4c2b8c7e5a1a6b3e0e5d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a69788796")

  func render(_ state: AppState, _ width: Int = 80, _ height: Int = 24) -> Grid {
    Renderer.render(state, width: width, height: height)
  }

  @Test func getStarted() {
    assertSnapshot(render(.launch(with: .none)), named: "get-started")
  }

  @Test func getStartedRunning() {
    var state = AppState.launch(with: .none)
    for character in "registered@email.com" {
      _ = reduce(&state, .textEdited(.insert(String(character))))
    }
    _ = reduce(&state, .enterPressed)
    assertSnapshot(render(state), named: "get-started-running")
  }

  @Test func getStartedInvalid() {
    var state = AppState.launch(with: .none)
    _ = reduce(&state, .pasted("not-an-email"))
    _ = reduce(&state, .enterPressed)
    assertSnapshot(render(state), named: "get-started-invalid")
  }

  @Test func login() {
    var state = AppState(screen: .login(LoginForm(email: "registered@email.com")))
    _ = reduce(&state, .pasted("secret"))
    assertSnapshot(render(state), named: "login")
  }

  @Test func loginFailed() {
    var state = AppState(screen: .login(LoginForm(email: "registered@email.com")))
    _ = reduce(&state, .pasted("nope"))
    _ = reduce(&state, .enterPressed)
    _ = reduce(&state, .logInResponse(.failure(.wrongCredentials)))
    assertSnapshot(render(state), named: "login-failed")
  }

  @Test func signup() {
    var state = AppState(screen: .signup(SignupForm(email: "new@email.com")))
    _ = reduce(&state, .pasted("short"))
    _ = reduce(&state, .focusMoved(.forward))
    _ = reduce(&state, .pickerStepped(.forward))
    assertSnapshot(render(state), named: "signup")
  }

  @Test func signupWeakPasswordWraps() {
    var state = AppState(screen: .signup(SignupForm(email: "new@email.com")))
    _ = reduce(&state, .pasted("short"))
    for _ in 0..<5 { _ = reduce(&state, .focusMoved(.forward)) }
    _ = reduce(&state, .enterPressed)
    assertSnapshot(render(state), named: "signup-weak-password")
  }

  @Test func profile() {
    assertSnapshot(render(.launch(with: .valid(Self.session))), named: "profile")
  }

  @Test func profileEditing() {
    var state = AppState.launch(with: .valid(Self.session))
    _ = reduce(&state, .editNumberPressed)
    assertSnapshot(render(state), named: "profile-edit-number")
  }

  @Test func profileEdited() {
    var state = AppState.launch(with: .valid(Self.session))
    _ = reduce(&state, .editNumberPressed)
    _ = reduce(&state, .enterPressed)
    _ = reduce(&state, .editNumberResponse(.success(Self.session)))
    assertSnapshot(render(state), named: "profile-edited")
  }

  @Test func profileExpired() {
    assertSnapshot(render(.launch(with: .invalid)), named: "profile-expired")
  }

  @Test func noticeLine() {
    let state = AppState.launch(
      with: .none, notice: "accounts.json could not be read; moved it aside")
    assertSnapshot(render(state), named: "get-started-notice")
  }

  @Test func smallTerminalKeepsFocusedFieldVisible() {
    var state = AppState(screen: .signup(SignupForm(email: "new@email.com")))
    for _ in 0..<4 { _ = reduce(&state, .focusMoved(.forward)) }
    let grid = render(state, 40, 12)
    assertSnapshot(grid, named: "signup-40x12")
    #expect(grid.text.contains("Last name"))
    #expect(grid.cursor != nil)
  }

  @Test func tinyTerminalsNeverCrash() {
    let states: [AppState] = [
      .launch(with: .none), .launch(with: .valid(Self.session)), .launch(with: .invalid),
      AppState(screen: .signup(SignupForm(email: "a@b.co"))),
      AppState(screen: .login(LoginForm(email: "a@b.co"))),
    ]
    for state in states {
      for (width, height) in [(1, 1), (20, 6), (10, 3), (0, 0), (300, 100)] {
        let grid = render(state, width, height)
        #expect(grid.lines.count == max(0, height))
      }
    }
    assertSnapshot(render(.launch(with: .none), 20, 6), named: "get-started-20x6")
  }
}
