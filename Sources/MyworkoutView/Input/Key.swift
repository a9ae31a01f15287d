/// A key (or a paste) as the terminal adapter reads it.
package enum Key: Equatable, Sendable {
  /// A printable character.
  case character(Character)
  /// Ctrl and a letter, lowercased (`"r"` for Ctrl-R).
  case control(Character)
  case enter, tab, backTab, escape, backspace, delete
  case up, down, left, right, home, end, pageUp, pageDown
  /// A function key: F1 is 1.
  case function(Int)
  /// A bracketed paste, as one piece of text.
  case paste(String)
}
