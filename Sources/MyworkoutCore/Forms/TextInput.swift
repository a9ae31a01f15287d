/// An editable single-line text value with a cursor, counted in user-perceived characters
/// (grapheme clusters), so Backspace removes one character, never one byte or one scalar.
package struct TextInput: Equatable, Sendable {
  package private(set) var text: String
  /// Cursor position as a number of characters from the start (0...text.count).
  package private(set) var cursor: Int
  /// True once the user (or a prefill) has put something in the field: validation colours
  /// only speak about touched fields.
  package private(set) var isTouched: Bool
  package let limit: Int

  /// Unicode scalars a field holds at most, per character of its limit: a character is one
  /// scalar or a few (an emoji family is five), but one `z` with endless combining marks is
  /// still one character, and each mark typed after it walked all of it again (a
  /// walk-through's pasted 200,000 marks held the app for minutes, Ctrl-C unread).
  package static let scalarsPerCharacter = 8

  package init(_ text: String = "", limit: Int = 256) {
    let clipped = String(
      text[..<Self.end(of: text, characters: limit, scalars: limit * Self.scalarsPerCharacter)])
    self.text = clipped
    self.cursor = clipped.count
    self.isTouched = !clipped.isEmpty
    self.limit = limit
  }

  /// Where the first whole characters of `text` end that are at most `characters` and hold at
  /// most `scalars` Unicode scalars.
  private static func end(of text: some StringProtocol, characters: Int, scalars: Int)
    -> String.Index
  {
    var room = characters
    var scalarRoom = scalars
    var end = text.startIndex
    while room > 0, end < text.endIndex {
      let next = text.index(after: end)
      let count = text.unicodeScalars[end..<next].count
      guard count <= scalarRoom else { break }
      scalarRoom -= count
      room -= 1
      end = next
    }
    return end
  }

  package var isEmpty: Bool { text.trimmingWhitespace().isEmpty }

  /// Inserts typed or pasted text at the cursor. Control characters (newlines and tabs included)
  /// are dropped; whatever would pass the field's limit is cut off. Returns false when something
  /// was cut (so a paste can say so).
  @discardableResult
  package mutating func insert(_ typed: String) -> Bool {
    // Printable ASCII typed into ASCII text (most keys): a byte is a character and a scalar,
    // and no two of them join, so counts and places are in bytes (the way below walks the
    // whole text by characters and reads each typed one's Unicode properties).
    if !typed.isEmpty, typed.isPrintableASCII, text.isPrintableASCII {
      let room = limit - text.utf8.count
      let kept = typed.utf8.prefix(max(0, room))
      guard !kept.isEmpty else { return false }
      let index = text.utf8.index(text.startIndex, offsetBy: cursor)
      text.insert(contentsOf: Substring(kept), at: index)
      cursor += kept.count
      isTouched = true
      return kept.count == typed.utf8.count
    }
    return insertByCharacters(typed)
  }

  /// `insert` of any text, by characters.
  @discardableResult
  mutating func insertByCharacters(_ typed: String) -> Bool {
    let clean = typed.filter { character in
      !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
    guard !clean.isEmpty else { return true }
    // Whole characters, while both the characters and their scalars fit.
    let end = Self.end(
      of: clean, characters: limit - text.count,
      scalars: limit * Self.scalarsPerCharacter - text.unicodeScalars.count)
    guard end > clean.startIndex else { return false }
    let index = text.index(text.startIndex, offsetBy: cursor)
    let head = String(text[..<index]) + String(clean[..<end])
    text = head + String(text[index...])
    cursor = head.count
    isTouched = true
    return end == clean.endIndex
  }

  package mutating func deleteBackward() {
    guard cursor > 0 else { return }
    let index =
      text.isPrintableASCII
      ? text.utf8.index(text.startIndex, offsetBy: cursor - 1)
      : text.index(text.startIndex, offsetBy: cursor - 1)
    text.remove(at: index)
    cursor -= 1
    isTouched = true
  }

  package mutating func deleteForward() {
    guard cursor < text.count else { return }
    text.remove(at: text.index(text.startIndex, offsetBy: cursor))
    isTouched = true
  }

  package mutating func moveLeft() { cursor = max(0, cursor - 1) }
  package mutating func moveRight() { cursor = min(text.count, cursor + 1) }
  package mutating func moveToStart() { cursor = 0 }
  package mutating func moveToEnd() { cursor = text.count }

  /// Removes everything before the cursor (Ctrl-U in shells).
  package mutating func deleteToStart() {
    guard cursor > 0 else { return }
    text.removeFirst(cursor)
    cursor = 0
    isTouched = true
  }
}

/// An edit to the focused text field.
package enum TextEdit: Equatable, Sendable {
  case insert(String)
  case deleteBackward
  case deleteForward
  case deleteToStart
  case moveLeft
  case moveRight
  case moveToStart
  case moveToEnd
}

extension TextInput {
  package mutating func apply(_ edit: TextEdit) {
    switch edit {
    case .insert(let text): _ = insert(text)
    case .deleteBackward: deleteBackward()
    case .deleteForward: deleteForward()
    case .deleteToStart: deleteToStart()
    case .moveLeft: moveLeft()
    case .moveRight: moveRight()
    case .moveToStart: moveToStart()
    case .moveToEnd: moveToEnd()
    }
  }

  /// Whether the edit changes the text (as opposed to only moving the cursor).
  static func changesText(_ edit: TextEdit) -> Bool {
    switch edit {
    case .insert, .deleteBackward, .deleteForward, .deleteToStart: true
    case .moveLeft, .moveRight, .moveToStart, .moveToEnd: false
    }
  }
}
