import Testing

@testable import MyworkoutCore

/// Lessons' rules (SPEC §13) on the exhaustive `TestStore`: opening at the first unsolved
/// lesson, `[ Next ]` dim or active, right and wrong answers, Done, Start over, Esc.
@Suite struct LessonsReducerTests {
  static let account = "auth0|ada"
  static let shown = Timestamp(iso8601: "2026-11-22T04:15:00Z")!
  static let solvedFirst = Timestamp(iso8601: "2026-11-22T04:15:07Z")!
  static let solvedSecond = Timestamp(iso8601: "2026-11-22T04:16:00Z")!
  static let solvedThird = Timestamp(iso8601: "2026-11-22T04:17:30Z")!

  /// The brief's sample: two lessons without input, then `var number = 1` with `number`.
  static let course = LessonCourse(lessons: [
    Lesson(id: 5, segments: [.init(colour: nil, text: "Hello World!")], input: nil),
    Lesson(id: 6, segments: [.init(colour: nil, text: "var x = 1")], input: nil),
    Lesson(id: 7, segments: [.init(colour: nil, text: "var number = 1")], input: 4..<10),
  ])

  static func event(_ id: Int, _ started: Timestamp, _ completed: Timestamp) -> CompletionEvent {
    CompletionEvent(lessonID: id, started: started, completed: completed)
  }

  let load = Effect.run(.lessonsLoad, .loadLessons(account: Self.account))

  func record(_ id: Int, started: Timestamp) -> Effect {
    .run(
      .lessonProgress,
      .recordLessonCompletion(account: Self.account, lessonID: id, started: started))
  }

  /// Profile, then `n`: Lessons loading.
  func opened() -> TestStore {
    var store = TestStore(.signedInSample)
    store.send(.profile(.lessonsPressed), effects: [load]) {
      $0.signedIn.path = [.lessons(LessonsState())]
    }
    return store
  }

  /// Loaded with these events of the round, shown at `shown`.
  func loaded(events: [CompletionEvent] = [], expecting index: Int?) -> TestStore {
    var store = opened()
    store.send(
      .lessons(
        .loaded(.success(LessonsProgress(course: Self.course, events: events)), at: Self.shown))
    ) {
      $0.lessons.lessons = Self.course.lessons
      $0.lessons.events = events
      $0.lessons.stage =
        index.map { .lesson(LessonAttempt(index: $0, shownAt: Self.shown)) } ?? .done
    }
    return store
  }

  /// At the last lesson (the one with an input), the first two solved.
  func atTheLastLesson() -> TestStore {
    loaded(
      events: [
        Self.event(5, Self.shown, Self.solvedFirst), Self.event(6, Self.shown, Self.solvedSecond),
      ], expecting: 2)
  }

  func typing(_ text: String, into store: inout TestStore) {
    for character in text {
      var answer = store.state.lessons.attempt!.answer
      answer.insert(String(character))
      store.send(.lessons(.answerEdited(.insert(String(character))))) {
        $0.lessons.stage = .lesson(
          LessonAttempt(index: 2, shownAt: Self.shown, answer: answer))
      }
    }
  }

  @Test func nOnProfileOpensLessonsLoadingWithTheSpinner() {
    let store = opened()
    #expect(store.state.screen.kind == .lessons)
    #expect(store.state.running == [.lessonsLoad])
    #expect(subscriptions(store.state).contains(.spinner))
  }

  @Test func theLessonsButtonOnProfileOpensLessonsToo() {
    var store = TestStore(.signedInSample)
    for stop in ProfileState.Focus.allCases.dropFirst().prefix(while: { $0 != .lessons })
      + [.lessons]
    {
      store.send(.profile(.form(.focusMoved(.forward)))) { $0.profile.focus = stop }
    }
    store.send(.profile(.form(.enterPressed)), effects: [load]) {
      $0.signedIn.path = [.lessons(LessonsState())]
    }
  }

  @Test func opensAtTheFirstLessonWhenTheRoundHasNoEvent() {
    let store = loaded(expecting: 0)
    #expect(store.state.lessons.isNextEnabled, "no input: Next is active at once")
    #expect(store.state.running.isEmpty)
  }

  @Test func opensAtTheFirstLessonWithoutAnEventInThisRound() {
    // Lesson 6 solved in this round, 5 not (another copy of the app may have solved 6 first).
    _ = loaded(events: [Self.event(6, Self.shown, Self.solvedFirst)], expecting: 0)
    _ = loaded(events: [Self.event(5, Self.shown, Self.solvedFirst)], expecting: 1)
  }

  @Test func opensAtDoneWhenEveryLessonHasAnEvent() {
    let events = [
      Self.event(5, Self.shown, Self.solvedFirst), Self.event(6, Self.shown, Self.solvedSecond),
      Self.event(7, Self.shown, Self.solvedThird),
    ]
    _ = loaded(events: events, expecting: nil)
  }

  @Test func eventsOfLessonsNotInThisCourseAreLeftOut() {
    var store = opened()
    let foreign = Self.event(99, Self.shown, Self.solvedFirst)
    let own = Self.event(5, Self.shown, Self.solvedFirst)
    store.send(
      .lessons(
        .loaded(
          .success(LessonsProgress(course: Self.course, events: [foreign, own])), at: Self.shown))
    ) {
      $0.lessons.lessons = Self.course.lessons
      $0.lessons.events = [own]
      $0.lessons.stage = .lesson(LessonAttempt(index: 1, shownAt: Self.shown))
    }
  }

  @Test func nextWithoutAnInputRecordsTheCompletionAndShowsTheNextLesson() {
    var store = loaded(expecting: 0)
    store.send(.lessons(.nextPressed), effects: [record(5, started: Self.shown)]) {
      $0.lessons.isSaving = true
    }
    #expect(store.state.running == [.lessonProgress])
    // Keys wait for the save.
    store.send(.lessons(.nextPressed))
    let events = [Self.event(5, Self.shown, Self.solvedFirst)]
    store.send(.lessons(.completionRecorded(.success(events), at: Self.solvedFirst))) {
      $0.lessons.isSaving = false
      $0.lessons.events = events
      // The next lesson is first shown when the last one was solved.
      $0.lessons.stage = .lesson(LessonAttempt(index: 1, shownAt: Self.solvedFirst))
    }
  }

  @Test func nextIsDimAndDoesNothingUntilSomethingIsTyped() {
    var store = atTheLastLesson()
    #expect(!store.state.lessons.isNextEnabled)
    store.send(.lessons(.nextPressed))
    typing("n", into: &store)
    #expect(store.state.lessons.isNextEnabled)
    store.send(.lessons(.answerEdited(.deleteBackward))) {
      $0.lessons.stage = .lesson(
        LessonAttempt(index: 2, shownAt: Self.shown, answer: cleared(limit: 200)))
    }
    #expect(!store.state.lessons.isNextEnabled, "emptied again: dim again")
  }

  @Test func aWrongAnswerSaysSoAndKeepsWhatWasTyped() {
    var store = atTheLastLesson()
    typing("numbr", into: &store)
    store.send(.lessons(.nextPressed)) {
      $0.lessons.message = "That's not quite right. Try again."
    }
    #expect(store.state.lessons.attempt?.answer.text == "numbr")
    // Moving the cursor keeps the message; changing the text takes it away.
    var moved = store.state.lessons.attempt!.answer
    moved.moveLeft()
    store.send(.lessons(.answerEdited(.moveLeft))) {
      $0.lessons.stage = .lesson(LessonAttempt(index: 2, shownAt: Self.shown, answer: moved))
    }
    var fixed = moved
    fixed.insert("e")
    store.send(.lessons(.answerEdited(.insert("e")))) {
      $0.lessons.stage = .lesson(LessonAttempt(index: 2, shownAt: Self.shown, answer: fixed))
      $0.lessons.message = nil
    }
    #expect(fixed.text == "number")
  }

  @Test func caseAndInnerSpacesCountButSurroundingSpacesDoNot() {
    for wrong in ["Number", "num ber"] {
      var store = atTheLastLesson()
      typing(wrong, into: &store)
      store.send(.lessons(.nextPressed)) { $0.lessons.message = LessonsText.wrongAnswer }
    }
    var store = atTheLastLesson()
    typing("  number ", into: &store)
    store.send(.lessons(.nextPressed), effects: [record(7, started: Self.shown)]) {
      $0.lessons.isSaving = true
    }
  }

  /// A paste longer than the blank takes is cut, and the lesson says so as part one's forms do
  /// (a walk-through's 10,000 characters only got `That's not quite right.`).
  @Test func aPasteCutToFitTheBlankSaysSo() {
    var store = atTheLastLesson()
    var answer = store.state.lessons.attempt!.answer
    let long = String(repeating: "n", count: 300)
    answer.insert(long)
    store.send(.lessons(.answerPasted(long))) { [answer] in
      $0.lessons.stage = .lesson(LessonAttempt(index: 2, shownAt: Self.shown, answer: answer))
      $0.lessons.message = Message.pasteCut(limit: LessonsState.answerLimit)
    }
    #expect(answer.text.count == 200)
    // The next change of the text takes it away.
    answer.deleteToStart()
    store.send(.lessons(.answerEdited(.deleteToStart))) { [answer] in
      $0.lessons.stage = .lesson(LessonAttempt(index: 2, shownAt: Self.shown, answer: answer))
      $0.lessons.message = nil
    }
  }

  @Test func theRightAnswerAfterTheLastLessonShowsDone() {
    var store = atTheLastLesson()
    typing("numbr", into: &store)
    store.send(.lessons(.nextPressed)) { $0.lessons.message = LessonsText.wrongAnswer }
    var answer = store.state.lessons.attempt!.answer
    answer.insert("number")
    store.send(.lessons(.answerPasted("number"))) { [answer] in
      $0.lessons.stage = .lesson(LessonAttempt(index: 2, shownAt: Self.shown, answer: answer))
      $0.lessons.message = nil
    }
    #expect(answer.text == "numbrnumber")
    answer.deleteToStart()
    store.send(.lessons(.answerEdited(.deleteToStart))) { [answer] in
      $0.lessons.stage = .lesson(LessonAttempt(index: 2, shownAt: Self.shown, answer: answer))
    }
    typing("number", into: &store)
    // Started is when the lesson was first shown in this visit, not when it was last tried.
    store.send(.lessons(.nextPressed), effects: [record(7, started: Self.shown)]) {
      $0.lessons.isSaving = true
    }
    let events = store.state.lessons.events + [Self.event(7, Self.shown, Self.solvedThird)]
    store.send(.lessons(.completionRecorded(.success(events), at: Self.solvedThird))) {
      $0.lessons.isSaving = false
      $0.lessons.events = events
      $0.lessons.stage = .done
    }
    #expect(store.state.running.isEmpty)
  }

  @Test func aFailedSaveSaysWhyAndStaysOnTheLesson() {
    var store = loaded(expecting: 0)
    store.send(.lessons(.nextPressed), effects: [record(5, started: Self.shown)]) {
      $0.lessons.isSaving = true
    }
    let failure = LessonsFailure("Progress could not be saved: disk I/O error")
    store.send(.lessons(.completionRecorded(.failure(failure), at: Self.solvedFirst))) {
      $0.lessons.isSaving = false
      $0.lessons.message = "Progress could not be saved: disk I/O error"
    }
    // Next again tries again, with the same start.
    store.send(.lessons(.nextPressed), effects: [record(5, started: Self.shown)]) {
      $0.lessons.isSaving = true
      $0.lessons.message = nil
    }
  }

  @Test func startOverBeginsANewRoundAtTheFirstLesson() {
    let events = [
      Self.event(5, Self.shown, Self.solvedFirst), Self.event(6, Self.shown, Self.solvedSecond),
      Self.event(7, Self.shown, Self.solvedThird),
    ]
    var store = loaded(events: events, expecting: nil)
    store.send(
      .lessons(.startOverPressed),
      effects: [.run(.lessonProgress, .startLessonRound(account: Self.account))]
    ) {
      $0.lessons.isSaving = true
    }
    store.send(.lessons(.startOverPressed))
    let restarted = Timestamp(iso8601: "2026-11-22T05:00:00Z")!
    store.send(.lessons(.roundStarted(.success(2), at: restarted))) {
      $0.lessons.isSaving = false
      $0.lessons.events = []
      $0.lessons.stage = .lesson(LessonAttempt(index: 0, shownAt: restarted))
    }
  }

  @Test func aFailedLoadSaysWhyAndTryAgainLoadsAgain() {
    var store = opened()
    let reason = "/tmp/x.json: not valid JSON"
    store.send(.lessons(.loaded(.failure(LessonsFailure(reason)), at: Self.shown))) {
      $0.lessons.stage = .failed(reason)
    }
    #expect(store.state.running.isEmpty)
    store.send(.lessons(.nextPressed))
    store.send(.lessons(.retryPressed), effects: [load]) { $0.lessons.stage = .loading }
  }

  @Test func skippedLessonsBecomeTheAppsNotice() {
    var store = opened()
    let course = LessonCourse(
      lessons: Self.course.lessons, notices: ["Skipped 1 lesson: id 5 (duplicate id)"])
    store.send(
      .lessons(.loaded(.success(LessonsProgress(course: course, events: [])), at: Self.shown))
    ) {
      $0.lessons.lessons = course.lessons
      $0.lessons.stage = .lesson(LessonAttempt(index: 0, shownAt: Self.shown))
      $0.notice = "Skipped 1 lesson: id 5 (duplicate id)"
    }
  }

  @Test func escWhileLoadingCancelsTheLoadAndReturnsToProfile() {
    var store = opened()
    store.send(.lessons(.escapePressed), effects: [.cancel(.lessonsLoad)]) {
      $0.signedIn.path = []
    }
    // A late answer finds no Lessons screen and changes nothing.
    store.send(
      .lessons(
        .loaded(.success(LessonsProgress(course: Self.course, events: [])), at: Self.shown)))
  }

  @Test func escOnALessonReturnsToProfileAndTheNextVisitStartsAfresh() {
    var store = atTheLastLesson()
    typing("num", into: &store)
    store.send(.lessons(.escapePressed)) { $0.signedIn.path = [] }
    store.send(.profile(.lessonsPressed), effects: [load]) {
      $0.signedIn.path = [.lessons(LessonsState())]
    }
  }

  @Test func loggingOutWhileLoadingCancelsTheLoad() {
    var store = opened()
    store.send(.logOutPressed, effects: [.cancel(.lessonsLoad), .endSession(Sample.session)]) {
      $0.root = .signedOut(SignedOut(getStarted: GetStartedForm(email: "registered@email.com")))
    }
  }

  @Test func keysAreInputAndAnswersAreNot() {
    #expect(Action.lessons(.nextPressed).isInput)
    #expect(Action.lessons(.answerEdited(.insert("a"))).isInput)
    #expect(!Action.lessons(.roundStarted(.success(2), at: Self.shown)).isInput)
    #expect(!Action.lessons(.completionRecorded(.success([]), at: Self.shown)).isInput)
  }
}

extension AppState {
  /// Lessons on top of the signed-in path.
  var lessons: LessonsState {
    get {
      guard case .lessons(let lessons)? = signedIn.path.last else { fatalError("no Lessons") }
      return lessons
    }
    set { signedIn.path[signedIn.path.count - 1] = .lessons(newValue) }
  }
}

extension LessonAttempt {
  init(index: Int, shownAt: Timestamp, answer: TextInput) {
    self.init(index: index, shownAt: shownAt)
    self.answer = answer
  }
}
