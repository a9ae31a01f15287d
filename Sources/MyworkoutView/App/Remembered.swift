import Synchronization

/// The results of a pure function, kept by their inputs for the frames after: a frame mostly
/// asks again what the frame before asked (the same hint wrapped, the same footer, the same
/// form's keys). At `limit` entries, everything kept is forgotten together.
final class Remembered<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  let limit: Int
  private let kept = Mutex<[Key: Value]>([:])

  init(limit: Int = 256) {
    self.limit = limit
  }

  /// How many results are kept now (for tests).
  var count: Int { kept.withLock { $0.count } }

  /// The result kept for `key`, else `make`'s, kept from now on.
  func value(for key: Key, _ make: () -> Value) -> Value {
    if let value = kept.withLock({ $0[key] }) { return value }
    let value = make()
    kept.withLock { kept in
      if kept.count >= limit { kept.removeAll(keepingCapacity: true) }
      kept[key] = value
    }
    return value
  }
}
