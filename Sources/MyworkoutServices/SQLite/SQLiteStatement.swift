import CSQLite

/// A prepared statement of one connection: bind values to its parameters, step through its
/// rows, read typed columns, reset to run it again. Like its connection it is not thread-safe:
/// use it only where the connection is used. The connection stays open while it exists.
package final class SQLiteStatement {
  private let handle: OpaquePointer

  init(handle: OpaquePointer) {
    self.handle = handle
  }

  /// Its connection (`sqlite3_close_v2` keeps it alive while statements exist).
  private var connection: OpaquePointer? { sqlite3_db_handle(handle) }

  deinit { sqlite3_finalize(handle) }

  /// The SQL text it was prepared from.
  package var sql: String { sqlite3_sql(handle).map { String(cString: $0) } ?? "" }

  /// Resets the statement and binds `values` to parameters 1, 2, ... (all others become null).
  package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    reset()
    sqlite3_clear_bindings(handle)
    guard values.count <= Int(sqlite3_bind_parameter_count(handle)) else {
      throw SQLiteError(
        code: SQLITE_RANGE, message: "\(values.count) values for \(parameterCount) parameters",
        context: sql)
    }
    for (offset, value) in values.enumerated() {
      try bind(value, at: Int32(offset + 1))
    }
  }

  /// Binds one value to the parameter at `index` (from 1).
  package func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
    let code: Int32
    switch value {
    case .null: code = sqlite3_bind_null(handle, index)
    case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
    case .real(let number): code = sqlite3_bind_double(handle, index, number)
    case .text(let text):
      let count = Int32(text.utf8.count)
      code = text.withCString { chars in
        mw_sqlite3_bind_text_transient(handle, index, chars, count)
      }
    case .blob(let bytes):
      code = bytes.withUnsafeBytes { buffer in
        // A zero-length blob needs a non-null pointer too; any valid address will do.
        withUnsafeBytes(of: 0) { empty in
          mw_sqlite3_bind_blob_transient(
            handle, index, buffer.baseAddress ?? empty.baseAddress, Int32(buffer.count))
        }
      }
    }
    try check(code)
  }

  /// Runs the statement to its next row: true when a row is ready to read, false when done.
  package func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code:
      let error = SQLiteError.last(connection, code: code)
      reset()
      throw error
    }
  }

  /// Binds `values`, runs the statement to its end and resets it (for statements without rows).
  package func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
    try bind(values)
    defer { reset() }
    while try step() {}
  }

  /// Binds `values` and returns every row, each read by `read` (which sees this statement with
  /// the row ready). Resets the statement afterwards.
  package func rows<T>(
    _ values: [SQLiteValue] = [], _ read: (SQLiteStatement) throws(SQLiteError) -> T
  ) throws(SQLiteError) -> [T] {
    try bind(values)
    defer { reset() }
    var result: [T] = []
    while try step() { result.append(try read(self)) }
    return result
  }

  /// Binds `values` and returns the first row read by `read`, or nil when there is none.
  package func firstRow<T>(
    _ values: [SQLiteValue] = [], _ read: (SQLiteStatement) throws(SQLiteError) -> T
  ) throws(SQLiteError) -> T? {
    try bind(values)
    defer { reset() }
    return try step() ? read(self) : nil
  }

  /// Makes the statement ready to run again (bindings stay).
  package func reset() { sqlite3_reset(handle) }

  // MARK: Columns of the current row (index from 0)

  package var columnCount: Int32 { sqlite3_column_count(handle) }

  package func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  /// The column as an integer (SQLite converts other types; null is 0).
  package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  package func int(_ column: Int32) -> Int { Int(int64(column)) }

  package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  /// The column as text ("" for null). Invalid UTF-8 is repaired with U+FFFD.
  package func text(_ column: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  /// The column as bytes (empty for null).
  package func blob(_ column: Int32) -> [UInt8] {
    guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, column))
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// The column's value with its storage class.
  package func value(_ column: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, column) {
    case SQLITE_INTEGER: return .integer(int64(column))
    case SQLITE_FLOAT: return .real(double(column))
    case SQLITE_TEXT: return .text(text(column))
    case SQLITE_BLOB: return .blob(blob(column))
    default: return .null
    }
  }

  private var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

  private func check(_ code: Int32) throws(SQLiteError) {
    guard code == SQLITE_OK else { throw SQLiteError.last(connection, code: code).within(sql) }
  }
}
