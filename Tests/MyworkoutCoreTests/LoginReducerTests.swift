import Testing

@testable import MyworkoutCore

@Suite struct LoginReducerTests {
  let login: (FormAction) -> Action = { .login(.form($0)) }

  /// Login on top of Get started, opened for this email.
  func onLogin(email: String = "registered@email.com") -> TestStore {
    TestStore(.showing(.login(LoginForm(email: email))))
  }

  /// Login with the password typed and `Log in` pressed: the request runs.
  func loggingIn(email: String = "registered@email.com", password: String = "password")
    -> TestStore
  {
    var store = onLogin(email: email)
    store.type(password, as: login) {
      $0.login.password = typed(password, limit: FieldLimit.password)
    }
    store.send(
      login(.enterPressed), effects: [.run(.logIn, .logIn(email: email, password: password))]
    ) {
      $0.login.phase = .running
      $0.login.focus = .logIn
    }
    return store
  }

  @Test func opensOnThePasswordWhenTheEmailIsPrefilled() {
    #expect(LoginForm(email: "registered@email.com").focus == .password)
    #expect(LoginForm(email: "").focus == .email)
  }

  @Test func enterMovesFromEmailToPasswordThenSubmitsTheNormalizedEmail() {
    var store = onLogin(email: "")
    store.type(" Registered@Email.com", as: login) {
      $0.login.email = typed(" Registered@Email.com", limit: FieldLimit.email)
    }
    store.send(login(.enterPressed)) { $0.login.focus = .password }
    store.type("password", as: login) {
      $0.login.password = typed("password", limit: FieldLimit.password)
    }
    store.send(
      login(.enterPressed),
      effects: [.run(.logIn, .logIn(email: "registered@email.com", password: "password"))]
    ) {
      $0.login.phase = .running
      $0.login.focus = .logIn
    }
    #expect(store.state.login.phase.buttonTitle(rest: "Log in") == "Cancel")
    #expect(store.state.running == [.logIn])
  }

  @Test func validCredentialsOpenProfileAndSaveTheSession() {
    var store = loggingIn()
    store.send(
      .login(.logInResponse(.success(Sample.session))), effects: [.saveSession(Sample.session)]
    ) {
      $0.root = .signedIn(SignedIn(session: Sample.session))
    }
    #expect(store.state.screen == .profile(ProfileState(), Sample.session))
    #expect(store.state.profile.focus == .edit)
    #expect(!store.state.isBusy)
  }

  @Test func wrongPasswordShowsTheServiceMessageUntilAnEdit() {
    var store = loggingIn(password: "nope")
    store.send(.login(.logInResponse(.failure(.wrongCredentials)))) {
      $0.login.phase = .failed(Message.wrongCredentials)
    }
    #expect(store.state.login.phase.message == "Wrong email or password")
    #expect(store.state.login.phase.buttonTitle(rest: "Log in") == "Try again")
    store.send(login(.focusMoved(.backward))) { $0.login.focus = .password }
    // Moving the cursor is not an edit: the message stays.
    store.send(login(.textEdited(.moveLeft))) { $0.login.password.moveLeft() }
    store.send(login(.textEdited(.deleteBackward))) {
      $0.login.password.deleteBackward()
      $0.login.phase = .idle
    }
    #expect(store.state.login.password.text == "noe")
    #expect(store.state.login.phase.buttonTitle(rest: "Log in") == "Log in")
  }

  @Test func tryAgainSendsTheRequestAgain() {
    var store = loggingIn()
    store.send(.login(.logInResponse(.failure(.timedOut)))) {
      $0.login.phase = .failed(Message.timedOut)
    }
    store.send(
      login(.enterPressed),
      effects: [.run(.logIn, .logIn(email: "registered@email.com", password: "password"))]
    ) {
      $0.login.phase = .running
    }
  }

  @Test func unknownEmailShowsNoAccount() {
    var store = loggingIn(email: "ghost@email.com", password: "whatever")
    store.send(.login(.logInResponse(.failure(.noAccount)))) {
      $0.login.phase = .failed(Message.noAccount)
    }
    #expect(store.state.login.phase.message == "No account exists for this email")
  }

  @Test func emptyPasswordIsRefusedOnTheSpotAndFocused() {
    var store = onLogin()
    store.send(login(.focusMoved(.forward))) { $0.login.focus = .logIn }
    store.send(login(.enterPressed)) {
      $0.login.phase = .invalid(Message.allFieldsRequired)
      $0.login.focus = .password
    }
    #expect(store.state.login.phase.buttonTitle(rest: "Log in") == "Log in")
  }

  @Test func emptyEmailIsRefusedFirstAndFocused() {
    var store = onLogin(email: "")
    store.send(login(.enterPressed)) { $0.login.focus = .password }
    store.send(login(.enterPressed)) {
      $0.login.phase = .invalid(Message.allFieldsRequired)
      $0.login.focus = .email
    }
  }

  @Test func malformedEmailIsRefusedAndFocusedUntilFixed() {
    var store = onLogin(email: "bad@")
    store.type("password", as: login) {
      $0.login.password = typed("password", limit: FieldLimit.password)
    }
    store.send(login(.enterPressed)) {
      $0.login.phase = .invalid(Message.emailNotValid)
      $0.login.focus = .email
    }
    #expect(store.state.login.validity(of: .email) == .invalid)
    store.type("x.io", as: login) {
      $0.login.email = typed("bad@x.io", limit: FieldLimit.email)
      $0.login.phase = .idle
    }
    #expect(store.state.login.validity(of: .email) == .valid)
  }

  @Test func cancelButtonAndEscReturnToGetStartedWithTheEmail() {
    let back = SignedOut(getStarted: GetStartedForm(email: "registered@email.com"))

    var byButton = onLogin()
    byButton.send(login(.focusMoved(.forward))) { $0.login.focus = .logIn }
    byButton.send(login(.focusMoved(.forward))) { $0.login.focus = .cancel }
    byButton.send(login(.enterPressed)) { $0.signedOut = back }

    var byEsc = onLogin()
    byEsc.send(login(.escapePressed)) { $0.signedOut = back }
    #expect(byEsc.state.getStarted.focus == .email)
  }

  @Test(arguments: [FormAction.enterPressed, .escapePressed])
  func cancelDuringTheRequestStopsItAndStays(cancel: FormAction) {
    var store = loggingIn()
    store.send(login(cancel), effects: [.cancel(.logIn)]) { $0.login.phase = .idle }
    #expect(store.state.login.phase.buttonTitle(rest: "Log in") == "Log in")
    // A late answer for the cancelled request changes nothing.
    store.send(.login(.logInResponse(.success(Sample.session))))
  }

  @Test func keysDoNotEditWhileRunning() {
    var store = loggingIn()
    store.type("zzz", as: login) { _ in }
    store.send(login(.focusMoved(.backward)))
    store.send(login(.pasted("x")))
  }

  @Test func createAccountOpensSignupWithTheEmail() {
    var store = onLogin()
    store.send(login(.focusMoved(.backward))) { $0.login.focus = .email }
    store.send(login(.focusMoved(.backward))) { $0.login.focus = .createAccount }
    store.send(login(.enterPressed)) {
      $0.signedOut.path = [.signup(SignupForm(email: "registered@email.com"))]
    }
    #expect(store.state.signup.focus == .password)
  }

  @Test func revealToggles() {
    var store = onLogin()
    store.send(login(.revealToggled)) { $0.login.revealsPassword = true }
    store.send(login(.revealToggled)) { $0.login.revealsPassword = false }
  }
}
