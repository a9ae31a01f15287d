/// One record of a CSV file: its fields, and the physical line it starts on (from 1), so that a
/// bad row can be reported by the line a person sees in an editor.
package struct CSVRecord: Equatable, Sendable {
  package var fields: [String]
  package var line: Int
  /// The quoting was broken: a quote never closed, or text right after a closing quote. The
  /// fields hold the reader's best guess.
  package var isMalformed: Bool

  package init(fields: [String], line: Int, isMalformed: Bool = false) {
    self.fields = fields
    self.line = line
    self.isMalformed = isMalformed
  }

  /// An empty line: one empty field.
  package var isBlank: Bool { fields.count == 1 && fields[0].isEmpty }
}
