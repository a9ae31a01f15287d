import MyworkoutCore
import MyworkoutRemote
import MyworkoutServices
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One contract for `ProgressService` (and the lesson completion events that share its store),
/// run against `ProgressStore` and the HTTP client.
@Suite struct ProgressServiceContractTests {
  @Test(arguments: Implementation.allCases)
  func mergesUpdatesNeverReplacingThem(_ implementation: Implementation) async throws {
    try await withServices(implementation) { services in
      let account = try await services.signIn()
      #expect(
        try await services.progress.progress(account: account, classID: "c1") == ClassProgress())
      try await services.progress.record(
        ProgressUpdate(
          account: account, classID: "c1", position: 5_000, played: IntervalSet([0..<5_000]),
          addedTimeInClass: 6_000))
      let merged = try await services.progress.record(
        ProgressUpdate(
          account: account, classID: "c1", position: 2_000,
          played: IntervalSet([4_000..<8_000, 20_000..<21_000]), addedTimeInClass: 1_000))
      #expect(merged.lastPosition == 2_000)
      #expect(merged.watched == IntervalSet([0..<8_000, 20_000..<21_000]))
      #expect(merged.timeInClass == 7_000)
      #expect(try await services.progress.progress(account: account, classID: "c1") == merged)
      let classes = [
        DanceClass(
          id: "c1", title: "", instructor: "", level: .beginner, song: "", videoURL: "",
          thumbnailSlug: "", duration: 90),
        DanceClass(
          id: "c2", title: "", instructor: "", level: .beginner, song: "", videoURL: "",
          thumbnailSlug: "", duration: 90),
      ]
      #expect(
        try await services.progress.watchedPercents(account: account, classes: classes) == [
          "c1": 10
        ])
    }
  }

  @Test(arguments: Implementation.allCases)
  func completionEventsFollowRounds(_ implementation: Implementation) async throws {
    let started = Date(timeIntervalSince1970: 1_700_000_000)
    let completed = Date(timeIntervalSince1970: 1_700_000_042)
    try await withServices(implementation) { services in
      let account = try await services.signIn()
      let events = services.completions
      let first = try await events.recordCompletion(
        account: account, lessonID: "1", started: started, completed: completed)
      #expect(
        first == LessonCompletion(lessonID: "1", round: 1, started: started, completed: completed))
      #expect(
        try await events.recordCompletion(
          account: account, lessonID: "1", started: started, completed: completed) == nil)
      #expect(try await events.completions(account: account) == [first!])
      #expect(try await events.startNewRound(account: account) == 2)
      #expect(try await events.completions(account: account) == [])
    }
  }

  @Test func remoteProgressWithoutASessionIsRefused() async throws {
    try await withLiveServer { url, _ in
      let remote = RemoteProgressService(
        server: RemoteServer(baseURL: url), credentials: RemoteCredentials())
      await #expect(throws: ProgressError.self) {
        try await remote.progress(account: "registered@email.com", classID: "c1")
      }
    }
  }
}
