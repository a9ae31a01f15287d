/// Lessons' rules (SPEC §13): open at the first lesson with no event in this round (or Done);
/// Next with the right answer records the completion and shows the next lesson, a wrong one
/// says so and keeps what was typed; Start over begins a new round; Esc goes back. Every time
/// (shown, solved) comes in an answer from the runner's wall clock.
enum LessonsReducer {
  enum Delegate: Equatable, Sendable {
    /// Esc: the parent goes back to Profile.
    case back
    /// Lessons were skipped while loading (duplicate ids, empty content): one line to show.
    case notice(String)
  }

  /// A new visit: `Loading lessons…` and the load.
  static func opened(account: String) -> (LessonsState, [Effect]) {
    (LessonsState(), [load(account: account)])
  }

  static func reduce(_ state: inout LessonsState, _ action: LessonsAction, account: String)
    -> Outcome<Delegate>
  {
    switch action {
    case .loaded(let result, let now):
      return loaded(&state, result, at: now)
    case .completionRecorded(let result, let now):
      guard state.isSaving, state.attempt != nil else { return .none }
      state.isSaving = false
      switch result {
      case .success(let events):
        state.events = ofThisCourse(events, state.lessons)
        showFirstUnsolved(&state, at: now)
        return typedAhead(&state, account: account)
      case .failure(let failure):
        state.message = failure.message
        state.typedAhead = []
      }
      return .none
    case .roundStarted(let result, let now):
      guard state.isSaving, state.stage == .done else { return .none }
      state.isSaving = false
      switch result {
      case .success:
        state.events = []
        showFirstUnsolved(&state, at: now)
        return typedAhead(&state, account: account)
      case .failure(let failure):
        state.message = failure.message
        state.typedAhead = []
      }
      return .none
    case .answerEdited where state.isSaving, .answerPasted where state.isSaving:
      // Typed before the save's answer came: kept for the lesson shown next. (Enter is not: a
      // lesson is solved only by an Enter pressed while it is on the screen, so a key held or
      // pressed twice never records a lesson the person has not seen.)
      state.typedAhead.append(action)
      return .none
    case .escapePressed:
      // A load that runs is cancelled; a save that runs finishes (its answer is not wanted).
      return Outcome(
        effects: state.stage == .loading ? [.cancel(.lessonsLoad)] : [], delegate: .back)
    case .retryPressed:
      guard case .failed = state.stage else { return .none }
      state.stage = .loading
      return .effects([load(account: account)])
    case .startOverPressed:
      guard state.stage == .done, !state.isSaving else { return .none }
      state.isSaving = true
      state.message = nil
      return .effects([.run(.lessonProgress, .startLessonRound(account: account))])
    case .nextPressed:
      return next(&state, account: account)
    case .answerEdited(let edit):
      return editAnswer(&state) { $0.apply(edit) }
    case .answerPasted(let text):
      var whole = true
      let outcome = editAnswer(&state) { whole = $0.insert(text) }
      // A paste longer than the blank is cut, and the lesson says so (as part one's forms).
      if !whole, let limit = state.attempt?.answer.limit {
        state.message = Message.pasteCut(limit: limit)
      }
      return outcome
    }
  }

  /// The text typed while the save ran, now that it came back: into the lesson shown now, as
  /// if typed there (none when it has no blank).
  private static func typedAhead(_ state: inout LessonsState, account: String)
    -> Outcome<Delegate>
  {
    let keys = state.typedAhead
    state.typedAhead = []
    var effects: [Effect] = []
    for key in keys { effects += reduce(&state, key, account: account).effects }
    return .effects(effects)
  }

  /// The course and this round's events, under the load's id.
  static func load(account: String) -> Effect {
    .run(.lessonsLoad, .loadLessons(account: account))
  }

  private static func loaded(
    _ state: inout LessonsState, _ result: Result<LessonsProgress, LessonsFailure>,
    at now: Timestamp
  ) -> Outcome<Delegate> {
    guard state.stage == .loading else { return .none }
    switch result {
    case .success(let progress):
      state.lessons = progress.course.lessons
      state.events = ofThisCourse(progress.events, state.lessons)
      showFirstUnsolved(&state, at: now)
      let notices = progress.course.notices
      return notices.isEmpty ? .none : .delegate(.notice(notices.joined(separator: "; ")))
    case .failure(let failure):
      state.stage = .failed(failure.message)
      return .none
    }
  }

  private static func next(_ state: inout LessonsState, account: String) -> Outcome<Delegate> {
    guard state.isNextEnabled, let attempt = state.attempt, let lesson = state.currentLesson
    else { return .none }
    guard lesson.isCorrect(answer: attempt.answer.text) else {
      state.message = LessonsText.wrongAnswer
      return .none
    }
    state.isSaving = true
    state.message = nil
    return .effects([
      .run(
        .lessonProgress,
        .recordLessonCompletion(account: account, lessonID: lesson.id, started: attempt.shownAt))
    ])
  }

  /// Edits the blank of a lesson that has one; a change of the text takes the message away.
  private static func editAnswer(
    _ state: inout LessonsState, _ edit: (inout TextInput) -> Void
  ) -> Outcome<Delegate> {
    guard !state.isSaving, var attempt = state.attempt, state.currentLesson?.hasInput == true
    else { return .none }
    let before = attempt.answer.text
    edit(&attempt.answer)
    state.stage = .lesson(attempt)
    if attempt.answer.text != before { state.message = nil }
    return .none
  }

  /// The first lesson with no event in this round, first shown at `now`; Done when none.
  private static func showFirstUnsolved(_ state: inout LessonsState, at now: Timestamp) {
    state.message = nil
    if let index = state.firstUnsolved {
      state.stage = .lesson(
        LessonAttempt(
          index: index, shownAt: now,
          limit: LessonsState.answerLimit(for: state.lessons[index])))
    } else {
      state.stage = .done
    }
  }

  /// The events of lessons in this course (a round may hold events of another lesson file).
  private static func ofThisCourse(_ events: [CompletionEvent], _ lessons: [Lesson])
    -> [CompletionEvent]
  {
    let ids = Set(lessons.map(\.id))
    return events.filter { ids.contains($0.lessonID) }
  }
}
