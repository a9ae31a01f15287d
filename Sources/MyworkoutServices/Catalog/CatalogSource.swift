/// Which classes file the catalog imports: `--catalog FILE`, or the shipped
/// `Assets/classes.csv`, which is also the fallback when the chosen file cannot be read.
package struct CatalogSource: Sendable, Equatable {
  /// The file to import.
  package var file: String
  /// The project's own catalog.
  package var shipped: String

  /// - Parameter file: the chosen file; nil for the shipped one.
  package init(file: String? = nil, shipped: String) {
    self.file = file ?? shipped
    self.shipped = shipped
  }
}
