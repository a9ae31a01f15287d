import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MyworkoutServer
import MyworkoutWire
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `Idempotency-Key` on the two routes that change progress (issue 23): a change sent twice
/// with the same key is applied once, over SQLite and over PostgreSQL.
@Suite struct IdempotencyRouteTests {
  nonisolated(unsafe) static let save: [String: Any] = [
    "position": 5_000, "played": [[0, 5_000]], "added_time_in_class": 6_000,
  ]

  @Test(arguments: Store.allCases)
  func aProgressChangeSentTwiceWithOneKeyCountsItsTimeOnce(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Self.token(client)
      let first = try await Self.post(client, "/api/progress/c1", Self.save, token, key: "k-1")
      #expect(first.status == 200, "\(first.body)")
      #expect(first.body["time_in_class"] as? Int == 6_000)
      let again = try await Self.post(client, "/api/progress/c1", Self.save, token, key: "k-1")
      #expect(again.status == 200, "\(again.body)")
      #expect(again.body["time_in_class"] as? Int == 6_000)
      #expect(again.body["watched"] as? [[Int]] == [[0, 5_000]])
      // A new key is a new change; no key behaves as before (added every time).
      let other = try await Self.post(client, "/api/progress/c1", Self.save, token, key: "k-2")
      #expect(other.body["time_in_class"] as? Int == 12_000)
      for expected in [18_000, 24_000] {
        let plain = try await Self.post(client, "/api/progress/c1", Self.save, token, key: nil)
        #expect(plain.body["time_in_class"] as? Int == expected)
      }
      // A replay answers the state as it is now, changing nothing.
      let late = try await Self.post(client, "/api/progress/c1", Self.save, token, key: "k-1")
      #expect(late.body["time_in_class"] as? Int == 24_000)
      let stored = try await Self.get(client, "/api/progress/c1", token)
      #expect(stored["time_in_class"] as? Int == 24_000)
    }
  }

  /// SPEC §18's two devices: a change arriving late (made earlier) unites its intervals and
  /// adds its time but leaves the later change's position; a change without a time is now.
  @Test(arguments: Store.allCases)
  func thePositionIsTheLaterChangesWhateverTheOrderOfArrival(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Self.token(client)
      let later: [String: Any] = [
        "position": 9_000, "played": [[8_000, 9_000]], "added_time_in_class": 1_000,
        "changed_at": 1_700_000_002_000,
      ]
      let earlier: [String: Any] = [
        "position": 2_000, "played": [[0, 2_000]], "added_time_in_class": 2_000,
        "changed_at": 1_700_000_001_000,
      ]
      _ = try await Self.post(client, "/api/progress/c1", later, token, key: "b-1")
      let merged = try await Self.post(client, "/api/progress/c1", earlier, token, key: "a-1")
      #expect(merged.status == 200, "\(merged.body)")
      #expect(merged.body["last_position"] as? Int == 9_000)
      #expect(merged.body["watched"] as? [[Int]] == [[0, 2_000], [8_000, 9_000]])
      #expect(merged.body["time_in_class"] as? Int == 3_000)
      let now: [String: Any] = ["position": 500, "played": [], "added_time_in_class": 0]
      let plain = try await Self.post(client, "/api/progress/c1", now, token, key: nil)
      #expect(plain.body["last_position"] as? Int == 500)
      let negative = try await Self.post(
        client, "/api/progress/c1",
        [
          "position": 1, "played": [], "added_time_in_class": 0,
          "changed_at": -1,
        ], token, key: nil)
      #expect(negative.status == 400)
    }
  }

  @Test(arguments: Store.allCases)
  func oneKeySentAtOnceFromManyConnectionsIsAppliedOnce(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Self.token(client)
      let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<8 {
          group.addTask {
            try await Self.post(client, "/api/progress/c1", Self.save, token, key: "same").status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses == Array(repeating: 200, count: 8))
      let stored = try await Self.get(client, "/api/progress/c1", token)
      #expect(stored["time_in_class"] as? Int == 6_000)
    }
  }

  @Test(arguments: Store.allCases)
  func aKeyReusedForAnotherChangeIs422AndChangesNothing(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Self.token(client)
      _ = try await Self.post(client, "/api/progress/c1", Self.save, token, key: "k")
      var changed = Self.save
      changed["added_time_in_class"] = 1
      let reused = try await Self.post(client, "/api/progress/c1", changed, token, key: "k")
      #expect(reused.status == 422, "\(reused.body)")
      #expect(reused.body["error"] as? String == "idempotency_key_reused")
      let elsewhere = try await Self.post(client, "/api/progress/c2", Self.save, token, key: "k")
      #expect(elsewhere.status == 422)
      let lesson = try await Self.post(
        client, "/api/lessons/completions",
        ["lesson_id": "1", "started": 1_700_000_000, "completed": 1_700_000_042], token, key: "k")
      #expect(lesson.status == 422)
      #expect(
        try await Self.get(client, "/api/progress/c1", token)["time_in_class"] as? Int == 6_000)
      #expect(try await Self.get(client, "/api/progress/c2", token)["time_in_class"] as? Int == 0)
      let events = try await Self.get(client, "/api/lessons/completions", token)
      #expect((events["completions"] as? [Any])?.isEmpty == true)
    }
  }

  @Test(arguments: Store.allCases)
  func keysArePerAccount(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let seeded = try await Self.token(client)
      let other = try await Self.signedUpToken(client, email: "other@example.com")
      _ = try await Self.post(client, "/api/progress/c1", Self.save, seeded, key: "k")
      let theirs = try await Self.post(client, "/api/progress/c1", Self.save, other, key: "k")
      #expect(theirs.status == 200)
      #expect(theirs.body["time_in_class"] as? Int == 6_000)
      #expect(
        try await Self.get(client, "/api/progress/c1", other)["time_in_class"] as? Int == 6_000)
    }
  }

  @Test(arguments: Store.allCases)
  func aCompletionSentAgainAfterStartOverWithItsKeyIsNotFiledTwice(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Self.token(client)
      let event: [String: Any] = [
        "lesson_id": "1", "started": 1_700_000_000, "completed": 1_700_000_042,
      ]
      let first = try await Self.post(client, "/api/lessons/completions", event, token, key: "e")
      #expect(first.status == 200, "\(first.body)")
      #expect((first.body["completion"] as? [String: Any])?["round"] as? Int == 1)
      // The same key in the same round answers the stored event.
      let replay = try await Self.post(client, "/api/lessons/completions", event, token, key: "e")
      #expect((replay.body["completion"] as? [String: Any])?["lesson_id"] as? String == "1")
      _ = try await Self.post(client, "/api/lessons/rounds", [:], token, key: nil)
      // After Start over, the retried change (same key) files nothing in round 2 …
      let late = try await Self.post(client, "/api/lessons/completions", event, token, key: "e")
      #expect(late.status == 200)
      #expect(late.body["completion"] as? [String: Any] == nil)
      var events = try await Self.get(client, "/api/lessons/completions", token)
      #expect((events["completions"] as? [Any])?.count == 0)
      // … while a new change (no key) does.
      _ = try await Self.post(client, "/api/lessons/completions", event, token, key: nil)
      events = try await Self.get(client, "/api/lessons/completions", token)
      #expect((events["completions"] as? [Any])?.count == 1)
    }
  }

  /// SPEC §18: a device offline during round 1 sends its completions after another device
  /// started round 2. Each says the round it was made in, and is filed there: round 2 still
  /// opens at lesson 1 (a walk-through saw them filed in round 2, which then skipped lessons
  /// nobody did in it). The answer names the current round even when it has no events; a round
  /// the server never reached, or none, files in the current round (clients that send none).
  @Test(arguments: Store.allCases)
  func aCompletionIsFiledInTheRoundItWasMadeIn(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Self.token(client)
      func event(_ lesson: String, round: Int?) -> [String: Any] {
        var body: [String: Any] = [
          "lesson_id": lesson, "started": 1_700_000_000, "completed": 1_700_000_042,
        ]
        if let round { body["round"] = round }
        return body
      }
      var events = try await Self.get(client, "/api/lessons/completions", token)
      #expect(events["round"] as? Int == 1, "\(events)")
      _ = try await Self.post(client, "/api/lessons/rounds", [:], token, key: nil)
      let late = try await Self.post(
        client, "/api/lessons/completions", event("1", round: 1), token, key: "x1")
      #expect((late.body["completion"] as? [String: Any])?["round"] as? Int == 1, "\(late.body)")
      events = try await Self.get(client, "/api/lessons/completions", token)
      #expect(events["round"] as? Int == 2, "\(events)")
      #expect((events["completions"] as? [Any])?.isEmpty == true, "\(events)")
      for (lesson, round) in [("2", nil), ("3", 7)] as [(String, Int?)] {
        let now = try await Self.post(
          client, "/api/lessons/completions", event(lesson, round: round), token, key: lesson)
        #expect((now.body["completion"] as? [String: Any])?["round"] as? Int == 2, "\(now.body)")
      }
      let refused = try await Self.post(
        client, "/api/lessons/completions", event("4", round: 0), token, key: nil)
      #expect(refused.status == 400)
      #expect((refused.body["error_description"] as? String)?.contains("round") == true)
    }
  }

  /// SPEC §18: Start over says the round it starts over from; when another device started over
  /// since, nothing starts (409), so the round that device is in is not skipped (a walk-through's
  /// device, showing a round that was over as done, skipped another device's round 4 with
  /// lesson 5 done in it). Without a round (older clients), the current one, as before.
  @Test(arguments: Store.allCases)
  func startingOverFromARoundThatIsOverStartsNothing(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Self.token(client)
      let first = try await Self.post(client, "/api/lessons/rounds", ["from": 1], token, key: nil)
      #expect(first.status == 200 && first.body["round"] as? Int == 2, "\(first.body)")
      let stale = try await Self.post(client, "/api/lessons/rounds", ["from": 1], token, key: nil)
      #expect(stale.status == 409, "\(stale.body)")
      #expect(stale.body["error"] as? String == "round_moved")
      var events = try await Self.get(client, "/api/lessons/completions", token)
      #expect(events["round"] as? Int == 2, "nothing started")
      let next = try await Self.post(client, "/api/lessons/rounds", ["from": 2], token, key: nil)
      #expect(next.body["round"] as? Int == 3, "\(next.body)")
      let plain = try await Self.post(client, "/api/lessons/rounds", [:], token, key: nil)
      #expect(plain.body["round"] as? Int == 4, "\(plain.body)")
      let null = try await client.execute(
        uri: "/api/lessons/rounds", method: .post,
        headers: [.contentType: "application/json", .authorization: "Bearer " + token],
        body: ByteBuffer(string: #"{"from": null}"#)
      ) { Int($0.status.code) }
      #expect(null == 400, "a null round is not one")
      for bad in [["from": 0], ["from": "3"], ["from": 3_000_000_000]] as [[String: Any]] {
        let refused = try await Self.post(client, "/api/lessons/rounds", bad, token, key: nil)
        #expect(refused.status == 400, "\(bad): \(refused.body)")
      }
      events = try await Self.get(client, "/api/lessons/completions", token)
      #expect(events["round"] as? Int == 4)
    }
  }

  /// Valid JSON with a value its field cannot take (a fraction where seconds are whole, a
  /// number past 64 bits) is refused naming the field, not as "not valid JSON" (a walk-through
  /// was told its JSON was invalid for `"started": 1795769000.5`).
  @Test func aValueItsFieldCannotTakeIsRefusedByName() async throws {
    try await withRouter { client, _ in
      let token = try await Self.token(client)
      for started in [1_795_769_000.5, 1e30] {
        let event: [String: Any] = [
          "lesson_id": "1", "started": started, "completed": 1_795_769_042,
        ]
        let refused = try await Self.post(
          client, "/api/lessons/completions", event, token, key: nil)
        #expect(refused.status == 400)
        let description = refused.body["error_description"] as? String ?? ""
        #expect(description.contains("'started'"), "\(description)")
        #expect(!description.contains("not valid JSON"), "\(description)")
      }
    }
  }

  /// The refusal's message stays short whatever the body holds: it named the path of every
  /// fraction anywhere in the body, so 36 KB of long keys and fractions came back as an 80-MB
  /// answer (the server's memory grew by 300 MB for it; a 1-MiB body would have ended it).
  @Test func aRefusalNamesAFewFieldsNotEveryOne() async throws {
    try await withRouter { client, _ in
      let token = try await Self.token(client)
      let key = String(repeating: "k", count: 20_000)
      let event: [String: Any] = [
        "lesson_id": "1", "started": 1.5, "completed": 1_795_769_042,
        key: Array(repeating: 1.5, count: 2_000),
      ]
      let refused = try await Self.post(client, "/api/lessons/completions", event, token, key: nil)
      #expect(refused.status == 400)
      let description = refused.body["error_description"] as? String ?? ""
      #expect(description.count < 400, "\(description.count) characters")
      #expect(description.contains("'started'"), "\(description.prefix(300))")
      #expect(description.contains("and 1,998 more"), "\(description.prefix(300))")
    }
  }

  /// SPEC §18: the list of completions and the round it names are one reading. Another device
  /// starts over and finishes lesson `L<round>` in each new round while this one reads: every
  /// answer's events are its round's (a walk-through found the events and the round read in two
  /// steps, so a Start over between them paired round N's events with round N + 1).
  @Test(arguments: Store.allCases)
  func theCompletionsAndTheirRoundAreReadTogether(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Self.token(client)
      let rounds = 120
      let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
        group.addTask {
          for _ in 0..<rounds {
            let started = try await Self.post(client, "/api/lessons/rounds", [:], token, key: nil)
            let round = try #require(started.body["round"] as? Int, "\(started.body)")
            let event: [String: Any] = [
              "lesson_id": "L\(round)", "started": 1_700_000_000, "completed": 1_700_000_042,
              "round": round,
            ]
            _ = try await Self.post(client, "/api/lessons/completions", event, token, key: nil)
          }
          return []
        }
        group.addTask {
          var found: [String] = []
          var last = 1
          while last <= rounds {
            let answer = try await Self.get(client, "/api/lessons/completions", token)
            let round = try #require(answer["round"] as? Int, "\(answer)")
            last = round
            let lessons = (answer["completions"] as? [[String: Any]] ?? []).map {
              $0["lesson_id"] as? String ?? "?"
            }
            if lessons.contains(where: { $0 != "L\(round)" }) {
              found.append("round \(round) with \(lessons)")
            }
            if round > rounds { break }
          }
          return found
        }
        var all: [String] = []
        for try await found in group { all += found }
        return all
      }
      #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }
  }

  /// SPEC §18: a lesson finished on two devices (two keys) is two events; each key is still
  /// applied once, and a completion without a key is one per lesson and round, as before.
  @Test(arguments: Store.allCases)
  func oneLessonFinishedOnTwoDevicesIsTwoEvents(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let token = try await Self.token(client)
      func event(_ lesson: String, _ started: Int) -> [String: Any] {
        ["lesson_id": lesson, "started": started, "completed": started + 42]
      }
      let phone = try await Self.post(
        client, "/api/lessons/completions", event("1", 1_700_000_000), token, key: "phone")
      let laptop = try await Self.post(
        client, "/api/lessons/completions", event("1", 1_700_000_500), token, key: "laptop")
      #expect(phone.status == 200 && laptop.status == 200, "\(phone.body) \(laptop.body)")
      #expect((laptop.body["completion"] as? [String: Any])?["started"] as? Int == 1_700_000_500)
      // Retries change nothing and answer each key's own event.
      for _ in 0..<2 {
        let again = try await Self.post(
          client, "/api/lessons/completions", event("1", 1_700_000_500), token, key: "laptop")
        #expect((again.body["completion"] as? [String: Any])?["started"] as? Int == 1_700_000_500)
      }
      // Without a key, as before: not filed again for a lesson that has an event.
      let plain = try await Self.post(
        client, "/api/lessons/completions", event("1", 1_700_000_900), token, key: nil)
      #expect(plain.status == 200)
      #expect(plain.body["completion"] as? [String: Any] == nil)
      for _ in 0..<2 {
        _ = try await Self.post(
          client, "/api/lessons/completions", event("2", 1_700_001_000), token, key: nil)
      }
      let events = try await Self.get(client, "/api/lessons/completions", token)
      let list = try #require(events["completions"] as? [[String: Any]])
      #expect(list.map { $0["lesson_id"] as? String } == ["1", "1", "2"])
      #expect(list.map { $0["started"] as? Int } == [1_700_000_000, 1_700_000_500, 1_700_001_000])
    }
  }

  @Test(arguments: ["", "\"\"", "with space", String(repeating: "x", count: 256)])
  func aMalformedKeyIs400AndChangesNothing(key: String) async throws {
    try await withRouter { client, _ in
      let token = try await Self.token(client)
      let answer = try await Self.post(client, "/api/progress/c1", Self.save, token, key: key)
      #expect(answer.status == 400, "\(answer.body)")
      #expect(try await Self.get(client, "/api/progress/c1", token)["time_in_class"] as? Int == 0)
    }
  }

  @Test func theDraftsQuotedFormNamesTheSameKey() async throws {
    try await withRouter { client, _ in
      let token = try await Self.token(client)
      _ = try await Self.post(client, "/api/progress/c1", Self.save, token, key: "abc")
      let quoted = try await Self.post(client, "/api/progress/c1", Self.save, token, key: "\"abc\"")
      #expect(quoted.status == 200)
      #expect(quoted.body["time_in_class"] as? Int == 6_000)
    }
  }

  // MARK: Helpers

  struct Answer: @unchecked Sendable {
    var status: Int
    var body: [String: Any]
  }

  static func token(
    _ client: any TestClientProtocol, email: String = "registered@email.com",
    password: String = "password"
  ) async throws -> String {
    try await client.execute(
      uri: "/authenticate", method: .post, headers: jsonHeaders,
      body: jsonBody(["email": email, "password": password, "client_id": "app"])
    ) { response in
      #expect(response.status == .ok)
      return try JSONDecoder().decode(
        TokenResponse.self, from: Data(response.body.readableBytesView)
      )
      .accessToken
    }
  }

  /// A new account `email` (password `Secret-123`) signed up, and its access token.
  static func signedUpToken(_ client: any TestClientProtocol, email: String) async throws
    -> String
  {
    let signup: [String: Any] = [
      "client_id": "app", "email": email, "password": "Secret-123",
      "connection": "Username-Password-Authentication",
    ]
    try await client.execute(
      uri: "/dbconnections/signup", method: .post, headers: jsonHeaders, body: jsonBody(signup)
    ) { #expect($0.status == .ok) }
    return try await token(client, email: email, password: "Secret-123")
  }

  static func post(
    _ client: any TestClientProtocol, _ uri: String, _ body: [String: Any], _ token: String,
    key: String?
  ) async throws -> Answer {
    var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer " + token]
    if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
    return try await client.execute(
      uri: uri, method: .post, headers: headers, body: jsonBody(body)
    ) { Answer(status: Int($0.status.code), body: $0.body.json) }
  }

  static func get(_ client: any TestClientProtocol, _ uri: String, _ token: String) async throws
    -> [String: Any]
  {
    try await client.execute(
      uri: uri, method: .get, headers: [.authorization: "Bearer " + token]
    ) { response in
      #expect(response.status == .ok)
      return response.body.json
    }
  }
}
