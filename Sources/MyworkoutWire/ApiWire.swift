// The JSON bodies of myworkout-server's own endpoints (SPEC §15), shared by the server and
// remote mode.

/// `POST /api/accounts/lookup`: whether an email is registered (Get started).
package struct EmailLookupRequest: Codable, Equatable, Sendable {
  package var email: String
  package init(email: String) { self.email = email }
}

package struct EmailLookupResponse: Codable, Equatable, Sendable {
  package var registered: Bool
  package init(registered: Bool) { self.registered = registered }
}

/// `POST /api/me/mobile` (Bearer): a new number; answered with a `TokenResponse` whose tokens
/// keep the original expiry.
package struct MobileUpdateRequest: Codable, Equatable, Sendable {
  package var mobile: String
  package init(mobile: String) { self.mobile = mobile }
}

/// One class of the catalog.
package struct ClassDTO: Codable, Equatable, Sendable {
  package var id: String
  package var title: String
  package var instructor: String
  package var level: String
  package var song: String
  package var videoURL: String
  package var thumbnail: String
  /// Seconds.
  package var duration: Int

  package init(
    id: String, title: String, instructor: String, level: String, song: String,
    videoURL: String, thumbnail: String, duration: Int
  ) {
    self.id = id
    self.title = title
    self.instructor = instructor
    self.level = level
    self.song = song
    self.videoURL = videoURL
    self.thumbnail = thumbnail
    self.duration = duration
  }

  enum CodingKeys: String, CodingKey {
    case id, title, instructor, level, song, thumbnail, duration
    case videoURL = "video_url"
  }
}

/// `GET /api/classes?q=&offset=&limit=`: one page of a search.
package struct CatalogPageDTO: Codable, Equatable, Sendable {
  package var query: String
  package var offset: Int
  package var classes: [ClassDTO]
  package var matching: Int
  package var capped: Bool
  package var total: Int

  package init(
    query: String, offset: Int, classes: [ClassDTO], matching: Int, capped: Bool, total: Int
  ) {
    self.query = query
    self.offset = offset
    self.classes = classes
    self.matching = matching
    self.capped = capped
    self.total = total
  }
}

/// Per-class progress (`GET /api/progress/{class}`), times in milliseconds of media time;
/// `watched` as `[start, end)` pairs.
package struct ProgressDTO: Codable, Equatable, Sendable {
  package var lastPosition: Int
  package var watched: [[Int]]
  package var timeInClass: Int

  package init(lastPosition: Int, watched: [[Int]], timeInClass: Int) {
    self.lastPosition = lastPosition
    self.watched = watched
    self.timeInClass = timeInClass
  }

  enum CodingKeys: String, CodingKey {
    case watched
    case lastPosition = "last_position"
    case timeInClass = "time_in_class"
  }
}

/// `POST /api/progress/{class}`: merged, never replacing (position replaced, intervals united,
/// time added).
package struct ProgressUpdateDTO: Codable, Equatable, Sendable {
  package var position: Int
  package var played: [[Int]]
  package var addedTimeInClass: Int
  /// When the change was made (milliseconds since 1970), optional: the position replaces the
  /// stored one only if it is at least as recent.
  package var changedAt: Int64?
  /// When the device sent this request, by the same clock as `changedAt` (milliseconds since
  /// 1970), optional: the server reads `changedAt` on its own clock, the device's clock error
  /// taken out (a device a year slow, or a change that waited offline on a fast one).
  package var sentAt: Int64?

  package init(
    position: Int, played: [[Int]], addedTimeInClass: Int, changedAt: Int64? = nil,
    sentAt: Int64? = nil
  ) {
    self.position = position
    self.played = played
    self.addedTimeInClass = addedTimeInClass
    self.changedAt = changedAt
    self.sentAt = sentAt
  }

  enum CodingKeys: String, CodingKey {
    case position, played
    case addedTimeInClass = "added_time_in_class"
    case changedAt = "changed_at"
    case sentAt = "sent_at"
  }
}

/// `POST /api/progress/percents`: watched % of the listed classes (id and duration in seconds).
package struct PercentsRequest: Codable, Equatable, Sendable {
  package struct Item: Codable, Equatable, Sendable {
    package var id: String
    package var duration: Int
    package init(id: String, duration: Int) {
      self.id = id
      self.duration = duration
    }
  }
  package var classes: [Item]
  package init(classes: [Item]) { self.classes = classes }
}

package struct PercentsResponse: Codable, Equatable, Sendable {
  package var percents: [String: Int]
  package init(percents: [String: Int]) { self.percents = percents }
}

/// One lesson completion event; times are whole seconds since 1970 (UTC).
package struct CompletionDTO: Codable, Equatable, Sendable {
  package var lessonID: String
  package var round: Int
  package var started: Int64
  package var completed: Int64

  package init(lessonID: String, round: Int, started: Int64, completed: Int64) {
    self.lessonID = lessonID
    self.round = round
    self.started = started
    self.completed = completed
  }

  enum CodingKeys: String, CodingKey {
    case round, started, completed
    case lessonID = "lesson_id"
  }
}

/// `POST /api/lessons/completions`. `round`: the one the lesson was finished in, as the device
/// knew it (a change sent late belongs there); none: the current one.
package struct CompletionRequest: Codable, Equatable, Sendable {
  package var lessonID: String
  package var started: Int64
  package var completed: Int64
  package var round: Int?

  package init(lessonID: String, started: Int64, completed: Int64, round: Int? = nil) {
    self.lessonID = lessonID
    self.started = started
    self.completed = completed
    self.round = round
  }

  enum CodingKeys: String, CodingKey {
    case started, completed, round
    case lessonID = "lesson_id"
  }
}

/// The answer to a completion: the event, or null when the lesson already had one this round.
package struct CompletionResponse: Codable, Equatable, Sendable {
  package var completion: CompletionDTO?
  package init(completion: CompletionDTO?) { self.completion = completion }
}

/// The current round's events, and the round (also when it has none yet).
package struct CompletionsResponse: Codable, Equatable, Sendable {
  package var completions: [CompletionDTO]
  package var round: Int?
  package init(completions: [CompletionDTO], round: Int? = nil) {
    self.completions = completions
    self.round = round
  }
}

/// `POST /api/lessons/rounds`'s optional body: the round the device starts over from (no body,
/// or none named: the current one). A round that is no longer the current one (another device
/// started over since) starts nothing: 409.
package struct StartOverRequest: Codable, Equatable, Sendable {
  package var from: Int?
  package init(from: Int?) { self.from = from }

  private enum CodingKeys: String, CodingKey { case from }

  /// `from` left out is none; `"from": null` is not a round (refused).
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    from = container.contains(.from) ? try container.decode(Int.self, forKey: .from) : nil
  }
}

/// `POST /api/lessons/rounds`: Start over; the new round's number.
package struct RoundResponse: Codable, Equatable, Sendable {
  package var round: Int
  package init(round: Int) { self.round = round }
}

/// One entry of `GET /v2/list` (Lorem Picsum's fields).
package struct PicsumImage: Codable, Equatable, Sendable {
  package var id: String
  package var author: String
  package var width: Int
  package var height: Int
  package var url: String
  package var downloadURL: String

  package init(
    id: String, author: String, width: Int, height: Int, url: String, downloadURL: String
  ) {
    self.id = id
    self.author = author
    self.width = width
    self.height = height
    self.url = url
    self.downloadURL = downloadURL
  }

  enum CodingKeys: String, CodingKey {
    case id, author, width, height, url
    case downloadURL = "download_url"
  }
}
