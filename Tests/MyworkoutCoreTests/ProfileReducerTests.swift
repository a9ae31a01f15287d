import Testing

@testable import MyworkoutCore

@Suite struct ProfileReducerTests {
  let signedIn = AppState.launch(with: .valid(Sample.session))

  @Test func relaunchWithSessionOpensProfileWithoutEffects() {
    #expect(signedIn.profile?.session == Sample.session)
    #expect(signedIn.profile?.focus == .edit)
  }

  @Test func invalidSessionShowsExpiredAndLeadsBack() {
    var state = AppState.launch(with: .invalid)
    #expect(state.profile?.content == .expired)
    #expect(state.send(.enterPressed).isEmpty, "the stale session was already cleared")
    #expect(state.getStarted == GetStartedForm())
  }

  @Test func logOutByButtonOrLetterDeletesTheSession() {
    var byLetter = signedIn
    #expect(byLetter.send(.logOutPressed) == [.deleteSession])
    #expect(byLetter.getStarted == GetStartedForm())

    var byButton = signedIn
    byButton.send(.focusMoved(.forward))
    #expect(byButton.send(.enterPressed) == [.deleteSession])
    #expect(byButton.getStarted != nil)
  }

  @Test func editOpensDialogWithTheNumber() {
    var state = signedIn
    state.send(.editNumberPressed)
    #expect(state.profile?.dialog?.mobile.text == "+60 12-345 6789")
    #expect(state.profile?.dialog?.focus == .mobile)
  }

  @Test func savingAValidNumberUpdatesAndConfirms() {
    var state = signedIn
    state.send(.enterPressed, .textEdited(.deleteToStart))
    state.type("011-1234 5678")
    #expect(
      state.send(.enterPressed)
        == [.updateMobile(token: Sample.session.token, mobile: "+601112345678")])
    #expect(state.profile?.dialog?.phase == .running)
    var updated = Sample.session
    updated.profile.mobile = "+601112345678"
    #expect(state.send(.editNumberResponse(.success(updated))) == [.saveSession(updated)])
    #expect(state.profile?.dialog == nil)
    #expect(state.profile?.session == updated)
    #expect(state.profile?.confirmation == Message.numberEdited)
  }

  @Test func invalidNumberIsRefusedInTheDialog() {
    var state = signedIn
    state.send(.editNumberPressed, .textEdited(.deleteToStart))
    state.type("123")
    #expect(state.send(.enterPressed).isEmpty)
    #expect(state.profile?.dialog?.phase == .invalid(Message.mobileNotValid))
  }

  @Test func escCancelsTheRequestThenClosesTheDialog() {
    var state = signedIn
    state.send(.editNumberPressed, .enterPressed)
    #expect(state.send(.escapePressed) == [.cancelRequest])
    #expect(state.profile?.dialog?.phase == .idle)
    #expect(state.send(.escapePressed).isEmpty)
    #expect(state.profile?.dialog == nil)
    #expect(state.profile?.session == Sample.session)
  }

  @Test func lettersGoIntoTheDialogField() {
    var state = signedIn
    state.send(.editNumberPressed)
    #expect(state.send(.logOutPressed).isEmpty, "no logout while the dialog is open")
    #expect(state.profile?.dialog != nil)
  }

  @Test func expiredTokenDuringEditShowsTheMessage() {
    var state = signedIn
    state.send(.editNumberPressed, .enterPressed)
    #expect(state.send(.editNumberResponse(.failure(.sessionExpired))) == [.deleteSession])
    #expect(state.profile?.content == .expired)
  }

  @Test func serviceFailureStaysInTheDialog() {
    var state = signedIn
    state.send(.editNumberPressed, .enterPressed)
    state.send(.editNumberResponse(.failure(.storage("Disk full"))))
    #expect(state.profile?.dialog?.phase == .failed("Disk full"))
  }

  @Test func sessionExpiringWhileOpenShowsTheMessage() {
    var state = signedIn
    state.send(.editNumberPressed, .enterPressed)
    #expect(state.send(.sessionExpired) == [.cancelRequest, .deleteSession])
    #expect(state.profile?.content == .expired)
    #expect(state.send(.sessionExpired).isEmpty)
  }

  @Test func focusMovesBetweenButtons() {
    var state = signedIn
    state.send(.focusMoved(.forward))
    #expect(state.profile?.focus == .logOut)
    state.send(.focusMoved(.forward))
    #expect(state.profile?.focus == .edit)
  }
}
