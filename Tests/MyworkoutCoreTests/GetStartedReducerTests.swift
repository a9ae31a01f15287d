import Testing

@testable import MyworkoutCore

@Suite struct GetStartedReducerTests {
  @Test func launchWithoutSessionOpensGetStartedOnTheEmail() {
    let state = AppState.launch(with: .none)
    #expect(state.getStarted == GetStartedForm())
    #expect(state.getStarted?.focus == .email)
  }

  @Test func nextWithValidEmailChecksItAndShowsCancel() {
    var state = AppState.launch(with: .none)
    state.type(" Registered@Email.com ")
    let effects = state.send(.enterPressed)
    #expect(effects == [.checkEmail("registered@email.com")])
    #expect(state.getStarted?.phase == .running)
    #expect(state.getStarted?.phase.buttonTitle(rest: "Next") == "Cancel")
    #expect(state.getStarted?.focus == .next)
    #expect(state.isBusy)
  }

  @Test func emptyOrMalformedEmailIsRefusedWithoutRequest() {
    var state = AppState.launch(with: .none)
    #expect(state.send(.enterPressed).isEmpty)
    #expect(state.getStarted?.phase == .invalid(Message.emailNotValid))
    state.type("not-an-email")
    #expect(state.getStarted?.phase == .idle, "editing clears the message")
    #expect(state.send(.focusMoved(.forward), .enterPressed).isEmpty)
    #expect(state.getStarted?.phase == .invalid(Message.emailNotValid))
  }

  @Test func registeredGoesToLoginWithEmailPrefilled() {
    var state = AppState.launch(with: .none)
    state.type("registered@email.com")
    state.send(.enterPressed, .checkEmailResponse(.success(true)))
    #expect(state.login?.email.text == "registered@email.com")
    #expect(state.login?.focus == .password)
    #expect(!state.isBusy)
  }

  @Test func unregisteredGoesToSignupWithEmailPrefilled() {
    var state = AppState.launch(with: .none)
    state.type("new@email.com")
    state.send(.enterPressed, .checkEmailResponse(.success(false)))
    #expect(state.signup?.email.text == "new@email.com")
    #expect(state.signup?.focus == .password)
  }

  @Test func cancelByButtonOrEscReturnsToRestWithoutMessage() {
    for cancel in [Action.enterPressed, .escapePressed] {
      var state = AppState.launch(with: .none)
      state.type("a@b.co")
      state.send(.enterPressed)
      #expect(state.send(cancel) == [.cancelRequest])
      #expect(state.getStarted?.phase == .idle)
      #expect(state.getStarted?.email.text == "a@b.co")
      #expect(state.send(.checkEmailResponse(.success(true))).isEmpty, "a late answer is ignored")
      #expect(state.getStarted != nil)
    }
  }

  @Test func failureShowsMessageAndTryAgain() {
    var state = AppState.launch(with: .none)
    state.type("a@b.co")
    state.send(.enterPressed, .checkEmailResponse(.failure(.storage("Disk full"))))
    #expect(state.getStarted?.phase == .failed("Disk full"))
    #expect(state.getStarted?.phase.buttonTitle(rest: "Next") == "Try again")
    #expect(state.send(.enterPressed) == [.checkEmail("a@b.co")], "try again retries")
  }

  @Test func keysDoNotEditWhileRunning() {
    var state = AppState.launch(with: .none)
    state.type("a@b.co")
    state.send(.enterPressed)
    state.type("zzz")
    state.send(.focusMoved(.backward), .pasted("x"))
    #expect(state.getStarted?.email.text == "a@b.co")
    #expect(state.getStarted?.focus == .next)
  }

  @Test func escAtRestDoesNothing() {
    var state = AppState.launch(with: .none)
    #expect(state.send(.escapePressed).isEmpty)
    #expect(state.getStarted == GetStartedForm())
  }

  @Test func spinnerTurnsOnlyWhileBusy() {
    var state = AppState.launch(with: .none)
    state.send(.spinnerTicked)
    #expect(state.spinnerFrame == 0)
    state.type("a@b.co")
    state.send(.enterPressed, .spinnerTicked, .spinnerTicked)
    #expect(state.spinnerFrame == 2)
  }

  @Test func focusWrapsBothWays() {
    var state = AppState.launch(with: .none)
    state.send(.focusMoved(.forward))
    #expect(state.getStarted?.focus == .next)
    state.send(.focusMoved(.forward))
    #expect(state.getStarted?.focus == .email)
    state.send(.focusMoved(.backward))
    #expect(state.getStarted?.focus == .next)
  }

  @Test func pasteWithNewlineNeverSubmits() {
    var state = AppState.launch(with: .none)
    let effects = state.send(.pasted("a@b.co\n"))
    #expect(effects.isEmpty)
    #expect(state.getStarted?.email.text == "a@b.co")
    #expect(state.getStarted?.phase == .idle)
  }

  @Test func aNoticeOutlivesAScreenChangeAndClearsOnTheNextKey() {
    var state = AppState.launch(with: .none)
    state.type("a@b.co")
    state.send(.enterPressed, .noticeRaised("accounts.json was moved aside"))
    state.send(.checkEmailResponse(.success(true)))
    #expect(state.login != nil)
    #expect(state.notice == "accounts.json was moved aside")
    state.type("x")
    #expect(state.notice == nil)
  }

  @Test func quitAndNoticesWorkAnywhere() {
    var state = AppState.launch(with: .none, notice: "accounts.json was moved aside")
    #expect(state.notice == "accounts.json was moved aside")
    #expect(state.send(.quitPressed) == [.quit(status: 0)])
    state.send(.noticeRaised("hello"))
    #expect(state.notice == "hello")
  }
}
