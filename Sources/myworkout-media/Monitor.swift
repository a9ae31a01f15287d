#if canImport(Glibc)
  import Glibc
#endif

/// A lock with a condition for each thread that waits on it: the decoding thread (for room in
/// the queues) and the sound thread (for sound to play). The showing thread waits in `poll`.
/// Each is woken only for what it waits for, so a picture shown does not wake the sound thread.
final class Monitor: @unchecked Sendable {
  enum Waiter: Int {
    case decoder = 0
    case sound = 1
  }

  private var mutex = pthread_mutex_t()
  /// At fixed addresses, as pthreads wants them.
  private let conditions = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 2)

  init() {
    pthread_mutex_init(&mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    for index in 0..<2 {
      (conditions + index).initialize(to: pthread_cond_t())
      pthread_cond_init(conditions + index, &attributes)
    }
  }

  deinit {
    for index in 0..<2 { pthread_cond_destroy(conditions + index) }
    conditions.deallocate()
  }

  func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return try body()
  }

  /// Waits (the lock held by the caller) until `waiter` is woken.
  func wait(_ waiter: Waiter) { pthread_cond_wait(conditions + waiter.rawValue, &mutex) }

  /// Waits (the lock held by the caller) until `waiter` is woken or the monotonic clock reaches
  /// `deadline` (ns).
  func wait(_ waiter: Waiter, until deadline: Int64) {
    var time = timespec(
      tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    pthread_cond_timedwait(conditions + waiter.rawValue, &mutex, &time)
  }

  func wake(_ waiter: Waiter) { pthread_cond_broadcast(conditions + waiter.rawValue) }

  /// After a command or a change of state both may wait on.
  func wakeAll() {
    wake(.decoder)
    wake(.sound)
  }
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
