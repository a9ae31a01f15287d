import Foundation
import MyworkoutCore
import MyworkoutView
import Testing

@testable import myworkout

/// The runtime without a terminal: keys in, frames out, requests by id, timers as data.
@MainActor
@Suite struct RuntimeTests {
  let terminal = RecordingTerminal()
  let timers = ManualTimers()
  let service = GatedAccountService()
  let sessions = RecordingSessions()
  let expiry = Date(timeIntervalSince1970: 2_000_000_000)
  var exits: [Int32] = []

  func runtime(_ state: AppState = .launch(with: .none)) -> Runtime {
    let runtime = Runtime(
      state: state, terminal: terminal,
      services: Services(
        accounts: service, catalog: MemoryCatalog.sample, lessons: .sample, images: .unused,
        progress: MemoryProgress()),
      sessions: sessions,
      timers: timers,
      acceptedUntil: { [expiry] _ in expiry }, now: { Date(timeIntervalSince1970: 0) },
      exit: { _ in })
    runtime.start()
    return runtime
  }

  /// Lets answers travel from the service to the main actor, up to a bounded number of turns.
  func settle(until condition: () -> Bool) async {
    for _ in 0..<10_000 where !condition() { await Task.yield() }
  }

  @Test func anIdleAppDrawsOnceAndRunsNoTimer() {
    let app = runtime()
    #expect(terminal.frames.count == 1)
    #expect(terminal.screen.contains("Myworkout GO"))
    #expect(app.runningTimers.isEmpty)
    #expect(timers.started.isEmpty)
  }

  @Test func keysDrawOnceABatchAndARequestRunsWithTheSpinner() async {
    let app = runtime()
    terminal.type("registered@email.com")
    terminal.press(.enter)
    app.keysArrived()
    #expect(terminal.frames.count == 2, "one frame for the whole batch of keys")
    #expect(terminal.screen.contains("[ Cancel ]"))
    #expect(app.runningRequests == [.checkEmail])
    #expect(app.runningTimers == [.spinner])
    await settle { !service.pending.isEmpty }
    #expect(service.pending == [.init(name: "isRegistered", argument: "registered@email.com")])

    timers.live[0].fire()
    #expect(app.state.spinnerFrame == 1)

    service.release("isRegistered")
    await settle { app.state.screen.kind == .login }
    #expect(terminal.screen.contains("Welcome back"))
    #expect(app.runningRequests.isEmpty)
    #expect(app.runningTimers.isEmpty, "the spinner stops with the request")
    #expect(timers.live.isEmpty)
  }

  @Test func aCancelledRequestsAnswerNeverArrives() async {
    let app = runtime()
    terminal.type("registered@email.com")
    terminal.press(.enter)
    app.keysArrived()
    await settle { !service.pending.isEmpty }
    terminal.press(.escape)
    app.keysArrived()
    #expect(app.runningRequests.isEmpty)
    service.release("isRegistered")
    for _ in 0..<1_000 { await Task.yield() }
    #expect(app.state.screen.kind == .getStarted)
    #expect(terminal.screen.contains("[ Next ]"))
  }

  @Test func aSupersededRequestsAnswerNeverArrivesAndTwoIdsRunAtOnce() async {
    var answers: [Action] = []
    let runner = EffectRunner(
      services: Services(
        accounts: service, catalog: MemoryCatalog.sample, lessons: .sample, images: .unused,
        progress: MemoryProgress()),
      sessions: sessions,
      send: { answers.append($0) }, quit: { _ in })
    runner.run(.run(.checkEmail, .checkEmail("registered@email.com")))
    runner.run(.run(.logIn, .logIn(email: "registered@email.com", password: "password")))
    await settle { service.pending.count == 2 }
    runner.run(.run(.checkEmail, .checkEmail("new@email.com")))
    await settle { service.pending.count == 3 }
    #expect(runner.runningIDs == [.checkEmail, .logIn])

    service.release("isRegistered")  // the superseded one
    service.release("logIn")
    await settle { answers.count == 1 }
    service.release("isRegistered")
    await settle { answers.count == 2 }
    for _ in 0..<1_000 { await Task.yield() }
    #expect(
      answers == [
        .login(.logInResponse(.success(Fixture.session(email: "registered@email.com")))),
        .getStarted(.checkEmailResponse(.success(false))),
      ])
    #expect(runner.runningIDs.isEmpty)
  }

  @Test func theSessionExpiresOnItsOwnTimerOnAnySignedInScreen() async {
    let session = Fixture.session(email: "registered@email.com")
    let app = runtime(.launch(with: .valid(session)))
    #expect(app.runningTimers == [.sessionExpiry(token: session.token)])
    #expect(timers.live.map(\.deadline) == [expiry])
    timers.live[0].fire()
    #expect(terminal.screen.contains(Message.sessionExpired))
    #expect(app.runningTimers.isEmpty)
    await settle { sessions.log.withLock { !$0.isEmpty } }
    app.quit(status: 0)  // flushes the session writes
    #expect(sessions.log.withLock { $0 } == ["end registered@email.com"])
    #expect(terminal.closed == 1)
  }

  @Test func aNewSessionMovesTheExpiryTimer() async {
    let session = Fixture.session(email: "registered@email.com")
    let app = runtime(.launch(with: .valid(session)))
    terminal.press(.character("e"))
    terminal.press(.control("u"))
    terminal.type("011-1234 5678")
    terminal.press(.enter)
    app.keysArrived()
    await settle { !service.pending.isEmpty }
    service.release("updateMobile")
    await settle { terminal.screen.contains(Message.numberEdited) }
    #expect(app.runningTimers == [.sessionExpiry(token: "renewed")])
    #expect(timers.live.count == 1)
    app.quit(status: 0)
    #expect(sessions.log.withLock { $0 } == ["renew renewed"])
  }

  /// SPEC §4: Profile's request with the session missing (another copy of the app logged out
  /// and removed it) says the session expired; the edit is not made and no session is written
  /// again (a walk-through's edit brought a logged-out session back).
  @Test func anEditWithTheSessionLoggedOutElsewhereSaysItExpired() async {
    let session = Fixture.session(email: "registered@email.com")
    let app = runtime(.launch(with: .valid(session)))
    sessions.keeps.withLock { $0 = false }
    terminal.press(.character("e"))
    terminal.press(.control("u"))
    terminal.type("011-1234 5678")
    terminal.press(.enter)
    app.keysArrived()
    await settle { terminal.screen.contains(Message.sessionExpired) }
    #expect(terminal.screen.contains(Message.sessionExpired))
    #expect(service.pending.isEmpty, "the edit is not asked for")
    app.quit(status: 0)
    #expect(sessions.log.withLock { $0 } == ["end registered@email.com"])
  }

  /// SPEC §3: a cancel stops the request, and nothing is saved. A walk-through's Esc came
  /// while the mock was writing the new number: the dialog went back to rest as cancelled, and
  /// the number was saved all the same (and shown after a relaunch). A cancel that comes once
  /// the change is made is too late: the answer comes, and the screen says what was done.
  @Test func aCancelAfterTheChangeIsMadeShowsTheChange() async {
    service.commitsBeforeAnswering.withLock { $0 = ["updateMobile"] }
    let app = runtime(.launch(with: .valid(Fixture.session(email: "registered@email.com"))))
    terminal.press(.character("e"))
    terminal.press(.control("u"))
    terminal.type("011-1234 5678")
    terminal.press(.enter)
    app.keysArrived()
    await settle { !service.pending.isEmpty }
    terminal.press(.escape)
    app.keysArrived()
    service.release("updateMobile")
    await settle { terminal.screen.contains(Message.numberEdited) }
    #expect(terminal.screen.contains(Message.numberEdited))
    app.quit(status: 0)
    #expect(sessions.log.withLock { $0 } == ["renew renewed"])
  }

  /// The same for Sign up: an account made before the cancel came is signed in to.
  @Test func aCancelAfterTheAccountIsMadeSignsIn() async {
    service.commitsBeforeAnswering.withLock { $0 = ["signUp"] }
    let app = runtime(.launch(with: .none))
    terminal.type("new@email.com")
    terminal.press(.enter)
    app.keysArrived()
    await settle { !service.pending.isEmpty }
    service.release("isRegistered")
    await settle { terminal.screen.contains("Create a new account") }
    terminal.type("Passw0rd!")
    terminal.press(.tab, .character(" "), .tab)
    terminal.type("012-345 6789")
    terminal.press(.tab, .tab, .tab, .enter)
    app.keysArrived()
    await settle { service.pending.map(\.name) == ["signUp"] }
    terminal.press(.escape)
    app.keysArrived()
    service.release("signUp")
    await settle { app.state.screen.kind == .profile }
    #expect(app.state.screen.kind == .profile)
    app.quit(status: 0)
    #expect(sessions.log.withLock { $0 }.first?.hasPrefix("save ") == true)
  }

  /// A cancel before the change is made stops it: no answer, nothing saved.
  @Test func aCancelBeforeTheChangeIsMadeStopsIt() async {
    let app = runtime(.launch(with: .valid(Fixture.session(email: "registered@email.com"))))
    terminal.press(.character("e"))
    terminal.press(.control("u"))
    terminal.type("011-1234 5678")
    terminal.press(.enter)
    app.keysArrived()
    await settle { !service.pending.isEmpty }
    terminal.press(.escape)
    app.keysArrived()
    service.release("updateMobile")
    for _ in 0..<1_000 { await Task.yield() }
    #expect(!terminal.screen.contains(Message.numberEdited))
    #expect(terminal.screen.contains("[ Save ]"))
    #expect(service.committed.withLock { $0 }.isEmpty)
    app.quit(status: 0)
    #expect(sessions.log.withLock { $0 }.isEmpty)
  }

  /// A log-out ends this copy's session by name: the store leaves another account's later
  /// log-in in another copy alone (`SessionStoreTests`).
  @Test func aLogOutEndsThisCopysSession() async {
    let app = runtime(.launch(with: .valid(Fixture.session(email: "registered@email.com"))))
    terminal.type("l")
    app.keysArrived()
    app.quit(status: 0)
    #expect(sessions.log.withLock { $0 } == ["end registered@email.com"])
  }

  /// A log-out whose session file cannot be removed says so, and that the next launch may
  /// open the account again: a walk-through's read `Could not save the session` (for a
  /// removal), and the person, on Get started, believed they were logged out.
  @Test func aLogOutThatCannotForgetTheSessionSaysSo() async {
    sessions.endFails.withLock { $0 = true }
    let app = runtime(.launch(with: .valid(Fixture.session(email: "registered@email.com"))))
    terminal.type("l")
    app.keysArrived()
    await settle { terminal.screen.contains("Could not log out") }
    #expect(
      app.state.notice
        == "Could not log out on this device: Cannot remove /d/session.json: Permission "
        + "denied. The next launch may open this account again.")
  }

  /// A session whose log-in could not be saved (a full disk: said at the time) has no file for
  /// another copy to remove: its missing file does not end it (a review found a lesson's
  /// completion would then have said the session expired).
  @Test func aSessionThatCouldNotBeSavedIsNotEndedByItsMissingFile() async {
    sessions.saveFails.withLock { $0 = true }
    sessions.keeps.withLock { $0 = false }
    var answers: [Action] = []
    let runner = EffectRunner(
      services: Services(
        accounts: service, catalog: MemoryCatalog.sample, lessons: .sample, images: .unused,
        progress: MemoryProgress()),
      sessions: sessions,
      send: { answers.append($0) }, quit: { _ in })
    let session = Fixture.session(email: "registered@email.com")
    runner.run(.saveSession(session))
    runner.run(
      .run(
        .lessonProgress,
        .recordLessonCompletion(
          account: session.accountID, lessonID: 5, started: Timestamp(secondsSince1970: 0))),
      for: session)
    await settle { answers.contains { if case .lessons = $0 { true } else { false } } }
    #expect(!answers.contains(.sessionExpired), "\(answers)")
    #expect(answers.contains { if case .lessons = $0 { true } else { false } })
  }

  /// Each key means what it does in the state the keys before it left, in one read or over
  /// several: the runtime keeps the key map of the frame it drew, and makes a new one once the
  /// state changes. `?` types into the email field and opens the `Keys` panel on a button.
  @Test func eachKeyMeansWhatItDoesInTheStateTheKeysBeforeItLeft() {
    let app = runtime()
    terminal.press(.character("a"), .tab, .character("?"))
    app.keysArrived()
    #expect(app.state.showsKeys, "Tab moved the focus to a button, where ? opens the panel")
    #expect(terminal.screen.contains("Keys"))

    terminal.press(.escape)
    app.keysArrived()
    #expect(!app.state.showsKeys)
    terminal.press(.backTab)
    app.keysArrived()
    terminal.press(.character("?"))
    app.keysArrived()
    #expect(!app.state.showsKeys, "back in the field, read from a later frame: ? is typed")
    guard case .getStarted(let form) = app.state.screen else {
      Issue.record("not on Get started: \(app.state.screen.kind)")
      return
    }
    #expect(form.email.text == "a?")
  }

  @Test func ctrlCAsAKeyQuitsWith130() {
    var statuses: [Int32] = []
    let app = Runtime(
      state: .launch(with: .none), terminal: terminal,
      services: Services(
        accounts: service, catalog: MemoryCatalog.sample, lessons: .sample, images: .unused,
        progress: MemoryProgress()),
      sessions: sessions,
      timers: timers, acceptedUntil: { _ in nil }, now: { Date(timeIntervalSince1970: 0) },
      exit: { statuses.append($0) })
    app.start()
    terminal.press(.control("c"))
    app.keysArrived()
    #expect(statuses == [130])
    #expect(terminal.closed == 1)
  }
}
