import CSQLite

extension SQLiteDatabase {
  /// Makes sure the file holds `schema` at `version` (`PRAGMA user_version`): a new, empty file
  /// gets it; a file already at `version` is left alone; a file at an older version for which
  /// `upgrades` has every step (`upgrades[v]` takes the file from `v` to `v + 1`) is brought up
  /// to date in the same transaction, so that it is upgraded wholly or not at all; anything else
  /// (a newer version, a gap, or tables without a version) throws an error whose `isDamage` is
  /// true, since it is not a file this code can use.
  package func ensureSchema(
    _ schema: String, version: Int, upgrades: [Int: () throws -> Void] = [:]
  ) throws {
    try transaction(.immediate) {
      let found = try userVersion()
      if found == version { return }
      if found > 0, found < version, (found..<version).allSatisfy({ upgrades[$0] != nil }) {
        for step in found..<version { try upgrades[step]?() }
        try setUserVersion(version)
        return
      }
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
