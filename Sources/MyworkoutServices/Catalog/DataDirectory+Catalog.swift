extension DataDirectory {
  /// The catalog imported from a classes file: a cache, rebuilt when damaged (SPEC §11).
  package var catalogPath: String { PathParts.join(path, "catalog.sqlite") }
  /// Watch progress and lesson events: user data, never rebuilt away (SPEC §11–§13).
  package var progressPath: String { PathParts.join(path, "progress.sqlite") }
}
