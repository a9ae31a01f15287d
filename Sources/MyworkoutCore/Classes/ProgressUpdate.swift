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
  /// When the person was at `position`, in milliseconds since 1970: a position replaces the
  /// stored one only if it is at least as recent, so that changes arriving late (a device back
  /// online, a failed save sent again) do not move the position back (SPEC §18). Nil: now (the
  /// app's runtime stamps each save it sends; a Player sending a position an earlier visit
  /// left sets that visit's time).
  package var changedAt: Int64?

  package init(
    account: String, classID: String, position: Int, played: IntervalSet = IntervalSet(),
    addedTimeInClass: Int = 0, changedAt: Int64? = nil
  ) {
    self.account = account
    self.classID = classID
    self.position = position
    self.played = played
    self.addedTimeInClass = addedTimeInClass
    self.changedAt = changedAt
  }
}

extension ProgressUpdate {
  /// What of this change is kept for the next save after it failed with `error`: all of it,
  /// but its time in class when the change may have been applied all the same (its intervals
  /// merge harmlessly when sent again; its time would count twice).
  package func kept(after error: ProgressError) -> ProgressUpdate {
    var kept = self
    if error.mayHaveBeenApplied { kept.addedTimeInClass = 0 }
    return kept
  }

  /// Whether a position stamped `stamp` is at least as recent as one stamped `other`; an
  /// unstamped one was made now, so it is the most recent.
  package static func stamp(_ stamp: Int64?, isAtLeast other: Int64?) -> Bool {
    (stamp ?? .max) >= (other ?? .max)
  }

  /// Where this change leaves the person, and when they were there.
  package var keptPosition: KeptPosition {
    KeptPosition(position: position, changedAt: changedAt)
  }

  /// Whether `other` is this change as the runtime sent it: the same, with the time it was
  /// made (`changedAt`) stamped by the runtime when this one has none. (An earlier visit's save
  /// of the same position and nothing played differs from this one only by its time.)
  package func isSameChange(as other: ProgressUpdate) -> Bool {
    var stamped = self
    if stamped.changedAt == nil { stamped.changedAt = other.changedAt }
    return stamped == other
  }

  /// This change followed by `later` of the same class, as one: the intervals merged, the
  /// times added (within what one change may carry), the more recent position (`later`'s,
  /// unless it was stamped earlier: a failed save sent again says where an earlier visit left
  /// the person).
  package func followed(by later: ProgressUpdate) -> ProgressUpdate {
    var merged = later
    merged.played = played.union(later.played)
    merged.addedTimeInClass = min(
      ProgressBounds.addTime(addedTimeInClass, later.addedTimeInClass),
      ProgressBounds.addedMilliseconds)
    if !Self.stamp(later.changedAt, isAtLeast: changedAt) {
      merged.position = position
      merged.changedAt = changedAt
    }
    return merged
  }
}

/// Progress could not be read or saved; the message is one line for the user, e.g.
/// `Progress could not be saved: database is locked`.
package struct ProgressError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String
  /// How the message of a save that was not made begins.
  package static let notSavedPrefix = "Progress could not be saved: "
  /// The server is away (remote mode): what is kept on this device may stand in.
  package var isServerAway = false
  /// The server refused the signed-in person's token (remote mode: a 401): the session is
  /// over, whatever was asked.
  package var isSessionRefused = false
  /// How a notice that shows what was kept on this device begins, when the server is away
  /// (`Can't reach the server`, `The server did not answer`, …).
  package var awayNotice: String?
  /// The change may have been applied all the same (remote mode: its answer was lost after
  /// it was sent): sent again, its time in class would count twice.
  package var mayHaveBeenApplied = false
  /// A change every store refuses whole (a bound it would pass); nil for a failure.
  package var refusal: Refusal?
  /// A read not made because the class's saves were still on their way: where the latest of
  /// them leaves the class.
  package var savesOnTheirWay: KeptPosition?

  /// The bounds a change can pass (`ProgressBounds`).
  package enum Refusal: Sendable {
    case tooManyIntervals, tooManyClasses, tooManyLessonEvents
  }

  package init(
    message: String, isServerAway: Bool = false, mayHaveBeenApplied: Bool = false,
    refusal: Refusal? = nil
  ) {
    self.message = message
    self.isServerAway = isServerAway
    self.mayHaveBeenApplied = mayHaveBeenApplied
    self.refusal = refusal
  }

  package var description: String { message }

  /// A change that would leave a class's watched time in more than
  /// `ProgressBounds.storedIntervals` separate intervals (no person watching makes one): refused
  /// whole, by every store.
  package static let tooManyIntervals = ProgressError(
    message:
      "The class's watched time would hold more than \(ProgressBounds.storedIntervals) separate intervals.",
    refusal: .tooManyIntervals)

  /// A save for a class the account has no progress for, when it already keeps progress for
  /// `limit` classes (`ProgressBounds.storedClasses` unless a test lowers it): refused whole, by
  /// every store.
  package static func tooManyClasses(limit: Int) -> ProgressError {
    ProgressError(
      message: "The account already keeps progress for \(limit) classes.",
      refusal: .tooManyClasses)
  }

  /// A completion that would file another event, when the account already keeps `limit`
  /// (`ProgressBounds.storedLessonEvents` unless a test lowers it), every round together:
  /// refused whole, by every store.
  package static func tooManyLessonEvents(limit: Int) -> ProgressError {
    ProgressError(
      message: "The account already keeps \(limit) lesson completion events.",
      refusal: .tooManyLessonEvents)
  }
}
