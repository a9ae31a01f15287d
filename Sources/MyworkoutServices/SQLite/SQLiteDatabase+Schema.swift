import CSQLite

extension SQLiteDatabase {
  /// Makes sure the file holds `schema` at `version` (`PRAGMA user_version`): a new, empty file
  /// gets it; a file already at `version` is left alone; anything else (another version, or
  /// tables without a version) throws an error whose `isDamage` is true, since it is not a
  /// file this code can use.
  package func ensureSchema(_ schema: String, version: Int) throws {
    try transaction(.immediate) {
      let found = try userVersion()
      if found == version { return }
      guard found == 0, try scalar("SELECT count(*) FROM sqlite_schema") == .integer(0) else {
        throw SQLiteError(
          code: SQLITE_NOTADB, message: "schema version \(found), expected \(version)",
          context: "Cannot use \(path)")
      }
      try execute(schema)
      try setUserVersion(version)
    }
  }
}
