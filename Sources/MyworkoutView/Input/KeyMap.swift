import MyworkoutCore

/// One binding: the keys, the action they mean, and how the footer names them (nil: not in the
/// footer, e.g. the second spelling of a move). The footer is made from the same bindings the
/// keys are looked up in, so the two cannot drift apart.
package struct KeyBinding: Sendable {
  package var keys: [Key]
  package var hint: Hint?
  package var action: Action
  /// How the `Keys` panel lists it, when the footer does not (every key is listed there).
  package var help: Hint?

  package init(_ keys: [Key], _ hint: Hint?, _ action: Action, help: Hint? = nil) {
    self.keys = keys
    self.hint = hint
    self.action = action
    self.help = help ?? hint
  }

  /// A binding the footer does not show; the `Keys` panel lists it as `help`.
  package init(_ keys: [Key], _ action: Action, help: Hint? = nil) {
    self.init(keys, nil, action, help: help)
  }
}

/// The keys of the screen on top: its bindings in footer order, and what typing and pasting do
/// there (into the focused text field, if any).
package struct KeyMap: Sendable {
  package var bindings: [KeyBinding] = []
  /// The keys every screen takes, after the screen's own (`KeyBindings.withGlobalKeys`). They
  /// are one of a few shared arrays: adding them to a map copies none of its bindings (a map
  /// is made for every frame, and copying a form's took a twentieth of a key's work).
  package var globals: [KeyBinding] = []
  /// A printable character that no binding takes.
  package var typing: (@Sendable (Character) -> Action?)?
  package var pasting: (@Sendable (String) -> Action?)?
  /// Whether a text field has the focus (then `?` is typed, and F1 opens the `Keys` panel).
  package var takesText: Bool
  /// What a mouse press or wheel turn does (screens that have something to click or scroll).
  package var mouse: (@Sendable (MouseEvent) -> Action?)?

  package init(
    _ bindings: [KeyBinding] = [], typing: (@Sendable (Character) -> Action?)? = nil,
    pasting: (@Sendable (String) -> Action?)? = nil, takesText: Bool = false
  ) {
    self.bindings = bindings
    self.typing = typing
    self.pasting = pasting
    self.takesText = takesText
  }

  package func action(for key: Key) -> Action? {
    if case .paste(let text) = key { return pasting?(text) }
    if case .mouse(let event) = key { return mouse?(event) }
    if let binding = bindings.first(where: { $0.keys.contains(key) })
      ?? globals.first(where: { $0.keys.contains(key) })
    {
      return binding.action
    }
    if case .character(let character) = key { return typing?(character) }
    return nil
  }

  /// The footer's hints, in order.
  package var hints: [Hint] {
    // Made for every frame's footer: in one array, with room for them all from the start.
    var hints: [Hint] = []
    hints.reserveCapacity(bindings.count + globals.count)
    for binding in bindings { if let hint = binding.hint { hints.append(hint) } }
    for binding in globals { if let hint = binding.hint { hints.append(hint) } }
    return hints
  }

  /// The screen's bindings, then the global ones: in the order keys are looked up.
  package var allBindings: [KeyBinding] { bindings + globals }

  /// Every key the screen takes, for the `Keys` panel (each listed once).
  package var help: [Hint] {
    var seen: Set<String> = []
    return allBindings.compactMap(\.help).filter { seen.insert($0.text).inserted }
  }

  package mutating func append(_ binding: KeyBinding) { bindings.append(binding) }
}

/// A footer entry: `Ctrl-R show password`.
package struct Hint: Hashable, Sendable {
  package var keys: String
  package var action: String
  /// Hints that are not essential are left out first when the footer does not fit.
  package var isEssential: Bool
  /// Kept while any other hint but the last can go instead (the `Keys` panel's key: every other
  /// key is listed there).
  package var isPinned: Bool
  /// A shorter wording the footer uses before it leaves out an essential hint (`Ctrl-R show`
  /// for `Ctrl-R show password` at 40 columns, where the field it acts on has the focus).
  package var shortAction: String?
  /// The columns the hint takes in the footer at least (padded with spaces after it), so that
  /// a hint whose wording changes with the focus does not move the ones after it.
  package var width: Int

  package init(
    keys: String, action: String, shortAction: String? = nil, isEssential: Bool = true,
    isPinned: Bool = false, width: Int = 0
  ) {
    self.keys = keys
    self.action = action
    self.shortAction = shortAction
    self.isEssential = isEssential || isPinned
    self.isPinned = isPinned
    self.width = width
  }

  package var text: String { "\(keys) \(action)" }

  /// `text` padded to `width`.
  var footerText: String {
    text + String.spaces(max(0, width - DisplayWidth.of(text)))
  }

  /// The footer line of `hints` at `width` columns. Most frames show the footer the frame
  /// before showed: the lines made last are kept, by hints and width.
  package static func line(_ hints: [Hint], width: Int) -> String {
    remembered.value(for: Footer(hints: hints, width: width)) { fitting(hints, width: width) }
  }

  struct Footer: Hashable, Sendable {
    var hints: [Hint]
    var width: Int
  }

  static let remembered = Remembered<Footer, String>()

  /// The footer line, made anew: whole hints only, never half of one. When they do not all
  /// fit, the non-essential ones go first (from the end), then hints with a short wording take
  /// it, then essential ones from the end but the pinned ones and the last, then the pinned ones
  /// (quitting stays in view as long as anything does).
  static func fitting(_ hints: [Hint], width: Int) -> String {
    // Each hint's columns counted once: the line's are theirs, a space before, and two
    // between (the line is drawn on every frame of the Player's clock).
    var shown = hints.map { (hint: $0, columns: $0.footerColumns) }
    func columns() -> Int { 1 + shown.reduce(0) { $0 + $1.columns } + 2 * max(0, shown.count - 1) }
    while columns() > width, let index = shown.lastIndex(where: { !$0.hint.isEssential }) {
      shown.remove(at: index)
    }
    while columns() > width,
      let index = shown.firstIndex(where: { $0.hint.shortAction != nil }),
      let short = shown[index].hint.shortAction
    {
      shown[index].hint.action = short
      shown[index].hint.shortAction = nil
      shown[index].columns = shown[index].hint.footerColumns
    }
    while columns() > width,
      let index = shown.dropLast().lastIndex(where: { !$0.hint.isPinned })
    {
      shown.remove(at: index)
    }
    while columns() > width, shown.count > 1 {
      shown.remove(at: shown.count - 2)
    }
    if columns() > width { shown.removeAll() }
    return " " + shown.map(\.hint.footerText).joined(separator: "  ")
  }

  /// The columns `footerText` takes.
  var footerColumns: Int { max(width, DisplayWidth.of(text)) }
}
