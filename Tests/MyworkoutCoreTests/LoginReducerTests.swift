import Testing

@testable import MyworkoutCore

@Suite struct LoginReducerTests {
  func loginState(email: String = "registered@email.com") -> AppState {
    Sample.state(.login(LoginForm(email: email)))
  }

  @Test func enterMovesFromEmailToPasswordThenSubmits() {
    var state = Sample.state(.login(LoginForm(email: "")))
    #expect(state.login?.focus == .email)
    state.type("registered@email.com")
    state.send(.enterPressed)
    #expect(state.login?.focus == .password)
    state.type("password")
    #expect(
      state.send(.enterPressed) == [.logIn(email: "registered@email.com", password: "password")])
    #expect(state.login?.phase == .running)
    #expect(state.login?.focus == .logIn)
  }

  @Test func validCredentialsShowProfileAndSaveTheSession() {
    var state = loginState()
    state.type("password")
    state.send(.enterPressed)
    #expect(state.send(.logInResponse(.success(Sample.session))) == [.saveSession(Sample.session)])
    #expect(state.profile == ProfileScreen(content: .signedIn(Sample.session)))
    #expect(state.profile?.focus == .edit)
  }

  @Test func wrongPasswordShowsTheServiceMessage() {
    var state = loginState()
    state.type("nope")
    state.send(.enterPressed, .logInResponse(.failure(.wrongCredentials)))
    #expect(state.login?.phase == .failed(Message.wrongCredentials))
    #expect(state.login?.phase.buttonTitle(rest: "Log in") == "Try again")
    state.send(.focusMoved(.backward), .textEdited(.deleteBackward))
    #expect(state.login?.phase == .idle, "editing clears the error and the title")
  }

  @Test func unknownEmailShowsNoAccount() {
    var state = loginState(email: "ghost@email.com")
    state.type("whatever")
    state.send(.enterPressed, .logInResponse(.failure(.noAccount)))
    #expect(state.login?.phase.message == Message.noAccount)
  }

  @Test func emptyFieldsAreRefusedOnTheSpot() {
    var state = loginState()
    state.send(.focusMoved(.forward))
    #expect(state.send(.enterPressed).isEmpty)
    #expect(state.login?.phase == .invalid(Message.allFieldsRequired))
  }

  @Test func malformedEmailIsRefused() {
    var state = loginState(email: "bad@")
    state.type("password")
    state.send(.enterPressed)
    #expect(state.login?.phase == .invalid(Message.emailNotValid))
  }

  @Test func cancelButtonAndEscReturnToGetStartedKeepingTheEmail() {
    var byButton = loginState()
    byButton.send(.focusMoved(.forward), .focusMoved(.forward))
    #expect(byButton.login?.focus == .cancel)
    byButton.send(.enterPressed)
    #expect(byButton.getStarted?.email.text == "registered@email.com")

    var byEsc = loginState()
    byEsc.send(.escapePressed)
    #expect(byEsc.getStarted?.email.text == "registered@email.com")
  }

  @Test func escDuringRequestCancelsItAndStays() {
    var state = loginState()
    state.type("password")
    state.send(.enterPressed)
    #expect(state.send(.escapePressed) == [.cancelRequest])
    #expect(state.login?.phase == .idle)
    #expect(state.login?.phase.buttonTitle(rest: "Log in") == "Log in")
    #expect(state.send(.logInResponse(.success(Sample.session))).isEmpty)
    #expect(state.login != nil)
  }

  @Test func createAccountGoesToSignupWithTheEmail() {
    var state = loginState()
    state.send(.focusMoved(.backward), .focusMoved(.backward))
    #expect(state.login?.focus == .createAccount)
    state.send(.enterPressed)
    #expect(state.signup?.email.text == "registered@email.com")
  }

  @Test func revealToggles() {
    var state = loginState()
    state.send(.revealToggled)
    #expect(state.login?.revealsPassword == true)
    state.send(.revealToggled)
    #expect(state.login?.revealsPassword == false)
  }
}
