import MyworkoutCore
import TestProcesses
import Testing

@testable import MyworkoutServices

/// Two processes saving progress for the same account and class at once never lose each
/// other's intervals or time (SPEC §12: two copies of the app playing at once).
@Suite struct ProgressProcessTests {
  static let lanes = 2
  static let intervalsEach = 150

  @Test func twoProcessesRecordingAtOnceLoseNothing() async throws {
    try await withTemporaryDirectory { root throws in
      let path = root + "/data"
      let children = try (0..<Self.lanes).map { lane in
        try StressTool.start(
          [
            "progress", path, "account-1", "class-1", String(lane), String(Self.lanes),
            String(Self.intervalsEach),
          ], errorLog: root + "/lane\(lane).log")
      }
      for (lane, child) in children.enumerated() {
        let end = await child.wait()
        #expect(end == .exited(0), "lane \(lane): \(StressTool.log(root + "/lane\(lane).log"))")
      }
      let notices = NoticeLog()
      let store = makeProgressStore(DataDirectory(unchecked: path), notices: notices)
      let progress = try await store.progress(account: "account-1", classID: "class-1")
      let seconds = Self.lanes * Self.intervalsEach
      // Every lane's every second is there: one merged interval, no gap.
      #expect(progress.watched.ranges == [0..<(seconds * 1000)])
      #expect(progress.timeInClass == seconds * 10)
      #expect(notices.all.isEmpty)
      #expect(permissions(path + "/progress.sqlite") == 0o600)
    }
  }
}
