import Testing

@testable import MyworkoutCore

@Suite struct SignupReducerTests {
  func filled() -> AppState {
    var state = Sample.state(.signup(SignupForm(email: "New@Email.com")))
    state.type("secret!!")
    state.send(.enterPressed, .pickerStepped(.forward), .enterPressed)
    state.type("012-345 6789")
    state.send(.enterPressed)
    state.type("Zoë")
    state.send(.enterPressed)
    state.type("中文")
    return state
  }

  @Test func fullFormSignsUpFromTheLastField() {
    var state = filled()
    let effects = state.send(.enterPressed)
    let expected = Registration(
      password: "secret!!",
      profile: Profile(
        email: "new@email.com", gender: .female, mobile: "+60123456789", firstName: "Zoë",
        lastName: "中文"))
    #expect(effects == [.signUp(expected)])
    #expect(state.signup?.focus == .signUp)
    #expect(state.signup?.phase == .running)
  }

  @Test func successShowsProfileAndSavesTheSession() {
    var state = filled()
    state.send(.enterPressed)
    #expect(state.send(.signUpResponse(.success(Sample.session))) == [.saveSession(Sample.session)])
    #expect(state.profile?.session == Sample.session)
  }

  @Test func existingEmailShowsTheServiceMessage() {
    var state = filled()
    state.send(.enterPressed, .signUpResponse(.failure(.emailExists)))
    #expect(state.signup?.phase == .failed(Message.emailExists))
    #expect(state.signup?.phase.buttonTitle(rest: "Sign up") == "Try again")
  }

  @Test func pickerStepsBothWaysFromNoChoice() {
    #expect(SignupReducer.step(nil, .forward) == .female)
    #expect(SignupReducer.step(nil, .backward) == .preferNotToSay)
    #expect(SignupReducer.step(.female, .forward) == .male)
    #expect(SignupReducer.step(.male, .forward) == .nonBinary)
    #expect(SignupReducer.step(.preferNotToSay, .forward) == .female)
    #expect(SignupReducer.step(.female, .backward) == .preferNotToSay)
  }

  @Test func pickerOnlyStepsWhenFocused() {
    var state = Sample.state(.signup(SignupForm(email: "a@b.co")))
    state.send(.pickerStepped(.forward))
    #expect(state.signup?.gender == nil)
  }

  @Test func eachInvalidFieldSpeaksInScreenOrder() {
    var state = Sample.state(.signup(SignupForm(email: "")))
    state.send(.focusMoved(.backward))
    #expect(state.signup?.focus == .cancel)
    state.send(.focusMoved(.backward))
    #expect(state.send(.enterPressed).isEmpty)
    #expect(state.signup?.phase == .invalid(Message.completeTheForm))
  }

  @Test func cancelAndEscReturnWithTheEmail() {
    var byButton = Sample.state(.signup(SignupForm(email: "x@y.io")))
    byButton.send(.focusMoved(.backward), .focusMoved(.backward), .enterPressed)
    #expect(byButton.getStarted?.email.text == "x@y.io")
    var byEsc = Sample.state(.signup(SignupForm(email: "x@y.io")))
    byEsc.send(.escapePressed)
    #expect(byEsc.getStarted?.email.text == "x@y.io")
  }

  @Test func escDuringRequestCancels() {
    var state = filled()
    state.send(.enterPressed)
    #expect(state.send(.escapePressed) == [.cancelRequest])
    #expect(state.signup?.phase == .idle)
    #expect(state.send(.signUpResponse(.success(Sample.session))).isEmpty)
  }
}
