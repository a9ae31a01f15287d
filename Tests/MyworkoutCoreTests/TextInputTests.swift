import TestProcesses
import Testing

@testable import MyworkoutCore

@Suite struct TextInputTests {
  /// Typing and Backspace in printable ASCII (done by bytes) do what the character rule does,
  /// for random texts, cursors, limits and typed text, ASCII or not.
  @Test func asciiEditsAreTheCharacterRulesEdits() {
    let seed = UInt64.random(in: 1...UInt64.max)
    print("TextInput seed \(seed)")
    var generator = SplitMix64(seed: seed)
    func pick<T>(_ items: [T]) -> T { items[Int(generator.next() % UInt64(items.count))] }
    let pieces = [
      "a", "Z", "7", "@", " ", "~", ".", "é", "e\u{301}", "\u{301}", "\t", "\r\n", "\u{7F}", "中",
    ]
    for _ in 0..<5_000 {
      let ascii = generator.next() % 3 != 0
      let from = ascii ? Array(pieces.prefix(7)) : pieces
      let text = (0..<Int(generator.next() % 12)).map { _ in pick(from) }.joined()
      let typed = (0..<Int(generator.next() % 4)).map { _ in pick(from) }.joined()
      let limit = Int(generator.next() % 16)
      var input = TextInput(text, limit: limit)
      for _ in 0..<Int(generator.next() % 4) { input.moveLeft() }
      var fast = input
      var slow = input
      let kept = fast.insert(typed)
      let keptSlow = slow.insertByCharacters(typed)
      #expect(
        kept == keptSlow && fast.text.utf8.elementsEqual(slow.text.utf8)
          && fast.cursor == slow.cursor && fast.isTouched == slow.isTouched,
        "seed \(seed): \(input.text.debugDescription) at \(input.cursor) + \(typed.debugDescription)"
      )
      var deleted = fast
      deleted.deleteBackward()
      var expected = fast.text
      if fast.cursor > 0 {
        expected.remove(at: expected.index(expected.startIndex, offsetBy: fast.cursor - 1))
      }
      #expect(
        deleted.text.utf8.elementsEqual(expected.utf8) && deleted.cursor == max(0, fast.cursor - 1),
        "seed \(seed): Backspace in \(fast.text.debugDescription) at \(fast.cursor)")
    }
  }

  @Test func backspaceRemovesOneCharacterNotOneByte() {
    var input = TextInput()
    input.insert("Zoë 中文👍🏽")
    #expect(input.text.count == 7)
    input.deleteBackward()
    #expect(input.text == "Zoë 中文")
    input.deleteBackward()
    input.deleteBackward()
    #expect(input.text == "Zoë ")
    input.deleteBackward()
    input.deleteBackward()
    #expect(input.text == "Zo")
  }

  @Test func insertsAtCursor() {
    var input = TextInput("ac")
    input.moveLeft()
    input.insert("b")
    #expect(input.text == "abc")
    #expect(input.cursor == 2)
    input.moveToStart()
    input.deleteForward()
    #expect(input.text == "bc")
    input.moveToEnd()
    #expect(input.cursor == 2)
  }

  @Test func pasteDropsControlCharactersAndKeepsText() {
    var input = TextInput()
    input.insert("a\nb\tc\u{7}d\r")
    #expect(input.text == "abcd")
  }

  @Test func longPasteIsCutAtTheLimit() {
    var input = TextInput(limit: 10)
    input.insert(String(repeating: "x", count: 10_000))
    #expect(input.text.count == 10)
    input.insert("more")
    #expect(input.text.count == 10)
  }

  @Test func cursorStaysInBounds() {
    var input = TextInput("ab")
    input.moveRight()
    #expect(input.cursor == 2)
    input.moveToStart()
    input.moveLeft()
    #expect(input.cursor == 0)
    input.deleteBackward()
    #expect(input.text == "ab")
  }

  @Test func deleteToStart() {
    var input = TextInput("hello")
    input.moveLeft()
    input.deleteToStart()
    #expect(input.text == "o")
    #expect(input.cursor == 0)
  }

  @Test func touchedOnlyOnceSomethingIsThere() {
    #expect(!TextInput().isTouched)
    #expect(TextInput("prefilled").isTouched)
    var input = TextInput()
    input.moveLeft()
    #expect(!input.isTouched)
    input.insert("x")
    #expect(input.isTouched)
  }

  @Test func emptyAfterTrimming() {
    #expect(TextInput("   ").isEmpty)
  }

  @Test func insertSaysWhenItHadToCut() {
    var input = TextInput(limit: 5)
    let whole = input.insert("abc")
    let cut = input.insert("defg")
    #expect(whole && !cut)
    #expect(input.text == "abcde")
    let full = input.insert("x")
    #expect(!full, "a full field cuts everything")
    let controls = input.insert("\n")
    #expect(controls, "only control characters: nothing to cut")
  }

  @Test func aCutPasteSaysSoAndAWholeOneClearsTheMessage() {
    var state = AppState.launch(with: .none)
    _ = reduce(&state, .getStarted(.form(.pasted(String(repeating: "a", count: 300)))))
    #expect(state.getStarted.email.text.count == FieldLimit.email)
    #expect(state.getStarted.phase == .invalid(Message.pasteCut(limit: FieldLimit.email)))
    _ = reduce(&state, .getStarted(.form(.textEdited(.deleteToStart))))
    #expect(state.getStarted.phase == .idle)
  }

  /// One character of endless combining marks (`z` and U+0301, typed or pasted a mark at a
  /// time): the field's limit counts characters, so it passed any limit, and every mark walked
  /// the whole growing character again (a walk-through's 200,000 marks held the app at full CPU
  /// for minutes, Ctrl-C unread). A field holds at most `scalarsPerCharacter` scalars a
  /// character of its limit; past that, a mark is cut like any character past the limit.
  @Test func endlessCombiningMarksStopAtTheFieldsScalarBound() {
    var input = TextInput("z", limit: 10)
    var cut = false
    for _ in 0..<3_000 where !cut { cut = !input.insert("\u{301}") }
    #expect(cut, "a mark past the bound is cut")
    #expect(input.text.unicodeScalars.count <= 10 * TextInput.scalarsPerCharacter)
    #expect(input.text.count == 1)
    // Pasted in one piece: cut at the bound, what fits kept.
    var pasted = TextInput(limit: 10)
    let whole = pasted.insert("z" + String(repeating: "\u{301}", count: 100_000) + "@ex.com")
    #expect(!whole)
    #expect(pasted.text.unicodeScalars.count <= 10 * TextInput.scalarsPerCharacter)
    // A prefill is held to the same bound.
    let prefilled = TextInput("z" + String(repeating: "\u{301}", count: 1_000), limit: 10)
    #expect(prefilled.text.unicodeScalars.count <= 10 * TextInput.scalarsPerCharacter)
    // Ordinary text and emoji of several scalars still fill the field by characters.
    var family = TextInput(limit: 4)
    let fits = family.insert("👨‍👩‍👧ab")
    #expect(fits)
    #expect(family.text == "👨‍👩‍👧ab")
  }
}
