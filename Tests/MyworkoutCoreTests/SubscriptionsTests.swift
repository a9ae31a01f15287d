import Testing

@testable import MyworkoutCore

/// Which timers run: none when idle signed out, the spinner while a request runs, and the
/// session's expiry whenever someone is signed in.
@Suite struct SubscriptionsTests {
  @Test func noneWhenIdleSignedOut() {
    #expect(subscriptions(.launch(with: .none)).isEmpty)
    #expect(subscriptions(.launch(with: .invalid)).isEmpty)
    #expect(subscriptions(.showing(.login(LoginForm(email: "a@b.co")))).isEmpty)
    #expect(subscriptions(.showing(.signup(SignupForm(email: "a@b.co")))).isEmpty)
    var refused = LoginForm(email: "a@b.co")
    refused.phase = .invalid(Message.allFieldsRequired)
    #expect(subscriptions(.showing(.login(refused))).isEmpty)
    var failed = SignupForm(email: "a@b.co")
    failed.phase = .failed(Message.emailExists)
    #expect(subscriptions(.showing(.signup(failed))).isEmpty)
  }

  @Test func theSpinnerWhileAnyRequestRunsSignedOut() {
    var getStarted = GetStartedForm(email: "a@b.co")
    getStarted.phase = .running
    #expect(
      subscriptions(AppState(root: .signedOut(SignedOut(getStarted: getStarted)))) == [.spinner])
    var login = LoginForm(email: "a@b.co")
    login.phase = .running
    #expect(subscriptions(.showing(.login(login))) == [.spinner])
    var signup = SignupForm(email: "a@b.co")
    signup.phase = .running
    #expect(subscriptions(.showing(.signup(signup))) == [.spinner])
  }

  @Test func theSessionExpiryWheneverSignedIn() {
    let expiry = Subscription.sessionExpiry(token: Sample.session.token)
    var state = AppState.signedInSample
    #expect(subscriptions(state) == [expiry])
    state.profile.dialog = EditNumberDialog(mobile: "+60 12-345 6789")
    #expect(subscriptions(state) == [expiry])
    state.profile.dialog?.phase = .running
    #expect(subscriptions(state) == [.spinner, expiry])
    state.profile.dialog?.phase = .failed(Message.noConnection)
    #expect(subscriptions(state) == [expiry])
  }

  @Test func theNewTokenAfterTheNumberWasEdited() {
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
    #expect(
      subscriptions(store.state) == [.spinner, .sessionExpiry(token: Sample.session.token)])
    store.send(
      .profile(.editNumberResponse(.success(Sample.renewed))),
      effects: [.renewSession(Sample.renewed)]
    ) {
      $0.profile.dialog = nil
      $0.profile.confirmation = Message.numberEdited
      $0.signedIn.session = Sample.renewed
    }
    #expect(subscriptions(store.state) == [.sessionExpiry(token: Sample.renewed.token)])
  }

  @Test func noneAfterLoggingOutOrExpiry() {
    var loggedOut = TestStore(.signedInSample)
    loggedOut.send(.logOutPressed, effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(SignedOut(getStarted: GetStartedForm(email: "registered@email.com")))
    }
    #expect(subscriptions(loggedOut.state).isEmpty)

    var expired = TestStore(.signedInSample)
    expired.send(.sessionExpired, effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(
        SignedOut(path: [.sessionExpired(SessionExpiredScreen(email: "registered@email.com"))]))
    }
    #expect(subscriptions(expired.state).isEmpty)
  }
}
