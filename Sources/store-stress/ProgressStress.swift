import MyworkoutCore
import MyworkoutServices

/// The progress workload: one lane of interleaved one-second intervals for one account and
/// class, each saved in its own `ProgressStore.record` (a locked read-merge-write of
/// `progress.sqlite`). Lane `k` of `n` plays seconds `k, k + n, k + 2n, ...`, so the lanes of
/// several processes together cover the first `n × count` seconds exactly once.
struct ProgressStress {
  let store: ProgressStore
  let account: String
  let classID: String

  init(path: String, account: String, classID: String) throws {
    let directory = try DataDirectory.prepare(path: path)
    store = ProgressStore(directory: directory, onNotice: { fail("unexpected notice: \($0)") })
    self.account = account
    self.classID = classID
  }

  /// Records `count` intervals of lane `lane` of `lanes`, adding 10 ms of time in class each.
  func play(lane: Int, of lanes: Int, count: Int) async throws {
    for index in 0..<count {
      let start = (index * lanes + lane) * 1000
      try await store.record(
        ProgressUpdate(
          account: account, classID: classID, position: start + 1000,
          played: IntervalSet([start..<(start + 1000)]), addedTimeInClass: 10))
    }
  }
}
