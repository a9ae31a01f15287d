import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the player saves (SPEC §12): where the person is now, what was played since the last
/// save, and the wall time the player was open since then. Merged into what is stored, never
/// replacing it, so two copies of the app never lose each other's intervals or time.
package struct ProgressUpdate: Sendable, Hashable {
  package var account: String
  package var classID: String
  /// Media time in milliseconds; replaces the stored last position.
  package var position: Int
  /// Media time played since the last save; added to the stored intervals.
  package var played: IntervalSet
  /// Wall time in milliseconds the player was open since the last save; added to the total.
  package var addedTimeInClass: Int

  package init(
    account: String, classID: String, position: Int, played: IntervalSet = IntervalSet(),
    addedTimeInClass: Int = 0
  ) {
    self.account = account
    self.classID = classID
    self.position = position
    self.played = played
    self.addedTimeInClass = addedTimeInClass
  }
}

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

/// Progress could not be read or saved; the message is one line for the user, e.g.
/// `Progress could not be saved: database is locked`.
package struct ProgressError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String

  package init(message: String) { self.message = message }

  package var description: String { message }
}
