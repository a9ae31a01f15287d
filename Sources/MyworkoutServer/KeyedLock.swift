/// Runs a change of an account's progress or lesson events while no other change under the
/// same key runs, so that what the change checks (its `If-Match`) still stands when it is made.
package protocol ChangeLocking: Sendable {
  func withLock<T>(_ key: String, _ body: () async throws -> T) async throws -> T
}

/// One holder at a time per key, the rest waiting in the order they came. The server changes
/// one account's progress and lesson events one change at a time with it, so what a change
/// checks (its `If-Match`) still stands when it is made: a walk-through's 32 changes sent at
/// one instant under one tag saw up to 15 made. An uncontended lock costs two actor calls.
package actor KeyedLock: ChangeLocking {
  /// The keys held, with who waits for each.
  private var held: [String: [CheckedContinuation<Void, Never>]] = [:]

  private func lock(_ key: String) async {
    guard held[key] != nil else {
      held[key] = []
      return
    }
    await withCheckedContinuation { held[key, default: []].append($0) }
  }

  private func unlock(_ key: String) {
    guard var waiting = held[key], !waiting.isEmpty else {
      held[key] = nil
      return
    }
    let next = waiting.removeFirst()
    held[key] = waiting
    next.resume()
  }

  package init() {}

  /// `body`'s result, run while `key` is held.
  package nonisolated func withLock<T>(_ key: String, _ body: () async throws -> T) async throws
    -> T
  {
    await lock(key)
    do {
      let result = try await body()
      await unlock(key)
      return result
    } catch {
      await unlock(key)
      throw error
    }
  }
}

/// The changes of a deployment whose instances share PostgreSQL: this instance's `KeyedLock`
/// (so one waits here, not in the database), then the deployment's, a transaction-level
/// advisory lock that every instance takes for the key. The check and the change were two
/// steps across instances: of 24 changes sent at once under one tag through two instances,
/// two were made.
struct DeploymentChangeLock: ChangeLocking {
  let local = KeyedLock()
  let database: PostgresDatabase

  func withLock<T>(_ key: String, _ body: () async throws -> T) async throws -> T {
    try await local.withLock(key) { try await database.withChangeLock(key, body) }
  }
}
