import CSQLite

extension SQLiteDatabase {
  /// Makes sure the file holds `schema` at `version` (`PRAGMA user_version`): a new, empty file
  /// gets it; a file already at `version` is left alone; a file at an older version for which
  /// `upgrades` has every step (`upgrades[v]` takes the file from `v` to `v + 1`) is brought up
  /// to date in the same transaction, so that it is upgraded wholly or not at all; a newer
  /// version throws `NewerSchemaError` (not damage: a newer version of the program wrote it, and
  /// finds it whole again); anything else (a gap, or tables without a version) throws an error
  /// whose `isDamage` is true, since it is not a file this code can use.
  package func ensureSchema(
    _ schema: String, version: Int, upgrades: [Int: () throws -> Void] = [:]
  ) throws {
    try transaction(.immediate) {
      let found = try userVersion()
      if found == version { return }
      if found > version { throw NewerSchemaError(path: path, found: found, known: version) }
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

  /// Throws `NewerSchemaError` when the file is of a version newer than `version`, before
  /// anything (the write-ahead log's mode, a pragma) is changed in it.
  package func refuseNewerSchema(than version: Int) throws {
    let found = try userVersion()
    if found > version { throw NewerSchemaError(path: path, found: found, known: version) }
  }
}

/// A file a newer version of the program wrote (its `PRAGMA user_version` is past what this
/// code knows): after a downgrade, or an older copy beside a newer one. It is not damage, so it
/// is never moved aside or rebuilt: what it keeps stays for the version that reads it. Files
/// that only hold copies (the catalog, the offline cache) are rebuilt instead.
package struct NewerSchemaError: Error, Sendable, CustomStringConvertible {
  package let path: String
  package let found: Int
  package let known: Int

  package var description: String {
    let file = path.split(separator: "/").last.map(String.init) ?? path
    return "\(file) was written by a newer version (schema \(found); this one reads up to "
      + "\(known)); nothing was changed"
  }
}
