import Testing

@testable import MyworkoutCore

/// What a walk-through found on Lessons: a blank longer than 200 characters could never be
/// filled (the field took 200, so the lesson, and the course, could never be solved), and keys
/// typed just after Enter, while the completion was saved, were dropped (`let⏎var` in one burst
/// left the next lesson's blank empty).
@Suite struct LessonsTypeAheadTests {
  static let account = LessonsReducerTests.account
  static let shown = LessonsReducerTests.shown
  static let solved = LessonsReducerTests.solvedFirst
  static let long = String(repeating: "x", count: 300)

  static let course = LessonCourse(lessons: [
    Lesson(id: 1, segments: [.init(colour: nil, text: "let a = 1")], input: 0..<3),
    Lesson(id: 2, segments: [.init(colour: nil, text: "var b = 2")], input: 0..<3),
    Lesson(id: 3, segments: [.init(colour: nil, text: "say " + long)], input: 4..<304),
  ])

  /// Lessons open at the first lesson without an event among `events`.
  func opened(events: [CompletionEvent] = []) -> AppState {
    var state = AppState.signedInSample
    _ = reduce(&state, .profile(.lessonsPressed))
    _ = reduce(
      &state,
      .lessons(
        .loaded(.success(LessonsProgress(course: Self.course, events: events)), at: Self.shown)))
    return state
  }

  func record(_ id: Int, started: Timestamp) -> Effect {
    .run(
      .lessonProgress,
      .recordLessonCompletion(account: Self.account, lessonID: id, started: started))
  }

  @Test func aBlankLongerThanTwoHundredCharactersTakesItsWholeAnswer() {
    var state = opened(events: [
      LessonsReducerTests.event(1, Self.shown, Self.solved),
      LessonsReducerTests.event(2, Self.shown, Self.solved),
    ])
    #expect(state.lessons.attempt?.index == 2)
    _ = reduce(&state, .lessons(.answerPasted(Self.long)))
    #expect(state.lessons.attempt?.answer.text == Self.long)
    #expect(state.lessons.message == nil, "nothing was cut")
    // One more than the blank is cut, and said so with the blank's own limit.
    _ = reduce(&state, .lessons(.answerPasted("y")))
    #expect(state.lessons.attempt?.answer.text == Self.long)
    #expect(state.lessons.message == Message.pasteCut(limit: 300))
    _ = reduce(&state, .lessons(.answerEdited(.deleteBackward)))
    _ = reduce(&state, .lessons(.answerEdited(.insert("x"))))
    #expect(
      reduce(&state, .lessons(.nextPressed)) == [record(3, started: Self.shown)],
      "the right answer is recorded")
    // A short blank keeps the usual limit.
    var short = opened()
    _ = reduce(&short, .lessons(.answerPasted(Self.long)))
    #expect(short.lessons.attempt?.answer.text.count == LessonsState.answerLimit)
  }

  @Test func keysTypedWhileACompletionIsSavedGoToTheNextLesson() {
    var state = opened()
    _ = reduce(&state, .lessons(.answerPasted("let")))
    #expect(reduce(&state, .lessons(.nextPressed)) == [record(1, started: Self.shown)])
    #expect(state.lessons.isSaving)
    // `va`, a paste of `r`, then Enter, typed before the save's answer comes.
    for key in ["v", "a"] {
      #expect(reduce(&state, .lessons(.answerEdited(.insert(key)))).isEmpty)
    }
    #expect(reduce(&state, .lessons(.answerPasted("r"))).isEmpty)
    #expect(reduce(&state, .lessons(.nextPressed)).isEmpty)
    #expect(state.lessons.attempt?.index == 0 && state.lessons.attempt?.answer.text == "let")
    let events = [LessonsReducerTests.event(1, Self.shown, Self.solved)]
    let effects = reduce(
      &state, .lessons(.completionRecorded(.success(events), at: Self.solved)))
    // The next lesson, shown when the save came back, took the text; its Enter was not kept
    // (a lesson is solved only by an Enter pressed while it shows).
    #expect(state.lessons.attempt?.index == 1)
    #expect(state.lessons.attempt?.answer.text == "var")
    #expect(state.lessons.attempt?.shownAt == Self.solved)
    #expect(effects.isEmpty)
    #expect(!state.lessons.isSaving)
    #expect(reduce(&state, .lessons(.nextPressed)) == [record(2, started: Self.solved)])
  }

  @Test func keysTypedWhileASaveThatFailsAreNotPutIntoTheLessonStillShown() {
    var state = opened()
    _ = reduce(&state, .lessons(.answerPasted("let")))
    _ = reduce(&state, .lessons(.nextPressed))
    _ = reduce(&state, .lessons(.answerEdited(.insert("v"))))
    _ = reduce(&state, .lessons(.nextPressed))
    let failure = LessonsFailure("Progress could not be saved: disk I/O error")
    let effects = reduce(
      &state, .lessons(.completionRecorded(.failure(failure), at: Self.solved)))
    #expect(effects.isEmpty, "the Enter meant for the next lesson is not a second try")
    #expect(state.lessons.attempt?.index == 0)
    #expect(state.lessons.attempt?.answer.text == "let", "the answer to try again is kept")
    #expect(state.lessons.message == failure.message)
    // Typed now, keys go in as always.
    _ = reduce(&state, .lessons(.answerEdited(.insert("!"))))
    #expect(state.lessons.attempt?.answer.text == "let!")
  }
}
