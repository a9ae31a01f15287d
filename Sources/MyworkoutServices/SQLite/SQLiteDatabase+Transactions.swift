import CSQLite

/// How a transaction takes its locks.
package enum SQLiteTransactionKind: String, Sendable {
  /// Locks on first read or write. A read that later writes may fail with BUSY if another
  /// connection wrote meanwhile.
  case deferred = "DEFERRED"
  /// Takes the write lock at once (waiting up to the busy timeout, in turn with other writers
  /// of the file: `SQLiteWriterQueue`): a read-modify-write inside sees the latest data and no
  /// other writer can slip in between.
  case immediate = "IMMEDIATE"
}

extension SQLiteDatabase {
  /// Runs `body` in a transaction: committed when it returns, rolled back when it (or the
  /// commit) throws. Not reentrant: a transaction must not already be open.
  package func transaction<T>(
    _ kind: SQLiteTransactionKind = .deferred, _ body: () throws -> T
  ) throws -> T {
    if kind == .immediate, let writers {
      try writers.inTurn { try execute("BEGIN IMMEDIATE") }
    } else {
      try execute("BEGIN \(kind.rawValue)")
    }
    let result: T
    do {
      result = try body()
      try execute("COMMIT")
    } catch {
      rollBack()
      throw error
    }
    return result
  }

  /// Ends an open transaction without keeping its changes. Best effort: SQLite may already have
  /// rolled back on its own (after an interrupt or an I/O error), which is fine.
  private func rollBack() {
    guard isInTransaction else { return }
    try? execute("ROLLBACK")
  }
}
