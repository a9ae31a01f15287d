import Testing

@testable import MyworkoutCore

@Suite struct ProfileReducerTests {
  let profile: (FormAction) -> Action = { .profile(.form($0)) }

  /// Profile for the sample session with the Edit-number dialog open (by `e`).
  func withDialog() -> TestStore {
    var store = TestStore(.signedInSample)
    store.send(.profile(.editNumberPressed)) {
      $0.profile.dialog = EditNumberDialog(mobile: "+60 12-345 6789")
    }
    return store
  }

  /// The dialog's prefilled number saved as it is: the request runs.
  func saving() -> TestStore {
    var store = withDialog()
    store.send(
      profile(.enterPressed),
      effects: [
        .run(.editNumber, .updateMobile(token: Sample.session.token, mobile: "+60123456789"))
      ]
    ) {
      $0.profile.dialog?.phase = .running
      $0.profile.dialog?.focus = .save
    }
    return store
  }

  @Test func relaunchWithSessionOpensProfileWithoutARequest() {
    let state = AppState.launch(with: .valid(Sample.session))
    #expect(state.root == .signedIn(SignedIn(session: Sample.session, profile: ProfileState())))
    #expect(state.screen == .profile(ProfileState(), Sample.session))
    #expect(state.profile.focus == .edit)
    #expect(!state.isBusy)
  }

  @Test func focusMovesBetweenTheButtonsAndWraps() {
    let stops = ProfileState.Focus.allCases
    #expect(stops.first == .edit)
    var store = TestStore(.signedInSample)
    for stop in stops.dropFirst() + [.edit] {
      store.send(profile(.focusMoved(.forward))) { $0.profile.focus = stop }
    }
    store.send(profile(.focusMoved(.backward))) { $0.profile.focus = stops[stops.count - 1] }
  }

  @Test func logOutByLetterOrButtonDeletesTheSessionAndPrefillsTheEmail() {
    let back = SignedOut(getStarted: GetStartedForm(email: "registered@email.com"))

    var byLetter = TestStore(.signedInSample)
    byLetter.send(.logOutPressed, effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(back)
    }
    #expect(byLetter.state.getStarted.focus == .email)

    var byButton = TestStore(.signedInSample)
    for stop in ProfileState.Focus.allCases.dropFirst().prefix(while: { $0 != .logOut }) + [.logOut]
    {
      byButton.send(profile(.focusMoved(.forward))) { $0.profile.focus = stop }
    }
    byButton.send(profile(.enterPressed), effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(back)
    }
  }

  @Test func editByLetterOrButtonOpensTheDialogWithTheNumber() {
    let byLetter = withDialog()
    #expect(byLetter.state.profile.dialog?.mobile.text == "+60 12-345 6789")
    #expect(byLetter.state.profile.dialog?.focus == .mobile)

    var byButton = TestStore(.signedInSample)
    byButton.send(profile(.enterPressed)) {
      $0.profile.dialog = EditNumberDialog(mobile: "+60 12-345 6789")
    }
  }

  @Test func savingAValidNumberRenewsTheSessionAndConfirms() {
    var store = withDialog()
    store.send(profile(.textEdited(.deleteToStart))) {
      $0.profile.dialog?.mobile = cleared(limit: FieldLimit.mobile)
    }
    store.type("011-1234 5678", as: profile) {
      $0.profile.dialog?.mobile = typed("011-1234 5678", limit: FieldLimit.mobile)
    }
    store.send(
      profile(.enterPressed),
      effects: [
        .run(.editNumber, .updateMobile(token: Sample.session.token, mobile: "+601112345678"))
      ]
    ) {
      $0.profile.dialog?.phase = .running
      $0.profile.dialog?.focus = .save
    }
    #expect(store.state.running == [.editNumber])
    store.send(
      .profile(.editNumberResponse(.success(Sample.renewed))),
      effects: [.renewSession(Sample.renewed)]
    ) {
      $0.profile.dialog = nil
      $0.profile.confirmation = Message.numberEdited
      $0.signedIn.session = Sample.renewed
    }
    #expect(store.state.profile.confirmation == "Number was edited successfully")
    #expect(!store.state.isBusy)
    // Opening the dialog again shows the new number and drops the confirmation.
    store.send(.profile(.editNumberPressed)) {
      $0.profile.dialog = EditNumberDialog(mobile: "+60 11-1234 5678")
      $0.profile.confirmation = nil
    }
  }

  /// A spec walk-through: `Number was edited successfully` belongs to the moment of the edit;
  /// leaving Profile for Classes, Lessons or Images clears it, so it is gone on coming back.
  @Test func leavingProfileClearsTheConfirmation() {
    var store = saving()
    store.send(
      .profile(.editNumberResponse(.success(Sample.renewed))),
      effects: [.renewSession(Sample.renewed)]
    ) {
      $0.profile.dialog = nil
      $0.profile.confirmation = Message.numberEdited
      $0.signedIn.session = Sample.renewed
    }
    let edited = store.state
    store.send(
      .profile(.classesPressed),
      effects: [.run(.catalogSearch, .catalogPage(query: "", offset: 0, limit: 50))]
    ) {
      $0.signedIn.path = [.classes(ClassesState())]
      $0.profile.confirmation = nil
    }
    store.send(.classes(.escapePressed)) { $0.signedIn.path = [] }
    #expect(store.state.profile.confirmation == nil)

    for opening in [ProfileAction.lessonsPressed, .imagesPressed] {
      var state = edited
      _ = reduce(&state, .profile(opening))
      #expect(state.signedIn.path.count == 1)
      #expect(state.profile.confirmation == nil, "\(opening)")
    }
  }

  @Test func invalidNumberIsRefusedInTheDialogAndFocused() {
    var store = withDialog()
    store.send(profile(.textEdited(.deleteToStart))) {
      $0.profile.dialog?.mobile = cleared(limit: FieldLimit.mobile)
    }
    store.type("123", as: profile) {
      $0.profile.dialog?.mobile = typed("123", limit: FieldLimit.mobile)
    }
    store.send(profile(.focusMoved(.forward))) { $0.profile.dialog?.focus = .save }
    store.send(profile(.enterPressed)) {
      $0.profile.dialog?.phase = .invalid(Message.mobileNotValid)
      $0.profile.dialog?.focus = .mobile
    }
    #expect(store.state.profile.dialog?.phase.message == "Mobile number is not valid")
    #expect(store.state.profile.dialog?.validity(of: .mobile) == .invalid)
  }

  @Test func escCancelsTheRequestThenClosesTheDialog() {
    var store = saving()
    store.send(profile(.escapePressed), effects: [.cancel(.editNumber)]) {
      $0.profile.dialog?.phase = .idle
    }
    store.send(profile(.escapePressed)) { $0.profile.dialog = nil }
    // A failure for the cancelled request changes nothing.
    store.send(.profile(.editNumberResponse(.failure(.storage("Disk full")))))
    #expect(store.state.signedIn.session == Sample.session)
  }

  /// The only answer that reaches a cancelled edit is one whose number was saved before the
  /// cancel came (the runner's `CommitGate`): the screen says so, at rest or after the dialog
  /// closed (a walk-through's cancelled edit was saved and shown only after a relaunch).
  @Test func aNumberSavedBeforeItsCancelCameIsShown() {
    var atRest = saving()
    atRest.send(profile(.escapePressed), effects: [.cancel(.editNumber)]) {
      $0.profile.dialog?.phase = .idle
    }
    atRest.send(
      .profile(.editNumberResponse(.success(Sample.renewed))),
      effects: [.renewSession(Sample.renewed)]
    ) {
      $0.profile.dialog = nil
      $0.profile.confirmation = Message.numberEdited
      $0.signedIn.session = Sample.renewed
    }
    var closed = saving()
    closed.send(profile(.escapePressed), effects: [.cancel(.editNumber)]) {
      $0.profile.dialog?.phase = .idle
    }
    closed.send(profile(.escapePressed)) { $0.profile.dialog = nil }
    closed.send(
      .profile(.editNumberResponse(.success(Sample.renewed))),
      effects: [.renewSession(Sample.renewed)]
    ) {
      $0.profile.confirmation = Message.numberEdited
      $0.signedIn.session = Sample.renewed
    }
  }

  @Test func saveReadsCancelWhileRunningAndCancels() {
    var store = saving()
    #expect(store.state.profile.dialog?.phase.buttonTitle(rest: "Save") == "Cancel")
    store.send(profile(.enterPressed), effects: [.cancel(.editNumber)]) {
      $0.profile.dialog?.phase = .idle
    }
  }

  @Test func cancelButtonClosesTheDialog() {
    var store = withDialog()
    store.send(profile(.focusMoved(.backward))) { $0.profile.dialog?.focus = .cancel }
    store.send(profile(.enterPressed)) { $0.profile.dialog = nil }
  }

  @Test func lettersGoIntoTheDialogField() {
    var store = withDialog()
    store.send(profile(.textEdited(.insert("l")))) { $0.profile.dialog?.mobile.insert("l") }
    // `e` while the dialog is open does not reopen it.
    store.send(.profile(.editNumberPressed))
  }

  @Test func keysOnProfileWithoutADialogEditNothing() {
    var store = TestStore(.signedInSample)
    store.send(profile(.textEdited(.insert("x"))))
    store.send(profile(.pasted("x")))
    store.send(profile(.escapePressed))
    store.send(.profile(.editNumberResponse(.failure(.storage("Disk full")))))
  }

  @Test(arguments: [ServiceError.sessionExpired, .unauthorized])
  func aRefusedSessionDuringEditShowsTheExpiryScreen(error: ServiceError) {
    var store = saving()
    // The answer ended its own request: nothing is left to cancel.
    store.send(
      .profile(.editNumberResponse(.failure(error))), effects: [.endSession(Sample.session)]
    ) {
      $0.root = .signedOut(
        SignedOut(path: [.sessionExpired(SessionExpiredScreen(email: "registered@email.com"))]))
    }
    #expect(store.state.screen.kind == .sessionExpired)
    #expect(subscriptions(store.state).isEmpty)
  }

  @Test(arguments: [
    (ServiceError.storage("Disk full"), "Disk full"),
    (.invalidMobile, "Mobile number is not valid"),
    (.network, "Can't reach the server. Try again."),
  ])
  func aServiceFailureStaysInTheDialog(error: ServiceError, message: String) {
    var store = saving()
    store.send(.profile(.editNumberResponse(.failure(error)))) {
      $0.profile.dialog?.phase = .failed(message)
    }
    #expect(store.state.profile.dialog?.phase.buttonTitle(rest: "Save") == "Try again")
    #expect(store.state.signedIn.session == Sample.session)
  }
}

/// SPEC §15: with the accounts on a real Auth0 tenant, Edit number is unavailable and says why.
@Suite struct EditNumberUnavailableTests {
  @Test func theButtonOpensNothing() {
    var state = AppState.signedInSample
    state.editNumberUnavailable(because: Message.editNumberNeedsServer)
    #expect(state.profile.editNumberUnavailable == Message.editNumberNeedsServer)
    var store = TestStore(state)
    store.send(.profile(.editNumberPressed))
    store.send(.profile(.form(.enterPressed)))
  }

  @Test func aProfileOpenedByLoggingInKnowsWhyToo() {
    var form = LoginForm(email: "registered@email.com")
    form.phase = .running
    var state = AppState(root: .signedOut(SignedOut(path: [.login(form)])))
    state.editNumberUnavailable(because: Message.editNumberNeedsServer)
    var store = TestStore(state)
    store.send(
      .login(.logInResponse(.success(Sample.session))), effects: [.saveSession(Sample.session)]
    ) {
      var signedIn = SignedIn(session: Sample.session)
      signedIn.profile.editNumberUnavailable = Message.editNumberNeedsServer
      $0.root = .signedIn(signedIn)
    }
  }
}
