/// What happens on Lessons. Times come in the answers (the runner's wall clock), never from the
/// reducer.
package enum LessonsAction: Equatable, Sendable {
  /// An edit of the lesson's blank (typing, deleting, moving the cursor).
  case answerEdited(TextEdit)
  case answerPasted(String)
  /// Enter or `[ Next ]` on a lesson.
  case nextPressed
  /// Enter or `[ Start over ]` on Done.
  case startOverPressed
  /// Enter or `[ Try again ]` after the load failed.
  case retryPressed
  /// Esc: back to Profile.
  case escapePressed

  /// The course and this round's events arrived (or could not be loaded), at a wall time.
  case loaded(Result<LessonsProgress, LessonsFailure>, at: Timestamp)
  /// The completion was saved: this round's events now, and the time it was solved (when the
  /// next lesson is shown).
  case completionRecorded(Result<[CompletionEvent], LessonsFailure>, at: Timestamp)
  /// Start over began a new round (its number), at a wall time.
  case roundStarted(Result<Int, LessonsFailure>, at: Timestamp)

  /// An answer from the services (as opposed to a key), delivered only while the screen is open.
  var isAnswer: Bool {
    switch self {
    case .loaded, .completionRecorded, .roundStarted: true
    case .answerEdited, .answerPasted, .nextPressed, .startOverPressed, .retryPressed,
      .escapePressed:
      false
    }
  }
}

extension LessonsAction {
  /// Whether the person did this (a key, a click, a paste), as opposed to an answer or a timer.
  package var isInput: Bool {
    !isAnswer
  }
}
