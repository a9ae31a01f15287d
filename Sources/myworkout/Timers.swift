import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A started timer; cancelling it means it never fires again.
@MainActor
protocol TimerToken: AnyObject {
  func cancel()
}

/// Where the runtime's timers come from: Dispatch on the main queue in the app, a manual clock
/// in tests. Which timers run is decided by `subscriptions(_:)`, not here.
@MainActor
protocol TimerSource {
  /// Fires every `interval` until cancelled.
  func repeating(every interval: Duration, _ fire: @escaping @MainActor () -> Void)
    -> any TimerToken
  /// Fires once at a wall-clock time (a session's expiry follows the wall clock, also across
  /// the machine's sleep).
  func once(at deadline: Date, _ fire: @escaping @MainActor () -> Void) -> any TimerToken
  /// Fires once after `delay` on the monotonic clock.
  func once(after delay: Duration, _ fire: @escaping @MainActor () -> Void) -> any TimerToken
}

/// Timers on the main dispatch queue, which the app's loop drains.
@MainActor
final class DispatchTimers: TimerSource {
  private final class Token: TimerToken {
    let source: any DispatchSourceTimer
    init(_ source: any DispatchSourceTimer) { self.source = source }
    func cancel() { source.cancel() }
  }

  func repeating(every interval: Duration, _ fire: @escaping @MainActor () -> Void)
    -> any TimerToken
  {
    let nanoseconds = Self.nanoseconds(interval)
    return start(fire) {
      $0.schedule(
        deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
    }
  }

  func once(after delay: Duration, _ fire: @escaping @MainActor () -> Void) -> any TimerToken {
    let nanoseconds = Self.nanoseconds(delay)
    return start(fire) { $0.schedule(deadline: .now() + .nanoseconds(nanoseconds)) }
  }

  private static func nanoseconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds * 1_000_000_000)
      + Int(duration.components.attoseconds / 1_000_000_000)
  }

  func once(at deadline: Date, _ fire: @escaping @MainActor () -> Void) -> any TimerToken {
    let seconds = max(0, deadline.timeIntervalSinceNow)
    return start(fire) { $0.schedule(wallDeadline: .now() + seconds) }
  }

  private func start(
    _ fire: @escaping @MainActor () -> Void, schedule: (any DispatchSourceTimer) -> Void
  ) -> any TimerToken {
    let timer = DispatchSource.makeTimerSource(queue: .main)
    schedule(timer)
    timer.setEventHandler { MainActor.assumeIsolated { fire() } }
    timer.resume()
    return Token(timer)
  }
}

/// The app's timers: repeating ones (the spinner, the Player's clock) as timerfds in the main
/// loop's own `poll`, so a tick wakes only the main thread; one-shot ones (an expiry, the search
/// pause) on Dispatch.
@MainActor
final class LoopTimers: TimerSource {
  private final class Ticker: TimerToken {
    let loop: MainLoop
    let fd: Int32
    init(loop: MainLoop, fd: Int32) {
      self.loop = loop
      self.fd = fd
    }
    func cancel() { loop.removeTicker(fd) }
  }

  private let loop: MainLoop
  private let dispatch = DispatchTimers()

  init(loop: MainLoop) { self.loop = loop }

  func repeating(every interval: Duration, _ fire: @escaping @MainActor () -> Void)
    -> any TimerToken
  {
    guard let fd = loop.addTicker(every: interval, fire) else {
      return dispatch.repeating(every: interval, fire)
    }
    return Ticker(loop: loop, fd: fd)
  }

  func once(at deadline: Date, _ fire: @escaping @MainActor () -> Void) -> any TimerToken {
    dispatch.once(at: deadline, fire)
  }

  func once(after delay: Duration, _ fire: @escaping @MainActor () -> Void) -> any TimerToken {
    dispatch.once(after: delay, fire)
  }
}
