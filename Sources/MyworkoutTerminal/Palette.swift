import CNcurses
import MyworkoutView

/// How each `Style` looks: colours on the terminal's own background, or, without colours,
/// attributes that keep every state visible (focus reversed, errors bold, hints dim).
struct Palette {
  private let colors: Bool
  /// The terminal's colour count (0 without colours); picture cells depend on it.
  let colorCount: Int

  private enum Pair: Int16 {
    case blue = 1, red, green, yellow, magenta, cyan
  }

  private static let avatarPairs: [Pair] = [.red, .green, .yellow, .blue, .magenta, .cyan]

  init(colors: Bool) {
    self.colors = colors
    guard colors else {
      colorCount = 0
      return
    }
    start_color()
    colorCount = Int(mw_colors())
    use_default_colors()
    let foregrounds: [(Pair, Int16)] = [
      (.blue, Int16(COLOR_BLUE)), (.red, Int16(COLOR_RED)), (.green, Int16(COLOR_GREEN)),
      (.yellow, Int16(COLOR_YELLOW)), (.magenta, Int16(COLOR_MAGENTA)), (.cyan, Int16(COLOR_CYAN)),
    ]
    for (pair, foreground) in foregrounds {
      init_pair(pair.rawValue, foreground, -1)
    }
  }

  func look(for style: Style) -> (attr_t, Int32) {
    let bold = mw_attr_bold()
    let dim = mw_attr_dim()
    let reverse = mw_attr_reverse()
    switch style {
    // Field values are plain text: typing then costs the terminal one character per key, and
    // the focused field is marked by `▸`, the cursor and its brackets instead.
    case .normal, .label, .field: return (mw_attr_normal(), 0)
    case .heading: return (bold, 0)
    case .hint, .border: return (dim, 0)
    case .footer: return (reverse, 0)
    // A focused button is marked by `▸` and the cursor, not by a change of attributes, so that
    // moving the focus redraws two cells rather than the whole button (see DECISIONS.md).
    case .button: return (bold, 0)
    case .buttonDisabled: return (dim, 0)
    case .valid: return colored(.blue, bold)
    case .invalid, .error: return colored(.red, bold)
    case .success: return colored(.green, bold)
    case .notice: return colors ? (bold, Int32(Pair.yellow.rawValue)) : (reverse, 0)
    case .spinner: return colored(.cyan, mw_attr_normal())
    case .match: return colors ? (bold, Int32(Pair.yellow.rawValue)) : (reverse, 0)
    case .header: return (bold, 0)
    case .avatar(let index):
      let pair = Self.avatarPairs[Int(index) % Self.avatarPairs.count]
      return colored(pair, mw_attr_normal())
    case .pixels(let foreground, let background):
      return pixels(foreground: foreground, background: background)
    case .colored(let index): return text(index)
    case .blank: return (mw_attr_underline(), 0)
    }
  }

  private func colored(_ pair: Pair, _ attributes: attr_t) -> (attr_t, Int32) {
    colors ? (attributes, Int32(pair.rawValue)) : (attributes, 0)
  }
}
