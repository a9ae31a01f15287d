import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MyworkoutCore
import MyworkoutServer
import MyworkoutWire
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Every number a client sends is bounded (issue 28): out of range is a 400 naming the field,
/// never a trap that kills the server; stored values saturate; a time ahead of the server's
/// clock counts as now. Over SQLite and PostgreSQL.
@Suite struct BoundsRouteTests {
  typealias Routes = IdempotencyRouteTests
  /// `ProgressBounds.timeInClassMilliseconds`, written out: a hundred years.
  static let timeInClassCap = 100 * 366 * 86_400_000

  static func save(
    position: Int = 1_000, played: [[Int]] = [[0, 1_000]], added: Int = 1_000,
    changedAt: Int64? = nil, sentAt: Int64? = nil
  ) -> [String: Any] {
    var body: [String: Any] = [
      "position": position, "played": played, "added_time_in_class": added,
    ]
    if let changedAt { body["changed_at"] = changedAt }
    if let sentAt { body["sent_at"] = sentAt }
    return body
  }

  /// The requests of the walk-through, and their kin: each is a 400 that names its field, and
  /// the server answers the next request as before.
  @Test(arguments: Store.allCases)
  func outOfRangeNumbersAreRefusedNamingTheField(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let percents: [String: Any] = ["classes": [["id": "x", "duration": 9_223_372_036_854_776]]]
      let answer = try await Routes.post(
        client, "/api/progress/percents", percents, token, key: nil)
      #expect(answer.status == 400)
      #expect((answer.body["error_description"] as? String)?.contains("duration") == true)
      let cases: [(String, [String: Any])] = [
        ("added_time_in_class", Self.save(added: Int.max)),
        ("added_time_in_class", Self.save(added: -1)),
        ("position", Self.save(position: Int.max)),
        ("position", Self.save(position: -5)),
        ("played", Self.save(played: [[0, Int.max]])),
        ("played", Self.save(played: [[5, 2]])),
        ("played", Self.save(played: Array(repeating: [0, 1], count: 10_001))),
        ("changed_at", Self.save(changedAt: Int64.max)),
        ("changed_at", Self.save(changedAt: -1)),
      ]
      for (field, body) in cases {
        let refused = try await Routes.post(client, "/api/progress/c1", body, token, key: nil)
        #expect(refused.status == 400, "\(field)")
        #expect(
          (refused.body["error_description"] as? String)?.contains(field) == true,
          "\(field): \(refused.body)")
      }
      for (field, body) in [
        ("started", ["lesson_id": "1", "started": Int64.min / 2, "completed": 1_700_000_000]),
        ("completed", ["lesson_id": "1", "started": 1_700_000_000, "completed": Int64.max]),
      ] as [(String, [String: Any])] {
        let refused = try await Routes.post(
          client, "/api/lessons/completions", body, token, key: nil)
        #expect(refused.status == 400, "\(field)")
        #expect((refused.body["error_description"] as? String)?.contains(field) == true)
      }
      // Nothing of it was stored, and the server goes on.
      let fine = try await Routes.post(client, "/api/progress/c1", Self.save(), token, key: nil)
      #expect(fine.status == 200)
      #expect(fine.body["time_in_class"] as? Int == 1_000)
    }
  }

  /// A class's stored watched time is bounded as each change is: at most 10,000 separate
  /// intervals. A walk-through grew one row to 7 MB with changes of 10,000 intervals each (every
  /// save of it then took seconds, and a few at once took the cluster down). A change that would
  /// pass the bound is refused whole (422, its key not kept); one that joins intervals is not.
  @Test(arguments: Store.allCases)
  func aClassHoldsAtMostTenThousandIntervals(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let apart = (0..<10_000).map { [$0 * 20, $0 * 20 + 10] }
      let first = try await Routes.post(
        client, "/api/progress/c1", Self.save(position: 0, played: apart, added: 0), token,
        key: nil)
      #expect(first.status == 200)
      let beyond = Self.save(position: 5, played: [[300_000, 300_010]], added: 7)
      for _ in 0..<2 {
        let refused = try await Routes.post(client, "/api/progress/c1", beyond, token, key: "k")
        #expect(refused.status == 422, "\(refused.body)")
        #expect(refused.body["error"] as? String == "too_many_intervals", "\(refused.body)")
      }
      let joined = try await Routes.post(
        client, "/api/progress/c1", Self.save(position: 0, played: [[10, 20]], added: 1), token,
        key: nil)
      #expect(joined.status == 200, "\(joined.body)")
      #expect((joined.body["watched"] as? [[Int]])?.count == 9_999)
      #expect(joined.body["time_in_class"] as? Int == 1, "nothing of the refused change")
    }
  }

  /// An account keeps progress for a bounded number of classes: progress is keyed by any class
  /// id, so before this a script could grow one account's rows without end (a walk-through's
  /// note). A save for one more class is refused whole (422, its key not kept); the classes it
  /// has go on saving, and another account is not affected. The limit is lowered to three here
  /// (`ProgressBounds.storedClasses` in a server).
  @Test(arguments: Store.allCases)
  func anAccountKeepsProgressForABoundedNumberOfClasses(store: Store) async throws {
    try await withRouter(store, { $0.progressClassLimit = 3 }) { client, _ in
      let token = try await Routes.token(client)
      for id in ["c1", "c2", "c3"] {
        let saved = try await Routes.post(
          client, "/api/progress/\(id)", Self.save(), token, key: nil)
        #expect(saved.status == 200, "\(id): \(saved.body)")
      }
      for key in ["k", "k", nil] {
        let refused = try await Routes.post(
          client, "/api/progress/c4", Self.save(), token, key: key)
        #expect(refused.status == 422, "\(refused.body)")
        #expect(refused.body["error"] as? String == "too_many_classes", "\(refused.body)")
      }
      #expect(try await Routes.get(client, "/api/progress/c4", token)["time_in_class"] as? Int == 0)
      let again = try await Routes.post(client, "/api/progress/c2", Self.save(), token, key: "k2")
      #expect(again.status == 200, "\(again.body)")
      #expect(again.body["time_in_class"] as? Int == 2_000)
      // Another account's first class.
      let other = try await Routes.signedUpToken(client, email: "other@email.com")
      let theirs = try await Routes.post(client, "/api/progress/c4", Self.save(), other, key: "k")
      #expect(theirs.status == 200, "\(theirs.body)")
    }
  }

  /// A lesson completion's id is at most 255 bytes, and an account keeps a bounded number of
  /// events (a walk-through's finding: any id up to the 1 MiB body, any number of them, so one
  /// account filled the disk and `GET /api/lessons/completions` grew without end). A longer id
  /// is a 400 naming `lesson_id`; one event more is refused whole (422
  /// `too_many_lesson_events`, its key not kept), in any round, while an event the account has
  /// still answers as before. The limit is lowered to three here
  /// (`ProgressBounds.storedLessonEvents` in a server).
  @Test(arguments: Store.allCases)
  func anAccountKeepsABoundedNumberOfShortLessonEvents(store: Store) async throws {
    try await withRouter(store, { $0.lessonEventLimit = 3 }) { client, _ in
      let token = try await Routes.token(client)
      func event(_ lesson: String, _ started: Int = 1_700_000_000) -> [String: Any] {
        ["lesson_id": lesson, "started": started, "completed": started + 42]
      }
      let path = "/api/lessons/completions"
      let long = try await Routes.post(
        client, path, event(String(repeating: "é", count: 128)), token, key: nil)
      #expect(long.status == 400, "\(long.body)")
      #expect(long.body["error"] as? String == "invalid_request", "\(long.body)")
      #expect((long.body["error_description"] as? String)?.contains("lesson_id") == true)
      let longest = String(repeating: "L", count: 255)
      for (lesson, key) in [(longest, nil), ("2", "a"), ("2", "b")] as [(String, String?)] {
        let started = key == "b" ? 1_700_000_100 : 1_700_000_000
        let filed = try await Routes.post(client, path, event(lesson, started), token, key: key)
        #expect(filed.status == 200, "\(lesson.prefix(3)): \(filed.body)")
        #expect(filed.body["completion"] is [String: Any], "\(filed.body)")
      }
      for key in ["k", "k", nil] {
        let refused = try await Routes.post(client, path, event("3"), token, key: key)
        #expect(refused.status == 422, "\(refused.body)")
        #expect(refused.body["error"] as? String == "too_many_lesson_events", "\(refused.body)")
      }
      // An event the account has: answered as before (nothing new to file).
      let again = try await Routes.post(client, path, event("2"), token, key: "a")
      #expect(again.status == 200, "\(again.body)")
      let kept = try await Routes.get(client, path, token)["completions"] as? [[String: Any]]
      #expect(kept?.count == 3)
      // Start over keeps the old rounds' events: the bound counts them.
      _ = try await Routes.post(client, "/api/lessons/rounds", [:], token, key: nil)
      let next = try await Routes.post(client, path, event("1"), token, key: "n")
      #expect(next.status == 422, "\(next.body)")
      let other = try await Routes.signedUpToken(client, email: "other@email.com")
      let theirs = try await Routes.post(client, path, event("3"), other, key: "k")
      #expect(theirs.status == 200, "\(theirs.body)")
    }
  }

  /// A class id (the path's) is at most 255 bytes, as a lesson id is: a save named a class of
  /// 60,000 characters before, kept twice (row and key).
  @Test(arguments: Store.allCases)
  func aClassIDIsAtMost255Bytes(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let long = try await Routes.post(
        client, "/api/progress/" + String(repeating: "c", count: 256), Self.save(), token,
        key: nil)
      #expect(long.status == 400, "\(long.body)")
      #expect(long.body["error"] as? String == "invalid_request", "\(long.body)")
      let read = try await client.execute(
        uri: "/api/progress/" + String(repeating: "c", count: 256), method: .get,
        headers: [.authorization: "Bearer " + token]
      ) { Int($0.status.code) }
      #expect(read == 400)
      let longest = try await Routes.post(
        client, "/api/progress/" + String(repeating: "c", count: 255), Self.save(), token,
        key: nil)
      #expect(longest.status == 200, "\(longest.body)")
    }
  }

  /// The store itself (under the routes) never traps: a huge time saturates, a second one
  /// too, and what is read stays within the bounds.
  @Test(arguments: Store.allCases)
  func storedTimeSaturatesInsteadOfTrapping(store: Store) async throws {
    try await withRouter(store) { client, backend in
      let token = try await Routes.token(client)
      let account = "auth0|5eed00000000000000000001"  // the seeded account's id
      for _ in 0..<2 {
        _ = try await backend.progress.record(
          ProgressUpdate(
            account: account, classID: "c1", position: 0, addedTimeInClass: Int.max))
      }
      let read = try await backend.progress.progress(account: account, classID: "c1")
      #expect(read.timeInClass == Self.timeInClassCap)
      // An ordinary save of that class still works.
      let fine = try await Routes.post(client, "/api/progress/c1", Self.save(), token, key: nil)
      #expect(fine.status == 200, "\(fine.body)")
      #expect(fine.body["time_in_class"] as? Int == Self.timeInClassCap)
    }
  }

  /// A device whose clock ran 12 h ahead saves once: that time counts as the server's now, so
  /// the next save (made a minute later, by a right clock) moves the position.
  @Test(arguments: Store.allCases)
  func aChangeFromAClockAheadCountsAsNow(store: Store) async throws {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    try await withRouter(store, { $0.now = { now } }) { client, _ in
      let token = try await Routes.token(client)
      let nowMs = Int64(now.timeIntervalSince1970 * 1_000)
      let ahead = Self.save(position: 6_000, changedAt: nowMs + 12 * 3_600_000)
      #expect(
        try await Routes.post(client, "/api/progress/c1", ahead, token, key: "a").status == 200)
      let later = Self.save(position: 90_000, played: [[6_000, 90_000]], changedAt: nowMs + 60_000)
      let merged = try await Routes.post(client, "/api/progress/c1", later, token, key: "b")
      #expect(merged.status == 200)
      #expect(merged.body["last_position"] as? Int == 90_000)
    }
  }

  /// A device says when it sent a change (`sent_at`, by its own clock): the change's time is
  /// read on the server's clock (the device's clock error taken out). A device a year slow
  /// moves a position a right clock stamped before its change; a device 12 h fast whose
  /// change waited offline for 2 minutes does not move a position stamped after it.
  @Test(arguments: Store.allCases)
  func aChangesTimeIsReadOnTheServersClock(store: Store) async throws {
    // Before the stores' own clock (the real one), which bounds a stored time to it.
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    try await withRouter(store, { $0.now = { now } }) { client, _ in
      let token = try await Routes.token(client)
      let nowMs = Int64(now.timeIntervalSince1970 * 1_000)
      let (year, halfDay) = (Int64(365 * 86_400_000), Int64(12 * 3_600_000))
      let right = Self.save(position: 6_000, changedAt: nowMs - 60_000, sentAt: nowMs)
      #expect(
        try await Routes.post(client, "/api/progress/c1", right, token, key: "a").status == 200)
      let slow = Self.save(
        position: 90_000, played: [[6_000, 90_000]], changedAt: nowMs - year - 1_000,
        sentAt: nowMs - year)
      let moved = try await Routes.post(client, "/api/progress/c1", slow, token, key: "b")
      #expect(moved.status == 200, "\(moved.body)")
      #expect(moved.body["last_position"] as? Int == 90_000)
      let fast = Self.save(
        position: 30_000, played: [], changedAt: nowMs + halfDay - 120_000, sentAt: nowMs + halfDay)
      let kept = try await Routes.post(client, "/api/progress/c1", fast, token, key: "c")
      #expect(kept.status == 200, "\(kept.body)")
      #expect(kept.body["last_position"] as? Int == 90_000)
      // A `sent_at` no clock could give (a device booted at 1970, its change stamped before)
      // is ignored, not refused: the change counts as made when it says, bounded by now.
      let wild = Self.save(position: 95_000, played: [], changedAt: nowMs, sentAt: 1)
      let taken = try await Routes.post(client, "/api/progress/c1", wild, token, key: "d")
      #expect(taken.status == 200, "\(taken.body)")
      #expect(taken.body["last_position"] as? Int == 95_000)
    }
  }

  /// A request that waited on its way (a server stopped for seconds applies it when it goes
  /// on) is not made later by that wait: clocks within an hour of the server's are taken as
  /// right. (A tmux walk-through: a first seek's retry, applied 4.5 s after it was sent, beat
  /// the two later positions.)
  @Test(arguments: Store.allCases)
  func aRequestThatWaitedOnItsWayKeepsItsTime(store: Store) async throws {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    try await withRouter(store, { $0.now = { now } }) { client, _ in
      let token = try await Routes.token(client)
      let nowMs = Int64(now.timeIntervalSince1970 * 1_000)
      let later = Self.save(position: 13_009, changedAt: nowMs - 8_000, sentAt: nowMs)
      #expect(
        try await Routes.post(client, "/api/progress/c1", later, token, key: "a").status == 200)
      let waited = Self.save(position: 8_009, changedAt: nowMs - 9_000, sentAt: nowMs - 4_500)
      let kept = try await Routes.post(client, "/api/progress/c1", waited, token, key: "b")
      #expect(kept.status == 200, "\(kept.body)")
      #expect(kept.body["last_position"] as? Int == 13_009)
    }
  }

  /// `changed_at` 0 says the position is older than any stored one (an app that could not read
  /// where the person was saves the time spent): the time is added, the stored position stays,
  /// and a class with none takes it.
  @Test(arguments: Store.allCases)
  func aPositionStampedZeroIsKeptOnlyWhereNoneIs(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let first = Self.save(position: 6_000, played: [[0, 6_000]])
      #expect(
        try await Routes.post(client, "/api/progress/c1", first, token, key: "a").status == 200)
      let unread = Self.save(position: 0, played: [], added: 500, changedAt: 0)
      let merged = try await Routes.post(client, "/api/progress/c1", unread, token, key: "b")
      #expect(merged.status == 200, "\(merged.body)")
      #expect(merged.body["last_position"] as? Int == 6_000)
      #expect(merged.body["time_in_class"] as? Int == 1_500)
      let fresh = Self.save(position: 0, played: [], added: 500, changedAt: 0)
      let new = try await Routes.post(client, "/api/progress/c2", fresh, token, key: "c")
      #expect(new.status == 200)
      #expect(new.body["last_position"] as? Int == 0)
      // A position saved after it moves it, as any.
      let later = Self.save(position: 9_000, played: [[6_000, 9_000]])
      let moved = try await Routes.post(client, "/api/progress/c2", later, token, key: "d")
      #expect(moved.body["last_position"] as? Int == 9_000)
    }
  }

  /// Found by the API fuzzer: a NUL in any text made PostgreSQL fail (500, with its own words
  /// in the answer). Refused on both stores, as a 400, before any store sees it.
  @Test(arguments: Store.allCases)
  func textWithANulIsRefused(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Routes.token(client)
      let login = try await Routes.post(
        client, "/authenticate", ["email": "a\u{0}b", "password": "x"], token, key: nil)
      #expect(login.status == 400, "\(login.body)")
      #expect((login.body["error_description"] as? String)?.contains("NUL") == true)
      let percents = try await Routes.post(
        client, "/api/progress/percents", ["classes": [["id": "a\u{0}b", "duration": 1]]], token,
        key: nil)
      #expect(percents.status == 400)
      let search = try await client.execute(uri: "/api/classes?q=a%00b", method: .get) {
        Int($0.status.code)
      }
      #expect(search == 400)
      let path = try await client.execute(
        uri: "/api/progress/a%00b", method: .get, headers: [.authorization: "Bearer " + token]
      ) { Int($0.status.code) }
      #expect(path == 400)
    }
  }

  /// A query string's `+` is a space (HTML forms, `URLSearchParams`, Python's `urlencode` and
  /// `curl --data-urlencode` all send one so) and `%2B` a plus: a walk-through's
  /// `q=zoe+okafor` searched for the text `zoe+okafor` and found nothing (and 40 words joined
  /// by `+` passed the 32-word bound as one).
  @Test(arguments: Store.allCases)
  func aPlusInTheQueryIsASpace(store: Store) async throws {
    try await withRouter(store) { client, _ in
      func search(_ raw: String) async throws -> (Int, [String: Any]) {
        try await client.execute(uri: "/api/classes?limit=1&q=" + raw, method: .get) {
          (Int($0.status.code), $0.body.json)
        }
      }
      let (status, spaced) = try await search("zoe+okafor")
      #expect(status == 200)
      #expect(spaced["query"] as? String == "zoe okafor")
      #expect((spaced["matching"] as? Int ?? 0) > 0, "\(spaced)")
      let (_, plus) = try await search("a%2Bb")
      #expect(plus["query"] as? String == "a+b")
      let words = (0...Backend.searchWords).map { "w\($0)" }.joined(separator: "+")
      #expect(try await search(words).0 == 400)
    }
  }

  /// A walk-through's search of 1,000 words got a 500 whose description was SQLite's whole
  /// statement ("Expression tree is too large"). A search is bounded (`Backend.searchLimits`):
  /// past it a 400 says the bound; at it (the most words, and one word of the most characters,
  /// whose trigrams all go to the full-text index) it is answered on both stores.
  @Test(arguments: Store.allCases)
  func aSearchPastItsBoundsIsRefusedAndOneAtThemAnswered(store: Store) async throws {
    try await withRouter(store) { client, _ in
      func search(_ query: String) async throws -> (Int, String) {
        let encoded = query.replacing(" ", with: "%20")
        return try await client.execute(uri: "/api/classes?q=" + encoded, method: .get) {
          (Int($0.status.code), String(buffer: $0.body))
        }
      }
      let (thousand, thousandBody) = try await search(String(repeating: "a ", count: 1_000))
      #expect(thousand == 400, "\(thousandBody.prefix(300))")
      #expect(!thousandBody.contains("SELECT"))
      let (many, manyBody) = try await search(
        Array(repeating: "a", count: Backend.searchWords + 1).joined(separator: " "))
      #expect(many == 400, "\(manyBody.prefix(300))")
      #expect(manyBody.contains("\(Backend.searchWords) words"), "\(manyBody.prefix(300))")
      let (long, longBody) = try await search(
        String(repeating: "b", count: Backend.searchCharacters + 1))
      #expect(long == 400, "\(longBody.prefix(300))")
      #expect(longBody.contains("\(Backend.searchCharacters) characters"))
      var generator = SystemRandomNumberGenerator()
      let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
      let word = String(
        (0..<Backend.searchCharacters).map { _ in letters.randomElement(using: &generator)! })
      let (one, oneBody) = try await search(word)
      #expect(one == 200, "\(oneBody.prefix(300))")
      let words = (0..<Backend.searchWords).map { "w\($0 < 10 ? "0" : "")\($0)" }
        .joined(separator: " ")
      let (most, mostBody) = try await search(words)
      #expect(most == 200, "\(mostBody.prefix(300))")
    }
  }

  /// A walk-through's 200 logins with a 1-MB "email" grew the server by 200 MB for good: the
  /// limiter kept each whole text as a key. Its keys are now a few hundred bytes at most; a
  /// well-formed address keeps its own key (the per-address limit still counts it).
  @Test func theLoginLimitersKeysAreBounded() {
    let huge = String(repeating: "a", count: 1_000_000) + "@ex.com"
    let marks = "z" + String(repeating: "\u{301}", count: 200_000) + "@ex.com"
    for email in [huge, marks] {
      let keys = Backend.loginKeys(email: email, address: String(repeating: "9", count: 10_000))
      #expect(keys.allSatisfy { $0.utf8.count <= 300 }, "\(keys.map(\.utf8.count))")
    }
    #expect(
      Backend.loginKeys(email: " Ada@Example.COM ", address: "127.0.0.1")
        == ["email:ada@example.com", "address:127.0.0.1"])
  }

  /// A walk-through's 5,000 saves, each with a new `Idempotency-Key`, grew the store 1.2 KB a
  /// save for good. An account keeps its newest keys only (`ProgressBounds.appliedKeys`; three
  /// here): a key among them sent again is answered as before, an older one forgotten (applied
  /// as new), on both stores.
  @Test(arguments: Store.allCases)
  func anAccountKeepsItsNewestIdempotencyKeysOnly(store: Store) async throws {
    try await withRouter(store, { $0.appliedKeyLimit = 3 }) { client, _ in
      let token = try await Routes.token(client)
      let path = "/api/progress/c1"
      for n in 1...5 {
        let saved = try await Routes.post(
          client, path, Self.save(position: n * 1_000), token, key: "k\(n)")
        #expect(saved.status == 200, "\(saved.body)")
        #expect(saved.body["time_in_class"] as? Int == n * 1_000)
      }
      let newest = try await Routes.post(
        client, path, Self.save(position: 5_000), token, key: "k5")
      #expect(newest.body["time_in_class"] as? Int == 5_000, "k5 is kept: \(newest.body)")
      let oldest = try await Routes.post(
        client, path, Self.save(position: 1_000), token, key: "k1")
      #expect(oldest.body["time_in_class"] as? Int == 6_000, "k1 is forgotten: \(oldest.body)")
    }
  }
}
