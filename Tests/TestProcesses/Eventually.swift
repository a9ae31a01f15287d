/// The first non-nil answer of `probe`, asked every `interval` until `timeout` has passed, and
/// asked once more after it. That last look matters on this 2-core machine: the test pool's
/// two threads are often held by blocking tests, so a task's short sleep can end long after
/// its deadline, and a wait that then gave up without looking again failed a test whose answer
/// had long been there (CI: `ExitWatchTests`, its script's file written, read for the last time
/// before the sleep).
public func eventually<T>(
  within timeout: Duration, every interval: Duration = .milliseconds(10),
  _ probe: () async throws -> T?
) async throws -> T? {
  let deadline = ContinuousClock.now + timeout
  while true {
    if let answer = try await probe() { return answer }
    guard ContinuousClock.now < deadline else { return try await probe() }
    try await Task.sleep(for: interval)
  }
}
