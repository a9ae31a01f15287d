import MyworkoutCore

/// Where the player keeps what a person watched (SPEC §12): `ProgressStore` over
/// `progress.sqlite` in the embedded default, the server's progress endpoints in remote mode.
/// Calls are immediate (no mock latency) and merge, never replace: the position is replaced,
/// the intervals united and the time added, so two copies of the app never lose each other's
/// work. Failures are thrown as `ProgressError` (one line for the user).
package protocol ProgressService: Sendable {
  /// What `account` did with the class (empty progress when never opened).
  func progress(account: String, classID: String) async throws -> ClassProgress
  /// Merges `update` into what is stored and returns the result.
  @discardableResult
  func record(_ update: ProgressUpdate) async throws -> ClassProgress
  /// Watched % (rounded down) of each of `classes` that `account` has opened, by class id;
  /// classes never opened are left out.
  func watchedPercents(account: String, classes: [DanceClass]) async throws -> [String: Int]
}

extension ProgressStore: ProgressService {}
