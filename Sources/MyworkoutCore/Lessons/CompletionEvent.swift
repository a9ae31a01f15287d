/// A solved lesson: when it was first shown in that visit and when the right answer was given.
package struct CompletionEvent: Hashable, Sendable {
  package var lessonID: Int
  package var started: Timestamp
  package var completed: Timestamp

  package init(lessonID: Int, started: Timestamp, completed: Timestamp) {
    self.lessonID = lessonID
    self.started = started
    self.completed = completed
  }
}
