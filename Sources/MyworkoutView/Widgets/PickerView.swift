import MyworkoutCore

/// A choice stepped with ←/→: `Gender      [◂ Female                 ▸] ✓`.
enum PickerView {
  static func rows(
    label: String, choice: String?, placeholder: String, validity: FieldValidity,
    focused: Bool, metrics: Metrics
  ) -> [Row] {
    let inner = max(0, metrics.fieldWidth - 4)
    let text = String((choice ?? placeholder).prefix(inner))
    let pad = String.spaces(max(0, inner - DisplayWidth.of(text)))
    let value =
      metrics.fieldWidth >= 5 ? "◂ " + text + pad + " ▸" : String(text.prefix(metrics.fieldWidth))
    var row = TextFieldView.fieldRow(
      value: value, valueStyle: choice == nil ? .hint : .field,
      validity: validity, focused: focused, metrics: metrics)
    row.cursorColumn = nil
    row.zones = [
      Row.Zone(columns: metrics.labelColumn..<(metrics.fieldColumn + metrics.fieldWidth + 2))
    ]
    return TextFieldView.labelled(row, label: label, focused: focused, metrics: metrics)
  }
}
