import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One change remote mode keeps in the outbox until the server has it: a progress save or a
/// lesson completion, as it is sent (SPEC §18).
package enum OutboxChange: Codable, Sendable, Hashable {
  /// `POST /api/progress/:class`: position replaced (if this change is the later one),
  /// intervals united, time added; `changedAt` is when it was made (milliseconds since 1970).
  case progress(
    classID: String, position: Int, played: [[Int]], addedTimeInClass: Int,
    changedAt: Int64? = nil)
  /// `POST /api/lessons/completions`, times in whole seconds since 1970; `round`: the one the
  /// lesson was finished in, as the device knew it (nil: not known, or written before it was
  /// kept; the server then files it in its current round).
  case completion(lessonID: String, started: Int64, completed: Int64, round: Int? = nil)

  package init(_ update: ProgressUpdate) {
    self = .progress(
      classID: update.classID, position: update.position,
      played: update.played.ranges.map { [$0.lowerBound, $0.upperBound] },
      addedTimeInClass: update.addedTimeInClass, changedAt: update.changedAt)
  }

  /// The class this change is about, for a progress save.
  package var classID: String? {
    if case .progress(let classID, _, _, _, _) = self { return classID }
    return nil
  }

  /// The intervals of a progress save as a set (malformed pairs left out).
  static func intervals(_ pairs: [[Int]]) -> IntervalSet {
    IntervalSet(pairs.compactMap { $0.count == 2 && $0[0] < $0[1] ? $0[0]..<$0[1] : nil })
  }
}

/// A change as the outbox holds it: its place in the order, and the key (made once, when it
/// was written) that every attempt to send it carries as `Idempotency-Key`.
package struct OutboxEntry: Sendable, Hashable {
  package var sequence: Int64
  package var key: UUID
  package var change: OutboxChange
}

/// What one attempt to send a change came to.
package enum Delivery: Sendable, Equatable {
  /// The server has it (now or before: the key says so).
  case delivered
  /// Not now (no connection, no answer, 5xx, 429): the same change is tried again later.
  case later
  /// Not under this session: the outbox waits, kept, for the next log-in of that account.
  /// `bySession`: the server refused the session's token (401: log in again); else no one, or
  /// another account, is signed in.
  case unauthorized(bySession: Bool)
  /// The server refused this change (a 4xx other than 401 and 429): put aside, with `reason`.
  case refused(reason: String)
}
