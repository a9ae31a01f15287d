import MyworkoutCore
import MyworkoutView
import Testing

@Suite struct ScreenSnapshotTests {
  static let profile = Profile(
    email: "registered@email.com", gender: .female, mobile: "+60123456789",
    firstName: "Registered", lastName: "User")
  static let session = Session(
    token: "t", accountID: "auth0|ada", profile: profile,
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
      state.apply(.textEdited(.insert(String(character))))
    }
    state.apply(.enterPressed)
    assertSnapshot(render(state), named: "get-started-running")
  }

  @Test func getStartedInvalid() {
    var state = AppState.launch(with: .none)
    state.apply(.pasted("not-an-email"))
    state.apply(.enterPressed)
    assertSnapshot(render(state), named: "get-started-invalid")
  }

  @Test func login() {
    var state = AppState(
      root: .signedOut(SignedOut(path: [.login(LoginForm(email: "registered@email.com"))])))
    state.apply(.pasted("secret"))
    assertSnapshot(render(state), named: "login")
  }

  @Test func loginFailed() {
    var state = AppState(
      root: .signedOut(SignedOut(path: [.login(LoginForm(email: "registered@email.com"))])))
    state.apply(.pasted("nope"))
    state.apply(.enterPressed)
    _ = reduce(&state, .login(.logInResponse(.failure(.wrongCredentials))))
    assertSnapshot(render(state), named: "login-failed")
  }

  @Test func signup() {
    var state = AppState(
      root: .signedOut(SignedOut(path: [.signup(SignupForm(email: "new@email.com"))])))
    state.apply(.pasted("short"))
    state.apply(.focusMoved(.forward))
    state.apply(.pickerStepped(.forward))
    assertSnapshot(render(state), named: "signup")
  }

  @Test func signupWeakPasswordWraps() {
    var state = AppState(
      root: .signedOut(SignedOut(path: [.signup(SignupForm(email: "new@email.com"))])))
    state.apply(.pasted("short"))
    for _ in 0..<5 { state.apply(.focusMoved(.forward)) }
    state.apply(.enterPressed)
    assertSnapshot(render(state), named: "signup-weak-password")
  }

  @Test func profile() {
    assertSnapshot(render(.launch(with: .valid(Self.session))), named: "profile")
  }

  @Test func profileEditing() {
    var state = AppState.launch(with: .valid(Self.session))
    _ = reduce(&state, .profile(.editNumberPressed))
    assertSnapshot(render(state), named: "profile-edit-number")
  }

  @Test func profileEdited() {
    var state = AppState.launch(with: .valid(Self.session))
    _ = reduce(&state, .profile(.editNumberPressed))
    state.apply(.enterPressed)
    _ = reduce(&state, .profile(.editNumberResponse(.success(Self.session))))
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
    var state = AppState(
      root: .signedOut(SignedOut(path: [.signup(SignupForm(email: "new@email.com"))])))
    for _ in 0..<4 { state.apply(.focusMoved(.forward)) }
    let grid = render(state, 40, 12)
    assertSnapshot(grid, named: "signup-40x12")
    #expect(grid.text.contains("Last name"))
    #expect(grid.cursor != nil)
  }

  @Test func tinyTerminalsNeverCrash() {
    let states: [AppState] = [
      .launch(with: .none), .launch(with: .valid(Self.session)), .launch(with: .invalid),
      AppState(root: .signedOut(SignedOut(path: [.signup(SignupForm(email: "a@b.co"))]))),
      AppState(root: .signedOut(SignedOut(path: [.login(LoginForm(email: "a@b.co"))]))),
    ]
    for state in states {
      for (width, height) in [(1, 1), (20, 6), (10, 3), (0, 0), (300, 100)] {
        let grid = render(state, width, height)
        #expect(grid.lines.count == max(0, height))
      }
    }
    assertSnapshot(render(.launch(with: .none), 20, 6), named: "get-started-20x6")
  }

  /// Issue 9: on a small terminal the error and the focused button show together.
  @Test(arguments: [(24, 7), (20, 6), (40, 12)])
  func smallTerminalsKeepTheMessageInView(width: Int, height: Int) {
    var login = AppState(
      root: .signedOut(SignedOut(path: [.login(LoginForm(email: "registered@email.com"))])))
    login.apply(.pasted("nope"))
    login.apply(.enterPressed)
    _ = reduce(&login, .login(.logInResponse(.failure(.wrongCredentials))))
    let text = render(login, width, height).text
    #expect(text.contains("Try again"), "\(text)")
    #expect(text.contains("Wrong email"), "\(text)")

    var signup = AppState(root: .signedOut(SignedOut(path: [.signup(SignupForm(email: "a@b.co"))])))
    signup.apply(.pasted("password!"))
    for _ in 0..<5 { signup.apply(.focusMoved(.forward)) }
    signup.apply(.enterPressed)
    let refused = render(signup, width, height).text
    #expect(refused.contains("Please select"), "\(refused)")
    #expect(refused.contains("Gender"), "the focus moved to the picker: \(refused)")
  }

  @Test func theProfileHeadingStaysAt40x12() {
    let text = render(.launch(with: .valid(Self.session)), 40, 12).text
    #expect(text.contains("Profile"))
    #expect(text.contains("Edit number"))
  }

  /// A spec walk-through: Profile's five buttons are on one row when it fits, else on two
  /// (`Edit number` and `Log out`, then the sections: SPEC §10), and one under the other only
  /// when even those do not fit. Tab and clicks follow the rows as drawn.
  @Test func profilesButtonsTakeOneRowThenTwoThenOneEach() throws {
    let first = "[ Edit number ]  [ Log out ]"
    let second = "[ Classes ]  [ Lessons ]  [ Images ]"
    func buttonLines(_ state: AppState, _ width: Int) -> [String] {
      render(state, width, 40).lines.filter { $0.contains("[ ") }
    }
    let profile = AppState.launch(with: .valid(Self.session))
    for width in [72, 80, 120] {
      let lines = buttonLines(profile, width)
      #expect(lines.count == 1, "\(width):\n\(lines.joined(separator: "\n"))")
      #expect(lines.first?.contains(first + "  " + second) == true, "\(width)")
    }
    for width in [40, 60, 71] {
      let lines = buttonLines(profile, width)
      #expect(lines.count == 2, "\(width):\n\(lines.joined(separator: "\n"))")
      #expect(lines.first?.contains(first) == true, "\(width)")
      #expect(lines.last?.contains(second) == true, "\(width)")
    }
    let narrow = buttonLines(profile, 36)
    #expect(narrow.count == 5, "\(narrow.joined(separator: "\n"))")

    // At 60 columns: Tab from Log out goes down to Classes; a click on Lessons is its stop.
    var state = profile
    state.apply(.focusMoved(.forward))
    state.apply(.focusMoved(.forward))
    let grid = render(state, 60, 24)
    let row = try #require(grid.lines.firstIndex { $0.contains(second) })
    #expect(grid.lines[row].contains("▸[ Classes ]"), "\(grid.lines[row])")
    let column = try #require(grid.lines[row].range(of: "[ Lessons ]")).lowerBound
    let lessons = grid.lines[row].distance(from: grid.lines[row].startIndex, to: column) + 2
    let click = KeyBindings.action(
      for: .mouse(MouseEvent(.press, row: row, column: lessons)), in: profile, width: 60,
      height: 24)
    #expect(click == .profile(.form(.stopClicked(3))))
  }

  @Test func longNamesAreCutWithAnEllipsis() {
    var session = Self.session
    session.profile.email = String(repeating: "long", count: 20) + "@email.com"
    let text = render(.launch(with: .valid(session)), 80, 24).text
    #expect(text.contains("…"))
  }

  @Test func aLongNoticeWrapsInsteadOfLosingTheFileName() {
    let notice =
      "accounts.json could not be read (not valid JSON); it was moved aside as "
      + "accounts.json.corrupt-20261122T041500Z"
    let text = render(.launch(with: .none, notice: notice), 80, 24).text
    #expect(text.contains("accounts.json.corrupt-20261122T041500Z"))
  }
}
