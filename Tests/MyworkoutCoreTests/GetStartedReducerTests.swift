import Testing

@testable import MyworkoutCore

@Suite struct GetStartedReducerTests {
  let email: (FormAction) -> Action = { .getStarted(.form($0)) }

  /// Get started with an email typed in.
  func typedIn(_ text: String) -> TestStore {
    var store = TestStore(.launch(with: .none))
    store.type(text, as: email) { $0.getStarted.email = typed(text, limit: FieldLimit.email) }
    return store
  }

  @Test func launchWithoutSessionOpensGetStartedOnTheEmail() {
    let state = AppState.launch(with: .none)
    #expect(state.root == .signedOut(SignedOut(getStarted: GetStartedForm(), path: [])))
    #expect(state.getStarted.focus == .email)
    #expect(subscriptions(state).isEmpty, "an idle app runs no timer")
  }

  @Test func nextWithValidEmailChecksItAndShowsCancel() {
    var store = typedIn(" Registered@Email.com ")
    store.send(
      email(.enterPressed), effects: [.run(.checkEmail, .checkEmail("registered@email.com"))]
    ) {
      $0.getStarted.phase = .running
      $0.getStarted.focus = .next
    }
    #expect(store.state.getStarted.phase.buttonTitle(rest: "Next") == "Cancel")
    #expect(store.state.running == [.checkEmail])
    #expect(subscriptions(store.state) == [.spinner])
  }

  @Test func emptyOrMalformedEmailIsRefusedWithoutRequestAndFocusesTheField() {
    var store = TestStore(.launch(with: .none))
    store.send(email(.focusMoved(.forward))) { $0.getStarted.focus = .next }
    store.send(email(.enterPressed)) {
      $0.getStarted.phase = .invalid(Message.emailNotValid)
      $0.getStarted.focus = .email
    }
    store.type("not-an-email", as: email) {
      $0.getStarted.email = typed("not-an-email", limit: FieldLimit.email)
      $0.getStarted.phase = .idle
    }
    store.send(email(.enterPressed)) { $0.getStarted.phase = .invalid(Message.emailNotValid) }
  }

  @Test func registeredGoesToLoginWithEmailPrefilled() {
    var store = typedIn("registered@email.com")
    store.send(
      email(.enterPressed), effects: [.run(.checkEmail, .checkEmail("registered@email.com"))]
    ) {
      $0.getStarted.phase = .running
      $0.getStarted.focus = .next
    }
    store.send(.getStarted(.checkEmailResponse(.success(true)))) {
      $0.getStarted.phase = .idle
      $0.signedOut.path = [.login(LoginForm(email: "registered@email.com"))]
    }
    #expect(store.state.login.focus == .password)
    #expect(!store.state.isBusy)
  }

  @Test func unregisteredGoesToSignupWithEmailPrefilled() {
    var store = typedIn("new@email.com")
    store.send(email(.enterPressed), effects: [.run(.checkEmail, .checkEmail("new@email.com"))]) {
      $0.getStarted.phase = .running
      $0.getStarted.focus = .next
    }
    store.send(.getStarted(.checkEmailResponse(.success(false)))) {
      $0.getStarted.phase = .idle
      $0.signedOut.path = [.signup(SignupForm(email: "new@email.com"))]
    }
    #expect(store.state.signup.focus == .password)
  }

  @Test(arguments: [FormAction.enterPressed, .escapePressed])
  func cancelByButtonOrEscReturnsToRestWithoutMessage(cancel: FormAction) {
    var store = typedIn("a@b.co")
    store.send(email(.enterPressed), effects: [.run(.checkEmail, .checkEmail("a@b.co"))]) {
      $0.getStarted.phase = .running
      $0.getStarted.focus = .next
    }
    store.send(email(cancel), effects: [.cancel(.checkEmail)]) { $0.getStarted.phase = .idle }
    // A late answer for the cancelled request changes nothing.
    store.send(.getStarted(.checkEmailResponse(.success(true))))
  }

  @Test func failureShowsMessageAndTryAgainRetries() {
    var store = typedIn("a@b.co")
    store.send(email(.enterPressed), effects: [.run(.checkEmail, .checkEmail("a@b.co"))]) {
      $0.getStarted.phase = .running
      $0.getStarted.focus = .next
    }
    store.send(.getStarted(.checkEmailResponse(.failure(.network)))) {
      $0.getStarted.phase = .failed(Message.noConnection)
    }
    #expect(store.state.getStarted.phase.buttonTitle(rest: "Next") == "Try again")
    store.send(email(.enterPressed), effects: [.run(.checkEmail, .checkEmail("a@b.co"))]) {
      $0.getStarted.phase = .running
    }
  }

  @Test func keysDoNotEditWhileRunning() {
    var store = typedIn("a@b.co")
    store.send(email(.enterPressed), effects: [.run(.checkEmail, .checkEmail("a@b.co"))]) {
      $0.getStarted.phase = .running
      $0.getStarted.focus = .next
    }
    store.type("zzz", as: email) { _ in }
    store.send(email(.focusMoved(.backward)))
    store.send(email(.pasted("x")))
  }

  @Test func escAtRestDoesNothing() {
    var store = TestStore(.launch(with: .none))
    store.send(email(.escapePressed))
  }

  @Test func spinnerTurnsOnlyWhileBusy() {
    var store = typedIn("a@b.co")
    store.send(.spinnerTicked)
    store.send(email(.enterPressed), effects: [.run(.checkEmail, .checkEmail("a@b.co"))]) {
      $0.getStarted.phase = .running
      $0.getStarted.focus = .next
    }
    store.send(.spinnerTicked) { $0.spinnerFrame = 1 }
    store.send(.spinnerTicked) { $0.spinnerFrame = 2 }
  }

  @Test func focusWrapsBothWays() {
    var store = TestStore(.launch(with: .none))
    store.send(email(.focusMoved(.forward))) { $0.getStarted.focus = .next }
    store.send(email(.focusMoved(.forward))) { $0.getStarted.focus = .browseClasses }
    store.send(email(.focusMoved(.forward))) { $0.getStarted.focus = .email }
    store.send(email(.focusMoved(.backward))) { $0.getStarted.focus = .browseClasses }
  }

  @Test func pasteWithNewlineNeverSubmits() {
    var store = TestStore(.launch(with: .none))
    store.send(email(.pasted("a@b.co\n"))) {
      $0.getStarted.email = typed("a@b.co", limit: FieldLimit.email)
    }
  }

  @Test func aNoticeOutlivesAScreenChangeAndClearsOnTheNextKey() {
    var store = typedIn("a@b.co")
    store.send(email(.enterPressed), effects: [.run(.checkEmail, .checkEmail("a@b.co"))]) {
      $0.getStarted.phase = .running
      $0.getStarted.focus = .next
    }
    store.send(.noticeRaised("accounts.json was moved aside")) {
      $0.notice = "accounts.json was moved aside"
    }
    store.send(.getStarted(.checkEmailResponse(.success(true)))) {
      $0.getStarted.phase = .idle
      $0.signedOut.path = [.login(LoginForm(email: "a@b.co"))]
    }
    store.send(.login(.form(.textEdited(.insert("x"))))) {
      $0.notice = nil
      $0.login.password = typed("x", limit: FieldLimit.password)
    }
  }

  @Test func quitAndNoticesWorkAnywhere() {
    var store = TestStore(.launch(with: .none, notice: "accounts.json was moved aside"))
    store.send(.quitPressed, effects: [.quit(status: 0)])
    store.send(.interruptPressed, effects: [.quit(status: 130)])
    // Raised while the launch's notice still stands: both are said.
    store.send(.noticeRaised("hello")) { $0.notice = "accounts.json was moved aside; hello" }
  }
}
