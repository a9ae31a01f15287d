/// The catalog could not answer: its classes file and the shipped one could not be read, or its
/// database could not be opened, read or rebuilt. The message is one line for the user, e.g.
/// `Classes could not be loaded: Cannot read /x/classes.csv: Permission denied`.
package struct CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String

  package init(message: String) { self.message = message }

  /// `Classes could not be loaded: <reason>`.
  package static func unavailable(_ reason: some CustomStringConvertible) -> CatalogError {
    CatalogError(message: "Classes could not be loaded: \(reason)")
  }

  package var description: String { message }
}
