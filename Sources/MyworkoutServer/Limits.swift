import Synchronization

/// Counts attempts per key in fixed one-minute windows (SPEC §15: 429 after `--login-limit`
/// a minute). Per instance: behind a load balancer the counts move into the shared store or
/// the balancer (DECISIONS.md, "Scaling out").
package final class RateLimiter: Sendable {
  let limit: Int
  let window: Double
  /// Monotonic seconds (tests inject their own).
  let now: @Sendable () -> Double
  private let windows = Mutex<[String: (start: Double, count: Int)]>([:])

  package init(limit: Int, window: Double = 60, now: @escaping @Sendable () -> Double) {
    self.limit = limit
    self.window = window
    self.now = now
  }

  /// Counts one attempt for every key; false (and nothing counted) when any of them has
  /// already had `limit` attempts in its current window.
  package func allow(_ keys: [String]) -> Bool {
    let time = now()
    return windows.withLock { windows in
      if windows.count > 100_000 { windows = windows.filter { time - $0.value.start < window } }
      for key in keys {
        if let entry = windows[key], time - entry.start < window, entry.count >= limit {
          return false
        }
      }
      for key in keys {
        if let entry = windows[key], time - entry.start < window {
          windows[key] = (entry.start, entry.count + 1)
        } else {
          windows[key] = (time, 1)
        }
      }
      return true
    }
  }
}

/// `--chaos`: a third of `/authenticate` answers are 401, a third 500, the rest truthful, drawn
/// from SplitMix64 seeded by `--chaos-seed` (the same seed gives the same sequence).
package final class Chaos: Sendable {
  package enum Outcome: Sendable, Equatable {
    case unauthorized, serverError, truthful
  }

  private let state: Mutex<UInt64>

  package init(seed: UInt64) {
    state = Mutex(seed)
  }

  package func next() -> Outcome {
    let value = state.withLock { state -> UInt64 in
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    switch value % 3 {
    case 0: return .unauthorized
    case 1: return .serverError
    default: return .truthful
    }
  }
}
