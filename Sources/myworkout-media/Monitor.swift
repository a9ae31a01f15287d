#if canImport(Glibc)
  import Glibc
#endif

/// A lock with a condition, for the player's three threads (decoding, sound, showing).
final class Monitor: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()

  init() {
    pthread_mutex_init(&mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(&condition, &attributes)
  }

  func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return try body()
  }

  /// Waits (the lock held by the caller) until signalled.
  func wait() { pthread_cond_wait(&condition, &mutex) }

  func broadcast() { pthread_cond_broadcast(&condition) }
}

/// Monotonic nanoseconds.
func monotonicNow() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Starts a thread running `body`.
func startThread(_ body: @escaping @Sendable () -> Void) {
  final class Box: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let box = Unmanaged.passRetained(Box(body)).toOpaque()
  var thread = pthread_t()
  pthread_create(
    &thread, nil,
    { raw in
      let box = Unmanaged<AnyObject>.fromOpaque(raw!).takeRetainedValue() as! Box
      box.body()
      return nil
    }, box)
  pthread_detach(thread)
}
