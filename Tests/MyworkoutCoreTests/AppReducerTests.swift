import Testing

@testable import MyworkoutCore

/// The transitions the root owns: sign in, log out and expiry from any screen, and what becomes
/// of answers for screens no longer on top.
@Suite struct AppReducerTests {
  /// The expiry screen for the sample session, over an empty Get started.
  let expired = SignedOut(
    path: [.sessionExpired(SessionExpiredScreen(email: "registered@email.com"))])
  /// Get started with the sample session's email filled in.
  let backToGetStarted = SignedOut(getStarted: GetStartedForm(email: "registered@email.com"))

  /// Profile with the Edit-number request running.
  func editing() -> TestStore {
    var store = TestStore(.signedInSample)
    store.send(.profile(.editNumberPressed)) {
      $0.profile.dialog = EditNumberDialog(mobile: "+60 12-345 6789")
    }
    store.send(
      .profile(.form(.enterPressed)),
      effects: [
        .run(.editNumber, .updateMobile(token: Sample.session.token, mobile: "+60123456789"))
      ]
    ) {
      $0.profile.dialog?.phase = .running
      $0.profile.dialog?.focus = .save
    }
    return store
  }

  @Test func signingInThroughLoginOpensProfileAndLoggingOutPrefillsTheEmail() {
    var store = TestStore(.launch(with: .none))
    store.type("registered@email.com", as: { .getStarted(.form($0)) }) {
      $0.getStarted.email = typed("registered@email.com", limit: FieldLimit.email)
    }
    store.send(
      .getStarted(.form(.enterPressed)),
      effects: [.run(.checkEmail, .checkEmail("registered@email.com"))]
    ) {
      $0.getStarted.phase = .running
      $0.getStarted.focus = .next
    }
    store.send(.getStarted(.checkEmailResponse(.success(true)))) {
      $0.getStarted.phase = .idle
      $0.signedOut.path = [.login(LoginForm(email: "registered@email.com"))]
    }
    store.type("password", as: { .login(.form($0)) }) {
      $0.login.password = typed("password", limit: FieldLimit.password)
    }
    store.send(
      .login(.form(.enterPressed)),
      effects: [.run(.logIn, .logIn(email: "registered@email.com", password: "password"))]
    ) {
      $0.login.phase = .running
      $0.login.focus = .logIn
    }
    store.send(
      .login(.logInResponse(.success(Sample.session))), effects: [.saveSession(Sample.session)]
    ) {
      $0.root = .signedIn(SignedIn(session: Sample.session))
    }
    store.send(.logOutPressed, effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(backToGetStarted)
    }
  }

  @Test func signingUpOpensProfileAndSavesTheSession() {
    var form = SignupForm(email: "new@email.com")
    form.password = TextInput("secret!!", limit: FieldLimit.password)
    form.gender = .female
    form.mobile = TextInput("012-345 6789", limit: FieldLimit.mobile)
    form.phase = .running
    form.focus = .signUp
    var store = TestStore(.showing(.signup(form)))
    store.send(
      .signup(.signUpResponse(.success(Sample.newcomer))), effects: [.saveSession(Sample.newcomer)]
    ) {
      $0.root = .signedIn(SignedIn(session: Sample.newcomer))
    }
    #expect(subscriptions(store.state) == [.sessionExpiry(token: Sample.newcomer.token)])
  }

  @Test func loggingOutWhileTheEditRequestRunsCancelsItFirst() {
    var store = editing()
    store.send(.logOutPressed, effects: [.cancel(.editNumber), .endSession(Sample.session)]) {
      $0.root = .signedOut(backToGetStarted)
    }
    #expect(!store.state.isBusy)
    // Its answer, should it still come, changes nothing.
    store.send(.profile(.editNumberResponse(.success(Sample.renewed))))
  }

  @Test func expiryOnProfileShowsTheExpiryScreen() {
    var store = TestStore(.signedInSample)
    store.send(.sessionExpired, effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(expired)
    }
    #expect(
      store.state.screen == .sessionExpired(SessionExpiredScreen(email: "registered@email.com")))
    // A second expiry (a timer already on its way) changes nothing.
    store.send(.sessionExpired)
  }

  @Test func expiryWithTheDialogOpenShowsTheExpiryScreen() {
    var store = TestStore(.signedInSample)
    store.send(.profile(.editNumberPressed)) {
      $0.profile.dialog = EditNumberDialog(mobile: "+60 12-345 6789")
    }
    store.send(.sessionExpired, effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(expired)
    }
  }

  @Test func expiryWhileTheEditRequestRunsCancelsIt() {
    var store = editing()
    store.send(.spinnerTicked) { $0.spinnerFrame = 1 }
    store.send(.sessionExpired, effects: [.cancel(.editNumber), .endSession(Sample.session)]) {
      $0.root = .signedOut(expired)
      $0.spinnerFrame = 0
    }
    #expect(!store.state.isBusy)
    store.send(.spinnerTicked)
    store.send(.profile(.editNumberResponse(.success(Sample.renewed))))
  }

  @Test(arguments: [Action.sessionExpiredScreen(.logInAgainPressed), .logOutPressed])
  func theExpiryScreenLeadsToGetStartedWithTheEmail(action: Action) {
    var store = TestStore(AppState(root: .signedOut(expired)))
    store.send(action) { $0.root = .signedOut(backToGetStarted) }
    #expect(store.state.getStarted.email.text == "registered@email.com")
    #expect(store.state.getStarted.focus == .email)
  }

  @Test func launchWithAnInvalidSessionShowsTheExpiryScreenThenAnEmptyGetStarted() {
    var store = TestStore(.launch(with: .invalid))
    #expect(
      store.state.root == .signedOut(SignedOut(path: [.sessionExpired(SessionExpiredScreen())])))
    #expect(subscriptions(store.state).isEmpty)
    // The stale session was already cleared at launch: nothing to delete.
    store.send(.sessionExpiredScreen(.logInAgainPressed)) { $0.signedOut = SignedOut() }
  }

  @Test func theExpiryScreenIgnoresOtherActions() {
    var store = TestStore(AppState(root: .signedOut(expired)))
    store.send(.sessionExpired)
    store.send(.getStarted(.form(.enterPressed)))
    store.send(.profile(.editNumberPressed))
    store.send(.login(.form(.escapePressed)))
  }

  @Test func loginCreateAccountThenSignupCancelReturnsToGetStartedWithTheEmail() {
    var store = TestStore(.showing(.login(LoginForm(email: "someone@email.com"))))
    store.send(.login(.form(.focusMoved(.backward)))) { $0.login.focus = .email }
    store.send(.login(.form(.focusMoved(.backward)))) { $0.login.focus = .createAccount }
    store.send(.login(.form(.enterPressed))) {
      $0.signedOut.path = [.signup(SignupForm(email: "someone@email.com"))]
    }
    store.send(.signup(.form(.focusMoved(.backward)))) { $0.signup.focus = .email }
    store.send(.signup(.form(.focusMoved(.backward)))) { $0.signup.focus = .cancel }
    store.send(.signup(.form(.enterPressed))) {
      $0.signedOut = SignedOut(getStarted: GetStartedForm(email: "someone@email.com"))
    }
  }

  @Test func aLateLoginAnswerAfterLeavingLoginDoesNotSignIn() {
    var store = TestStore(.showing(.login(LoginForm(email: "registered@email.com"))))
    store.type("password", as: { .login(.form($0)) }) {
      $0.login.password = typed("password", limit: FieldLimit.password)
    }
    store.send(
      .login(.form(.enterPressed)),
      effects: [.run(.logIn, .logIn(email: "registered@email.com", password: "password"))]
    ) {
      $0.login.phase = .running
      $0.login.focus = .logIn
    }
    store.send(.login(.form(.escapePressed)), effects: [.cancel(.logIn)]) {
      $0.login.phase = .idle
    }
    store.send(.login(.form(.escapePressed))) { $0.signedOut = backToGetStarted }
    store.send(.login(.logInResponse(.success(Sample.session))))
  }

  static let lateAnswers: [(AppState, Action)] = [
    (
      .showing(.login(LoginForm(email: "a@b.co"))),
      .getStarted(.checkEmailResponse(.success(false)))
    ),
    (
      .showing(.signup(SignupForm(email: "a@b.co"))),
      .login(.logInResponse(.success(Sample.session)))
    ),
    (.launch(with: .none), .signup(.signUpResponse(.success(Sample.newcomer)))),
    (.launch(with: .none), .login(.logInResponse(.failure(.wrongCredentials)))),
    (.launch(with: .invalid), .profile(.editNumberResponse(.success(Sample.renewed)))),
    (.signedInSample, .login(.logInResponse(.success(Sample.newcomer)))),
    (.signedInSample, .signup(.signUpResponse(.failure(.emailExists)))),
    (.signedInSample, .getStarted(.checkEmailResponse(.success(true)))),
  ]

  @Test(arguments: lateAnswers)
  func aLateAnswerForAScreenNoLongerOnTopIsIgnored(state: AppState, answer: Action) {
    var store = TestStore(state)
    store.send(answer)
  }

  @Test func rootKeysDoNothingWhileSignedOut() {
    var onGetStarted = TestStore(.launch(with: .none))
    onGetStarted.send(.logOutPressed)
    onGetStarted.send(.sessionExpired)
    var onLogin = TestStore(.showing(.login(LoginForm(email: "a@b.co"))))
    onLogin.send(.logOutPressed)
    onLogin.send(.sessionExpired)
  }

  @Test func theSpinnerRestartsWhenTheScreenChanges() {
    var getStarted = GetStartedForm(email: "a@b.co")
    getStarted.phase = .running
    getStarted.focus = .next
    var store = TestStore(AppState(root: .signedOut(SignedOut(getStarted: getStarted))))
    store.send(.spinnerTicked) { $0.spinnerFrame = 1 }
    store.send(.spinnerTicked) { $0.spinnerFrame = 2 }
    store.send(.getStarted(.checkEmailResponse(.success(true)))) {
      $0.getStarted.phase = .idle
      $0.signedOut.path = [.login(LoginForm(email: "a@b.co"))]
      $0.spinnerFrame = 0
    }
  }

  @Test func aNoticeOutlivesExpiryAndClearsOnTheNextKey() {
    var store = TestStore(.launch(with: .valid(Sample.session), notice: "session.json rewritten"))
    store.send(.sessionExpired, effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(expired)
    }
    #expect(store.state.notice == "session.json rewritten")
    store.send(.sessionExpiredScreen(.logInAgainPressed)) {
      $0.root = .signedOut(backToGetStarted)
      $0.notice = nil
    }
  }

  @Test func quittingWhileSignedInChangesNothingElse() {
    var store = editing()
    store.send(.quitPressed, effects: [.quit(status: 0)])
    store.send(.interruptPressed, effects: [.quit(status: 130)])
  }

  /// Two notices raised before a key clears them are both said: a walk-through's damaged
  /// catalog and progress files were both moved aside, and only the second was said.
  @Test func noticesRaisedTogetherAreAllSaidUntilAKey() {
    var store = TestStore(.signedInSample)
    store.send(.noticeRaised("catalog.sqlite could not be read")) {
      $0.notice = "catalog.sqlite could not be read"
    }
    store.send(.noticeRaised("progress.sqlite could not be read")) {
      $0.notice = "catalog.sqlite could not be read; progress.sqlite could not be read"
    }
    store.send(.noticeRaised("progress.sqlite could not be read"))  // said already
    store.send(.profile(.form(.focusMoved(.forward)))) {
      $0.notice = nil
      $0.signedIn.profile.focus = .logOut
    }
    store.send(.noticeRaised("later")) { $0.notice = "later" }
  }
}
