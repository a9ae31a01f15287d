import Clocks
import Synchronization
import Testing

/// Set once, read from any task.
final class Flag: Sendable {
  private let value = Mutex(false)
  var isSet: Bool { value.withLock { $0 } }
  func set() { value.withLock { $0 = true } }
}

/// Starts `call`, checks it has not finished after 999 ms of the test clock, then lets the
/// clock reach 1 s and returns how the call ended.
func expectOneSecond<T: Sendable>(
  on clock: TestClock<Duration>, sourceLocation: SourceLocation = #_sourceLocation,
  _ call: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error> {
  let finished = Flag()
  let task = Task { () -> Result<T, any Error> in
    defer { finished.set() }
    do {
      return .success(try await call())
    } catch {
      return .failure(error)
    }
  }
  await waitForSleeper(clock)
  await clock.advance(by: .milliseconds(999))
  #expect(!finished.isSet, "finished before 1 s", sourceLocation: sourceLocation)
  await clock.advance(by: .milliseconds(1))
  return await task.value
}

extension Result {
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
