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
  /// A mouse press or wheel turn, at a cell.
  case mouse(MouseEvent)
}

/// What the mouse did, and where (SPEC §10: a click selects, the wheel scrolls).
package struct MouseEvent: Equatable, Sendable {
  package enum Kind: Equatable, Sendable {
    case press
    case wheelUp
    case wheelDown
  }

  package var kind: Kind
  package var position: Position

  package init(_ kind: Kind, row: Int, column: Int) {
    self.kind = kind
    self.position = Position(row: row, column: column)
  }
}
