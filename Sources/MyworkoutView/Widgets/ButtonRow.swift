/// A row of buttons, `[ Log in ]  [ Cancel ]`, the focused one marked `▸` and highlighted,
/// followed by the spinner while a request runs.
struct Button {
  var title: String
  var focused: Bool
  var disabled = false
}

enum ButtonRow {
  static let spinnerFrames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  static func row(_ buttons: [Button], spinner: (frame: Int, text: String)?, metrics: Metrics)
    -> Row
  {
    var segments: [Segment] = []
    var column = metrics.inlineLabels ? metrics.fieldColumn - 1 : metrics.margin
    for button in buttons {
      if button.focused {
        segments.append(Segment(column: column, text: "▸", style: .heading))
      }
      let style: Style =
        button.focused ? .buttonFocused : (button.disabled ? .buttonDisabled : .button)
      let label = "[ \(button.title) ]"
      segments.append(Segment(column: column + 1, text: label, style: style))
      column += 1 + DisplayWidth.of(label) + 1
    }
    if let spinner {
      let frame = spinnerFrames[spinner.frame % spinnerFrames.count]
      segments.append(Segment(column: column + 1, text: frame, style: .spinner))
      segments.append(Segment(column: column + 3, text: spinner.text, style: .hint))
    }
    return Row(segments: segments)
  }
}
