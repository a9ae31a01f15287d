import MyworkoutCore
import MyworkoutRemote
import MyworkoutServices
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Two devices of one person, one whose clock is a year slow: remote mode says when it sent
/// each change, so the server reads the change's time on its own clock, and the later change
/// (in real time) holds the position. (A walk-through's question: a device a year off could
/// hold its position over every other device's for that long.)
@Suite struct RemoteClockTests {
  static let year: TimeInterval = 365 * 86_400

  @Test func aDeviceWithASlowClockStillMovesThePositionWithItsLaterChange() async throws {
    try await withLiveServer { url, _ in
      let credentials = try await signedIn(at: url)
      let right = RemoteProgressService(
        server: RemoteServer(baseURL: url), credentials: credentials)
      let slowClock: @Sendable () -> Date = { Date().addingTimeInterval(-Self.year) }
      let slow = RemoteProgressService(
        server: RemoteServer(baseURL: url), credentials: credentials, now: slowClock)
      func stamp(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1_000) }
      // A minute ago on a right clock, then a second ago on the slow one.
      try await right.record(
        ProgressUpdate(
          account: AccountID.seed, classID: "c1", position: 6_000,
          changedAt: stamp(Date().addingTimeInterval(-60))))
      let stored = try await slow.record(
        ProgressUpdate(
          account: AccountID.seed, classID: "c1", position: 90_000,
          changedAt: stamp(slowClock().addingTimeInterval(-1))))
      #expect(stored.lastPosition == 90_000)
      // And an older change of the right device, sent late, does not move it back.
      let late = try await right.record(
        ProgressUpdate(
          account: AccountID.seed, classID: "c1", position: 30_000,
          changedAt: stamp(Date().addingTimeInterval(-30))))
      #expect(late.lastPosition == 90_000)
    }
  }
}
