/// Where things go on a screen of a given width. Narrow terminals put labels above fields and
/// shrink the fields, so the app keeps working rather than refusing.
struct Metrics {
  let width: Int
  /// Column of the focus marker `▸`.
  let margin: Int
  /// Column where labels start.
  let labelColumn: Int
  /// Column of the field's opening bracket.
  let fieldColumn: Int
  /// Columns inside the brackets.
  let fieldWidth: Int
  let inlineLabels: Bool

  static let labelWidth = 12
  static let preferredFieldWidth = 40

  init(width: Int) {
    self.width = width
    margin = width >= 60 ? 4 : (width >= 30 ? 1 : 0)
    labelColumn = margin + 2
    inlineLabels = width >= 40
    fieldColumn = inlineLabels ? labelColumn + Self.labelWidth : labelColumn
    // Opening and closing bracket, a space and the validity marker follow the field.
    fieldWidth = max(1, min(Self.preferredFieldWidth, width - fieldColumn - 4))
  }
}
