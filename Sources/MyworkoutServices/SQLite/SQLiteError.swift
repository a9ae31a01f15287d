import CSQLite

/// A failed SQLite call, as a value: SQLite's result code and its own message (from
/// `sqlite3_errmsg`), plus what we were doing, so the text shown to the user names the file.
package struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE` (2067).
  package let extendedCode: Int32
  /// SQLite's message, e.g. `file is not a database`.
  package let message: String
  /// What failed, e.g. `Cannot open /x/catalog.sqlite`; empty when the message says enough.
  package let context: String

  package init(code: Int32, message: String, context: String = "") {
    self.extendedCode = code
    self.message = message
    self.context = context
  }

  /// The primary result code, e.g. `SQLITE_CONSTRAINT` (19).
  package var code: Int32 { extendedCode & 0xff }

  package var description: String { context.isEmpty ? message : "\(context): \(message)" }

  /// The file is not a database or its contents are damaged: move it aside.
  package var isDamage: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

  /// The connection can only read: the file could not be opened for writing when it was (its
  /// mode, a read-only mount, an immutable flag). A new connection may write, once it can.
  package var isReadOnly: Bool { code == SQLITE_READONLY }

  /// Another connection held a lock for longer than the busy timeout.
  package var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

  /// The statement was interrupted, e.g. because the task running it was cancelled.
  package var isInterrupt: Bool { code == SQLITE_INTERRUPT }

  /// The same error with `context` in front of its message.
  package func within(_ context: String) -> SQLiteError {
    let combined = self.context.isEmpty ? context : "\(context): \(self.context)"
    return SQLiteError(code: extendedCode, message: message, context: combined)
  }

  /// The error SQLite reports for `connection` after a call returned `code`.
  static func last(_ connection: OpaquePointer?, code: Int32) -> SQLiteError {
    let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
    return SQLiteError(code: code, message: text ?? String(cString: sqlite3_errstr(code)))
  }
}
