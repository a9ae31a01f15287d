import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One solved lesson (SPEC §13): the lesson's id, when it was first shown in that visit and
/// when it was solved, in the round it belongs to.
package struct LessonCompletion: Sendable, Hashable {
  package var lessonID: String
  package var round: Int
  package var started: Date
  package var completed: Date

  package init(lessonID: String, round: Int, started: Date, completed: Date) {
    self.lessonID = lessonID
    self.round = round
    self.started = started
    self.completed = completed
  }
}

/// An account's current round and its events, as one reading saw them.
package struct RoundCompletions: Sendable, Hashable {
  package var round: Int
  package var events: [LessonCompletion]

  package init(round: Int, events: [LessonCompletion]) {
    self.round = round
    self.events = events
  }
}
