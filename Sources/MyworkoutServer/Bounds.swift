import MyworkoutCore
import MyworkoutWire

/// Every number a client sends is checked against `ProgressBounds` before it reaches a store
/// (issue 28): out of range is a 400 naming the field, so no request can make the server trap
/// on overflow or store a value that later saves would overflow on.
extension Backend {
  /// The server's clock, in milliseconds since 1970.
  var nowMilliseconds: Int64 {
    Int64((options.now().timeIntervalSince1970 * 1_000).rounded(.down))
  }

  /// A progress save's body as the change to apply. `changed_at` must be within
  /// `ProgressBounds.clockWindowMilliseconds` of the server's clock; one ahead of it counts as
  /// now (a device whose clock ran ahead must not freeze the position for everyone else). 0 says
  /// the position is older than any stored one (an app that could not read where the person
  /// was): it is kept only where none is. With `sent_at` (the device's clock when it sent the
  /// request) more than an hour from the server's clock (and within the window; ignored
  /// outside it), `changed_at` is read on the server's clock: moved by the difference between
  /// the two clocks (and never after the sending).
  func checkedUpdate(_ body: ProgressUpdateDTO, account: String, classID: String)
    throws(APIError) -> ProgressUpdate
  {
    let media = ProgressBounds.mediaMilliseconds
    guard (0...media).contains(body.position) else {
      throw .badRequest("position must be a whole number of milliseconds from 0 to \(media)")
    }
    guard (0...ProgressBounds.addedMilliseconds).contains(body.addedTimeInClass) else {
      throw .badRequest(
        "added_time_in_class must be a whole number of milliseconds from 0 to \(ProgressBounds.addedMilliseconds)"
      )
    }
    guard body.played.count <= ProgressBounds.playedIntervals else {
      throw .badRequest("played must hold at most \(ProgressBounds.playedIntervals) intervals")
    }
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(body.played.count)
    for pair in body.played {
      guard pair.count == 2, pair[0] >= 0, pair[0] < pair[1], pair[1] <= media else {
        throw .badRequest("played must be a list of [start, end] with 0 <= start < end <= \(media)")
      }
      ranges.append(pair[0]..<pair[1])
    }
    let played = IntervalSet(ranges)
    var changedAt = body.changedAt
    if let time = changedAt {
      let now = nowMilliseconds
      let window = ProgressBounds.clockWindowMilliseconds
      guard time == 0 || (time >= now - window && time <= now + window) else {
        throw .badRequest(
          "changed_at must be 0 (older than any position) or milliseconds since 1970 within 20 years of now"
        )
      }
      if time != 0, let sent = body.sentAt, sent >= now - window && sent <= now + window,
        abs(now - sent) > Self.rightClock
      {
        // Both within the window: no overflow, and at least 1 (0 says "older than any").
        changedAt = max(1, min(time, sent) - sent + now)
      } else {
        // No `sent_at`; a clock within an hour of this one, taken as right (the difference may
        // be the time the request waited on its way: a server stopped for seconds applies it
        // when it goes on, and a first seek's retry then beat two later positions); or one no
        // clock could give (a device booted at 1970 before its clock was set, with a change
        // stamped before): the change is not refused for it.
        changedAt = min(time, now)
      }
    }
    return ProgressUpdate(
      account: account, classID: classID, position: body.position, played: played,
      addedTimeInClass: body.addedTimeInClass, changedAt: changedAt)
  }

  /// How far a device's clock may be from the server's and still be taken as right (ms).
  static let rightClock: Int64 = 3_600_000

  /// A class id of the path (decoded), at most `ProgressBounds.idBytes` long: what one account
  /// can make a store hold has an end in the key's length too.
  static func checkedClassID(_ id: String) throws(APIError) -> String {
    guard id.utf8.count <= ProgressBounds.idBytes else {
      throw .badRequest("the class id must be at most \(ProgressBounds.idBytes) bytes of UTF-8")
    }
    return id
  }

  /// A watched-% question's classes, each duration within the catalog's limit.
  func checkedClasses(_ body: PercentsRequest) throws(APIError) -> [DanceClass] {
    guard body.classes.count <= ProgressBounds.percentClasses else {
      throw .badRequest("classes must hold at most \(ProgressBounds.percentClasses) classes")
    }
    let longest = ProgressBounds.longestDurationSeconds
    return try body.classes.map { (item) throws(APIError) -> DanceClass in
      guard (0...longest).contains(item.duration) else {
        throw .badRequest(
          "classes[].duration must be a whole number of seconds from 0 to \(longest)")
      }
      return DanceClass(
        id: item.id, title: "", instructor: "", level: .beginner, song: "", videoURL: "",
        thumbnailSlug: "", duration: item.duration)
    }
  }

  /// A completion's times (whole seconds since 1970) within the window of the server's clock.
  func checkCompletion(_ body: CompletionRequest) throws(APIError) {
    guard !body.lessonID.isEmpty, body.started <= body.completed else {
      throw .badRequest("lesson_id must not be empty, started must not be after completed")
    }
    guard body.lessonID.utf8.count <= ProgressBounds.idBytes else {
      throw .badRequest("lesson_id must be at most \(ProgressBounds.idBytes) bytes of UTF-8")
    }
    if let round = body.round, round < 1 || round > Int(Int32.max) {
      throw .badRequest("round must be 1 or more (at most 2147483647)")
    }
    let now = nowMilliseconds / 1_000
    let window = ProgressBounds.clockWindowMilliseconds / 1_000
    for (name, time) in [("started", body.started), ("completed", body.completed)] {
      guard time >= now - window, time <= now + window else {
        throw .badRequest("\(name) must be seconds since 1970 within 20 years of now")
      }
    }
  }
}
