import MyworkoutCore

/// A row of buttons, `[ Log in ]  [ Cancel ]`, the focused one marked `▸` and highlighted,
/// followed by the spinner while a request runs.
struct Button: Hashable, Sendable {
  var title: String
  var focused: Bool
  var disabled = false
  /// Whether it is one of the screen's focus stops (a click focuses and activates it).
  var isStop = true

  // Equal by the title's bytes: two spellings of `é` that Swift holds equal are drawn
  // differently, and kept rows must be the title's own. Hashed as a `String` (equal bytes hash
  // alike), which is quicker for the short ASCII titles buttons have.
  static func == (lhs: Button, rhs: Button) -> Bool {
    ExactText(lhs.title) == ExactText(rhs.title) && lhs.focused == rhs.focused
      && lhs.disabled == rhs.disabled && lhs.isStop == rhs.isStop
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(focused)
    hasher.combine(disabled)
    hasher.combine(isStop)
  }
}

enum ButtonRow {
  /// A form's submit button and its `Cancel`, with the spinner while the request runs. While it
  /// runs, the submit button itself reads `Cancel`, so the other Cancel is left out rather than
  /// shown twice.
  static func submitAndCancel(
    _ phase: RequestPhase, rest: String, submitFocused: Bool, cancelFocused: Bool,
    disabled: Bool, spinnerFrame: Int, running text: String, metrics: Metrics
  ) -> [Row] {
    var buttons = [
      Button(title: phase.buttonTitle(rest: rest), focused: submitFocused, disabled: disabled)
    ]
    if !phase.isRunning { buttons.append(Button(title: "Cancel", focused: cancelFocused)) }
    return rows(
      buttons, spinner: phase.isRunning ? (spinnerFrame, text) : nil, metrics: metrics)
  }

  static let spinnerFrames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// The buttons on one row beside the fields; on a narrow terminal from the left margin. When
  /// they do not fit on one row, those from `secondRowFrom` on (if given) go on a second row;
  /// when even that is too narrow, one under the other. The focus order and clicks follow the
  /// rows as drawn (left to right, then down). The spinner follows the last button.
  static func rows(
    _ buttons: [Button], secondRowFrom: Int? = nil, spinner: (frame: Int, text: String)?,
    metrics: Metrics
  ) -> [Row] {
    // A form's buttons are the same from key to key: the rows made last are kept.
    // The spinner's frame as drawn: its counter goes on turning while a request runs.
    let inputs = Inputs(
      buttons: buttons, secondRowFrom: secondRowFrom,
      spinnerFrame: spinner.map { $0.frame % spinnerFrames.count },
      spinnerText: spinner.map { ExactText($0.text) }, width: metrics.width)
    return remembered.value(for: inputs) {
      making(buttons, secondRowFrom: secondRowFrom, spinner: spinner, metrics: metrics)
    }
  }

  /// What `rows` is made from (a `Metrics` is made from its width alone).
  struct Inputs: Hashable, Sendable {
    var buttons: [Button]
    var secondRowFrom: Int?
    var spinnerFrame: Int?
    var spinnerText: ExactText?
    var width: Int
  }

  static let remembered = Remembered<Inputs, [Row]>()

  /// `rows`, made anew.
  static func making(
    _ buttons: [Button], secondRowFrom: Int? = nil, spinner: (frame: Int, text: String)?,
    metrics: Metrics
  ) -> [Row] {
    let labels = buttons.map { "[ \($0.title) ]" }
    /// The columns a row of these buttons takes.
    func width(_ group: [Int]) -> Int {
      group.reduce(0) { $0 + DisplayWidth.of(labels[$1]) + 2 }
    }
    let all = Array(buttons.indices)
    let total = width(all)
    let preferred = metrics.inlineLabels ? metrics.fieldColumn - 1 : metrics.margin
    let start = preferred + total <= metrics.width ? preferred : metrics.margin
    var groups = all.map { [$0] }
    if start + total <= metrics.width || buttons.count == 1 {
      groups = [all]
    } else if let split = secondRowFrom, all.dropFirst().contains(split) {
      let two = [Array(all[..<split]), Array(all[split...])]
      if two.allSatisfy({ start + width($0) <= metrics.width }) { groups = two }
    }
    var rows: [Row] = groups.map { group in
      var row = Row()
      var column = start
      for index in group {
        let button = buttons[index]
        if button.focused {
          row.segments.append(Segment(column: column, text: "▸", style: .normal))
          row.holdsFocus = true
          // The cursor rests on the focused button, so it never has to be hidden and shown.
          row.cursorColumn = column + 1
        }
        // The focus is marked by `▸` and the cursor, not by the button's look (DECISIONS.md).
        let style: Style = button.disabled ? .buttonDisabled : .button
        row.segments.append(Segment(column: column + 1, text: labels[index], style: style))
        if button.isStop {
          row.zones.append(
            Row.Zone(columns: column..<(column + 1 + DisplayWidth.of(labels[index]))))
        }
        column += 1 + DisplayWidth.of(labels[index]) + 1
      }
      return row
    }
    if let spinner {
      let frame = spinnerFrames[spinner.frame % spinnerFrames.count]
      var line = Row(segments: [
        Segment(column: start + 1, text: frame, style: .spinner),
        Segment(column: start + 3, text: spinner.text, style: .hint),
      ])
      let last = rows.count - 1
      let end = rows[last].segments.last.map { $0.column + DisplayWidth.of($0.text) } ?? start
      if end + 3 + DisplayWidth.of(spinner.text) <= metrics.width {
        rows[last].segments += line.shifted(by: end + 1 - start).segments
      } else {
        line.isPinned = true
        rows.append(line)
      }
    }
    return rows
  }
}
