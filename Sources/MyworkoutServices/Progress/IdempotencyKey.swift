/// A change's `Idempotency-Key` (issue 23): the client makes one per change and sends it again
/// when it retries that change, so the server applies the change once. `request` is a
/// fingerprint of the request it came with, to tell a retry from a key used for another change.
package struct IdempotencyKey: Sendable, Hashable {
  package var value: String
  package var request: String

  package init(_ value: String, request: String) {
    self.value = value
    self.request = request
  }
}

/// What a change sent with an `IdempotencyKey` did; in every case the key is remembered (per
/// account) in the same transaction as the change.
package enum Applied<Value: Sendable>: Sendable {
  /// Applied now: the result.
  case applied(Value)
  /// The key was applied before, to the same request: nothing changed; the state as stored.
  case replayed(Value)
  /// The key was applied before, to another request: nothing changed.
  case keyReused

  /// The result or the stored state; nil for `keyReused`.
  package var value: Value? {
    switch self {
    case .applied(let value), .replayed(let value): value
    case .keyReused: nil
    }
  }
}

extension Applied: Equatable where Value: Equatable {}
