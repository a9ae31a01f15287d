import Synchronization

/// `body`'s result, or nil when it has none within `limit` (it is then cancelled and left to
/// end as it may: a call that waits for good fails its test instead of holding it).
func within<T: Sendable>(
  _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error>? {
  let first = FirstAnswer<Result<T, any Error>?>()
  return await withCheckedContinuation { continuation in
    first.wait(continuation)
    let work = Task {
      do { first.answer(.success(try await body())) } catch { first.answer(.failure(error)) }
    }
    Task {
      try? await Task.sleep(for: limit)
      work.cancel()
      first.answer(nil)
    }
  }
}

/// Resumes a continuation with the first answer given; later ones are dropped.
final class FirstAnswer<T: Sendable>: Sendable {
  private let waiting = Mutex<CheckedContinuation<T, Never>?>(nil)

  func wait(_ continuation: CheckedContinuation<T, Never>) {
    waiting.withLock { $0 = continuation }
  }

  func answer(_ value: T) {
    waiting.withLock {
      $0?.resume(returning: value)
      $0 = nil
    }
  }
}
