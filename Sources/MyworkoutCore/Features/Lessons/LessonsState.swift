/// Lessons (SPEC §13): a course loaded from the lesson service with this round's completion
/// events, shown one lesson at a time from the first unsolved one, then `Done`. Reached from
/// Profile; a visit's state ends when the person goes back, so the next visit starts afresh.
package struct LessonsState: Equatable, Sendable {
  /// What the screen shows.
  package enum Stage: Equatable, Sendable {
    /// `Loading lessons…` while the course and the round's events are fetched.
    case loading
    /// `Lessons could not be loaded`, the reason, and `[ Try again ]`.
    case failed(String)
    /// One lesson, and what the person typed for it.
    case lesson(LessonAttempt)
    /// Every lesson of the course has an event in this round.
    case done
  }

  /// At most this many characters can be typed into a lesson's blank, or as many as its answer
  /// has when that is more (a walk-through's 300-character blank could never be filled).
  package static let answerLimit = 200

  /// The characters `lesson`'s blank takes.
  static func answerLimit(for lesson: Lesson) -> Int {
    max(answerLimit, lesson.expectedAnswer?.count ?? 0)
  }

  package var stage: Stage = .loading
  /// The course's lessons, in the file's order.
  package var lessons: [Lesson] = []
  /// This round's completion events for lessons of this course, in the order recorded.
  package var events: [CompletionEvent] = []
  /// A completion or a new round is being saved: keys wait for the answer.
  package var isSaving = false
  /// What was typed into the blank while saving (edits and pastes), in order: on success it
  /// goes to the lesson shown next, as if typed there; a save that fails drops it (it was meant
  /// for a lesson that is not shown, and the answer to try again stays as it was).
  package var typedAhead: [LessonsAction] = []
  /// Under the lesson or Done: `That's not quite right. Try again.`, or why a save failed.
  package var message: String?

  package init() {}

  /// The lesson shown, if any.
  package var attempt: LessonAttempt? {
    if case .lesson(let attempt) = stage { return attempt }
    return nil
  }

  package var currentLesson: Lesson? {
    attempt.flatMap { lessons.indices.contains($0.index) ? lessons[$0.index] : nil }
  }

  /// Whether `[ Next ]` is active: something typed when the lesson has an input, else always.
  package var isNextEnabled: Bool {
    guard let attempt, let lesson = currentLesson, !isSaving else { return false }
    return lesson.isNextEnabled(typed: attempt.answer.text)
  }

  /// The index of the first lesson without an event in this round; nil when all have one.
  var firstUnsolved: Int? {
    let solved = Set(events.map(\.lessonID))
    return lessons.firstIndex { !solved.contains($0.id) }
  }

  /// The requests running for this screen.
  var running: Set<EffectID> {
    var ids: Set<EffectID> = []
    if stage == .loading { ids.insert(.lessonsLoad) }
    if isSaving { ids.insert(.lessonProgress) }
    return ids
  }
}

/// The lesson on screen in this visit: which one, what was typed into its blank, and when it
/// was first shown (the event's `started`).
package struct LessonAttempt: Equatable, Sendable {
  package var index: Int
  package var answer: TextInput
  package var shownAt: Timestamp

  package init(index: Int, shownAt: Timestamp, limit: Int = LessonsState.answerLimit) {
    self.index = index
    self.answer = TextInput(limit: limit)
    self.shownAt = shownAt
  }
}

/// What the lessons load answers: the course and this round's events.
package struct LessonsProgress: Equatable, Sendable {
  package var course: LessonCourse
  /// The current round's events, in the order recorded (for any course).
  package var events: [CompletionEvent]

  package init(course: LessonCourse, events: [CompletionEvent]) {
    self.course = course
    self.events = events
  }
}

/// Why the lessons or their progress could not be loaded or saved: one line to show.
package struct LessonsFailure: Error, Equatable, Sendable {
  package var message: String

  package init(_ message: String) {
    self.message = message
  }
}

/// The Lessons screen's exact texts (SPEC §13).
package enum LessonsText {
  package static let loading = "Loading lessons…"
  package static let couldNotLoad = "Lessons could not be loaded"
  package static let wrongAnswer = "That's not quite right. Try again."

  /// `Lesson 2 of 3`.
  package static func heading(index: Int, of count: Int) -> String {
    "Lesson \(index + 1) of \(count)"
  }

  /// `You completed all 3 lessons.` (one lesson: `You completed the lesson.`).
  package static func completed(_ count: Int) -> String {
    count == 1 ? "You completed the lesson." : "You completed all \(count) lessons."
  }
}
