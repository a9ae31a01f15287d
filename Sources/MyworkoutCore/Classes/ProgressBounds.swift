/// The ranges the numbers of a progress change must fall in (issue 28): the server refuses a
/// change outside them (400, naming the field), the app never makes one, and arithmetic on
/// stored values saturates at them instead of trapping. Media times are in milliseconds.
package enum ProgressBounds {
  /// The longest class a catalog can hold, in seconds (the CSV import's limit).
  package static let longestDurationSeconds = Int(Int32.max)
  /// The furthest media time a position or a played interval can reach.
  package static let mediaMilliseconds = longestDurationSeconds * 1_000
  /// The most wall time one change can add to the time in class: a year (a player left open,
  /// paused, and saved when it is closed).
  package static let addedMilliseconds = 366 * 86_400_000
  /// The most intervals one change can carry.
  package static let playedIntervals = 10_000
  /// The most separate intervals one class's watched time can hold (a change that would pass
  /// it is refused): a row stays small, so every save of it stays quick.
  package static let storedIntervals = 10_000
  /// The most classes one account keeps progress for (a save for another class is refused):
  /// with `storedIntervals`, what one account can make a store hold has an end. A catalog of
  /// 351 classes is a big one.
  package static let storedClasses = 10_000
  /// The most lesson completion events one account keeps, every round together (one more is
  /// refused): a round has a handful of lessons, so this is hundreds of Start overs, while what
  /// one account can make a store hold, and a completions answer, has an end.
  package static let storedLessonEvents = 10_000
  /// The most `Idempotency-Key`s kept per account, the newest (a walk-through's 5,000 saves,
  /// each with a new key, grew the store 1.2 KB a save for good). An older key sent again is
  /// applied as new: a device's sender sends its oldest change first and nothing else until
  /// it is answered, so that takes this many of the account's changes from its other devices
  /// meanwhile (hours of play).
  package static let appliedKeys = 10_000

  /// Whether a store that just kept a key prunes the account's oldest past `limit` now: one
  /// time in 64 at the full limit (counting an account's keys costs a scan of them), every
  /// time at a small one (tests).
  package static func prunesAppliedKeys(limit: Int) -> Bool {
    Int.random(in: 0..<max(1, min(64, limit / 16))) == 0
  }

  /// The longest id a stored key can have, in UTF-8 bytes: a class id (the catalog's are 64
  /// hexadecimal digits) and a lesson id (the lesson file's are short).
  package static let idBytes = 255
  /// The most classes one watched-% question can name.
  package static let percentClasses = 10_000
  /// Time in class stops growing here (a hundred years); a stored value past it reads as it.
  package static let timeInClassMilliseconds = 100 * 366 * 86_400_000
  /// A change's time (`changed_at`, a completion's times) must be within this of the server's
  /// clock: twenty years, in milliseconds.
  package static let clockWindowMilliseconds: Int64 = 20 * 366 * 86_400_000

  /// `value` within 0...`limit`.
  package static func clamp(_ value: Int, to limit: Int) -> Int { min(max(0, value), limit) }

  /// `total` + `added`, never past `timeInClassMilliseconds` (nor below 0).
  package static func addTime(_ total: Int, _ added: Int) -> Int {
    let total = clamp(total, to: timeInClassMilliseconds)
    let added = clamp(added, to: timeInClassMilliseconds)
    return min(total + added, timeInClassMilliseconds)
  }
}

extension ClassProgress {
  /// Adds `milliseconds` to the time in class, saturating at `ProgressBounds`.
  package mutating func addTime(_ milliseconds: Int) {
    timeInClass = ProgressBounds.addTime(timeInClass, milliseconds)
  }

  /// The progress with every number within `ProgressBounds` (a row stored before the bounds,
  /// or by a server that had none, reads within them).
  package var bounded: ClassProgress {
    ClassProgress(
      lastPosition: ProgressBounds.clamp(lastPosition, to: ProgressBounds.mediaMilliseconds),
      watched: watched,
      timeInClass: ProgressBounds.clamp(timeInClass, to: ProgressBounds.timeInClassMilliseconds))
  }
}
