import Foundation
import MyworkoutCore
import Testing

@testable import MyworkoutView

@Suite struct DisplayWidthTests {
  /// The fast paths give what the Unicode properties give, for every scalar they cover.
  @Test func theFastPathsAgreeWithTheProperties() {
    let covered =
      Array(0xA0..<0x300) + Array(0x2010...0x2027) + Array(0x2190...0x21FF)
      + Array(0x2500...0x25FF) + [0x2713, 0x2717, 0x275A] + Array(0x2800...0x28FF)
    for value in covered {
      let scalar = Unicode.Scalar(UInt32(value))!
      #expect(
        DisplayWidth.of(scalar) == DisplayWidth.slowly(scalar),
        "U+\(String(value, radix: 16, uppercase: true))")
    }
  }

  /// A text's width is the sum of its characters' widths, whichever way it is counted (ASCII
  /// by bytes, scalars that stand alone one each, anything else by grapheme clusters).
  @Test func aTextIsAsWideAsItsCharacters() {
    let seed = UInt64.random(in: 1...UInt64.max)
    print("DisplayWidthTests seed \(seed)")
    var random = SeededGenerator(seed: seed)
    let pieces = [
      "a", " ", "\t", "\r\n", "\u{7F}", "\u{85}", "é", "e\u{301}", "\u{AD}", "世", "🙂", "❤️", "…",
      "→", "─", "✓", "✔", "⠋", "\u{200D}", "\u{FE0F}", "\u{2028}", "👨‍👩‍👧‍👦", "🇫🇷",
    ]
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...10, using: &random)
      let text = (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
      let expected = text.reduce(0) { $0 + DisplayWidth.of($1) }
      #expect(DisplayWidth.of(text) == expected, "seed \(seed): \(text.debugDescription)")
      let first = text.first.map { DisplayWidth.of($0) } ?? 0
      #expect(DisplayWidth.of(text.dropFirst()) == expected - first, "seed \(seed)")
    }
  }

  /// A footer line remembered is the one made anew, at every width, and what is remembered
  /// stays within its limit.
  @Test func aRememberedFooterIsTheOneMadeAnew() {
    let hints = [
      Hint(keys: "Tab/↑↓", action: "move", isEssential: false),
      Hint(keys: "Ctrl-R", action: "show password", shortAction: "show"),
      Hint(keys: "F1", action: "keys", isPinned: true, width: 7),
      Hint(keys: "Ctrl-C", action: "quit"),
    ]
    for width in 0...60 {
      #expect(Hint.line(hints, width: width) == Hint.fitting(hints, width: width))
      #expect(Hint.line(hints, width: width) == Hint.fitting(hints, width: width))
    }
    var changed = hints
    changed[1].action = "hide password"
    #expect(Hint.line(changed, width: 60).contains("hide password"))
    for width in 0..<(Hint.remembered.limit * 2) {
      _ = Hint.line(hints, width: width)
      #expect(Hint.remembered.count <= Hint.remembered.limit)
    }
  }

  /// A row of buttons kept from an earlier frame is the one its inputs make now, for random
  /// buttons, splits, spinners and widths (the same inputs asked twice, the second kept).
  @Test func aRememberedButtonRowIsTheOneMadeAnew() {
    let seed = UInt64.random(in: 1...UInt64.max)
    print("ButtonRow seed \(seed)")
    var random = SeededGenerator(seed: seed)
    let titles = ["Next", "Cancel", "Log in", "Browse classes", "Create account", "Çava", "世界"]
    for _ in 0..<500 {
      let buttons = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        Button(
          title: titles.randomElement(using: &random)!, focused: Bool.random(using: &random),
          disabled: Bool.random(using: &random), isStop: Bool.random(using: &random))
      }
      let split: Int? = Bool.random(using: &random) ? Int.random(in: 0...4, using: &random) : nil
      let spinner: (frame: Int, text: String)? =
        Bool.random(using: &random)
        ? (Int.random(in: 0...20, using: &random), "Checking your email…") : nil
      let metrics = Metrics(width: Int.random(in: 10...100, using: &random))
      let made = ButtonRow.making(buttons, secondRowFrom: split, spinner: spinner, metrics: metrics)
      for _ in 0..<2 {
        #expect(
          ButtonRow.rows(buttons, secondRowFrom: split, spinner: spinner, metrics: metrics)
            == made, "seed \(seed)")
      }
    }
    #expect(ButtonRow.remembered.count <= ButtonRow.remembered.limit)
    // Kept by bytes: each spelling of `é` comes back as it was written.
    for title in ["Café", "Cafe\u{301}"] {
      let rows = ButtonRow.rows(
        [Button(title: title, focused: false)], spinner: nil, metrics: Metrics(width: 80))
      #expect(
        rows.first?.segments.last?.text.utf8.elementsEqual("[ \(title) ]".utf8) == true,
        "\(title.debugDescription)")
    }
  }

  /// Get started's rows above its field, kept for a width, are the ones made anew; and what is
  /// kept stays within its limit.
  @Test func getStartedsKeptHeadIsTheOneMadeAnew() {
    for width in 0...200 {
      let metrics = Metrics(width: width)
      let made = GetStartedView.makingHead(metrics)
      #expect(GetStartedView.head(metrics) == made, "width \(width)")
      #expect(GetStartedView.head(metrics) == made, "width \(width), kept")
      #expect(GetStartedView.heads.count <= GetStartedView.heads.limit)
    }
  }

  /// The footer line takes what fits, as before it counted each hint's columns once.
  @Test func theFooterLineFitsWholeHints() {
    let hints = [
      Hint(keys: "Space", action: "play/pause"),
      Hint(keys: "Ctrl-R", action: "show password", shortAction: "show"),
      Hint(keys: "m", action: "mirror", isEssential: false),
      Hint(keys: "F1", action: "keys", isPinned: true),
      Hint(keys: "Ctrl-C", action: "quit"),
    ]
    #expect(
      Hint.line(hints, width: 80)
        == " Space play/pause  Ctrl-R show password  m mirror  F1 keys  Ctrl-C quit")
    #expect(
      Hint.line(hints, width: 61) == " Space play/pause  Ctrl-R show password  F1 keys  Ctrl-C quit"
    )
    #expect(Hint.line(hints, width: 60) == " Space play/pause  Ctrl-R show  F1 keys  Ctrl-C quit")
    #expect(Hint.line(hints, width: 50) == " Space play/pause  F1 keys  Ctrl-C quit")
    #expect(Hint.line(hints, width: 30) == " F1 keys  Ctrl-C quit")
    #expect(Hint.line(hints, width: 12) == " Ctrl-C quit")
    #expect(Hint.line(hints, width: 5) == " ")
    #expect(
      Hint.line([Hint(keys: "a", action: "b", width: 8), Hint(keys: "c", action: "d")], width: 80)
        == " a b       c d")
  }
  @Test func widths() {
    #expect(DisplayWidth.of("a" as Character) == 1)
    #expect(DisplayWidth.of("é" as Character) == 1)
    #expect(DisplayWidth.of("e\u{301}" as Character) == 1)
    #expect(DisplayWidth.of("中" as Character) == 2)
    #expect(DisplayWidth.of("👍" as Character) == 2)
    #expect(DisplayWidth.of("Zoë 中文") == 8)
  }

  @Test func cursorStandsByDisplayWidth() {
    var input = TextInput()
    input.insert("Zoë 中文")
    let metrics = Metrics(width: 80)
    let rows = TextFieldView.rows(
      label: "Name", input: input, masked: false, validity: .neutral, focused: true,
      metrics: metrics)
    #expect(rows[0].cursorColumn == metrics.fieldColumn + 1 + 8)
    input.moveLeft()
    let moved = TextFieldView.rows(
      label: "Name", input: input, masked: false, validity: .neutral, focused: true,
      metrics: metrics)
    #expect(moved[0].cursorColumn == metrics.fieldColumn + 1 + 6)
  }

  /// The window is what measuring the text from each possible start gives (as it was found
  /// before each character was measured once), for random texts, cursors and widths.
  @Test func theWindowIsWhereTheCursorFits() {
    func reference(_ characters: [Character], cursor: Int, width: Int) -> (String, Int) {
      var start = 0
      while start < cursor,
        DisplayWidth.of(String(characters[start..<cursor])) > max(0, width - 1)
      {
        start += 1
      }
      var visible = ""
      var used = 0
      for character in characters[start...] {
        let cellWidth = DisplayWidth.of(character)
        guard used + cellWidth <= width else { break }
        visible.append(character)
        used += cellWidth
      }
      return (visible, DisplayWidth.of(String(characters[start..<cursor])))
    }
    let seed = UInt64.random(in: 1...UInt64.max)
    print("TextFieldView window seed \(seed)")
    var random = SeededGenerator(seed: seed)
    let pieces: [Character] = ["a", " ", "世", "é", "e\u{301}", "🙂", "\t", "…", "❤️"]
    for _ in 0..<2_000 {
      let text = (0..<Int.random(in: 0...30, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }
      let cursor = Int.random(in: 0...text.count, using: &random)
      let width = Int.random(in: 0...12, using: &random)
      let (visible, offset) = TextFieldView.window(text, cursor: cursor, width: width)
      let expected = reference(text, cursor: cursor, width: width)
      #expect(
        visible == expected.0 && offset == expected.1,
        "seed \(seed): \(String(text).debugDescription) cursor \(cursor) width \(width)")
      // A field's text, as it is, masked, and of printable ASCII only (its fast way).
      let ascii = text.filter { $0.isASCII && $0 != "\t" }
      let asciiCursor = min(cursor, ascii.count)
      let cases: [(String, Bool, [Character], Int)] = [
        (String(text), false, text, cursor),
        (String(text), true, Array(repeating: "•", count: text.count), cursor),
        (String(ascii), false, ascii, asciiCursor),
      ]
      for (field, masked, shown, at) in cases {
        let window = TextFieldView.window(of: field, masked: masked, cursor: at, width: width)
        let expected = reference(shown, cursor: at, width: width)
        #expect(
          window.0.utf8.elementsEqual(expected.0.utf8) && window.1 == expected.1,
          "seed \(seed): \(field.debugDescription) masked \(masked) cursor \(at) width \(width)")
      }
    }
  }

  /// Wrapping gives the same lines whether remembered or not, and what is remembered stays
  /// within its limit however many texts are wrapped.
  @Test func wrappedLinesAreRememberedWithinALimit() {
    let text = "Enter your email to log in or sign up; a long hint wraps at word boundaries."
    #expect(TextBlock.wrap(text, width: 20) == TextBlock.wrapping(text, width: 20))
    #expect(TextBlock.wrap(text, width: 20) == TextBlock.wrapping(text, width: 20))
    #expect(TextBlock.wrap(text, width: 33) == TextBlock.wrapping(text, width: 33))
    // Kept by bytes: each spelling of `é` comes back as it was written.
    let composed = "Café au lait"
    let decomposed = "Cafe\u{301} au lait"
    #expect(
      TextBlock.wrap(composed, width: 8).map { Array($0.utf8) } == [
        Array("Café au".utf8), Array("lait".utf8),
      ])
    #expect(
      TextBlock.wrap(decomposed, width: 8).map { Array($0.utf8) } == [
        Array("Cafe\u{301} au".utf8), Array("lait".utf8),
      ])
    for index in 0..<(TextBlock.remembered.limit * 2) {
      _ = TextBlock.wrap("text \(index)", width: 10)
      #expect(TextBlock.remembered.count <= TextBlock.remembered.limit)
    }
  }

  @Test func longValueScrollsToKeepTheCursorVisible() {
    let text = Array(String(repeating: "abcdefghij", count: 6))
    let (visible, cursor) = TextFieldView.window(text, cursor: text.count, width: 10)
    #expect(visible == "bcdefghij")
    #expect(cursor == 9)
  }

  @Test func wideCharactersNeverSplit() {
    var grid = Grid(width: 5, height: 1)
    grid.put("ab中文", row: 0, column: 0, style: .normal)
    #expect(grid.lines == ["ab中"])
  }

  @Test func maskedPasswordShowsBullets() {
    var state = AppState(root: .signedOut(SignedOut(path: [.login(LoginForm(email: "a@b.co"))])))
    state.apply(.pasted("pässword"))
    let text = Renderer.render(state, width: 80, height: 24).text
    #expect(text.contains("[••••••••  "))
    #expect(!text.contains("pässword"))
    state.apply(.revealToggled)
    #expect(Renderer.render(state, width: 80, height: 24).text.contains("pässword"))
  }

  @Test func truncatesWithAnEllipsis() {
    #expect(TextBlock.truncated("registered@email.com", width: 30) == "registered@email.com")
    #expect(TextBlock.truncated("registered@email.com", width: 10) == "registere…")
    #expect(TextBlock.truncated("中文中文", width: 4) == "中…")
    #expect(TextBlock.truncated("abc", width: 0) == "")
    #expect(TextBlock.truncated("abc", width: 3) == "abc")
    #expect(TextBlock.truncated("abcd", width: 3) == "ab…")
    #expect(TextBlock.truncated("ab", width: 1) == "…")
    #expect(TextBlock.truncated(String(repeating: "Z", count: 1_000_000), width: 5) == "ZZZZ…")
  }

  /// A word too long for the line breaks after a `/` or `-` in it where one fits (the Keys
  /// panel at 20x6 read `play/p` and `ause`), else where the line ends.
  @Test func aWordTooLongBreaksAfterASlashOrHyphen() {
    #expect(TextBlock.wrap("play/pause", width: 8) == ["play/", "pause"])
    #expect(TextBlock.wrap("Space play/pause now", width: 8) == ["Space", "play/", "pause", "now"])
    #expect(TextBlock.wrap("read-only", width: 7) == ["read-", "only"])
    #expect(TextBlock.wrap("-abcdefghij", width: 10) == ["-abcdefghi", "j"], "no lone dash")
    #expect(TextBlock.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
  }

  @Test func wrapsLongMessagesAtWords() {
    let lines = TextBlock.wrap(Message.weakPassword, width: 74)
    #expect(lines.count == 2)
    #expect(lines.joined(separator: " ") == Message.weakPassword)
  }
}

@Suite struct KeyBindingTests {
  let getStarted = AppState.launch(with: .none)
  let profile = AppState.launch(
    with: .valid(
      Session(
        token: "t",
        accountID: "auth0|ab",
        profile: Profile(
          email: "a@b.co", gender: .male, mobile: "+60123456789", firstName: "", lastName: ""),
        gravatarHash: "00")))

  func action(_ key: Key, _ state: AppState) -> Action? {
    KeyBindings.action(for: key, in: state)
  }

  @Test func navigationKeys() {
    let form: (FormAction) -> Action = { .getStarted(.form($0)) }
    #expect(action(.tab, getStarted) == form(.focusMoved(.forward)))
    #expect(action(.down, getStarted) == form(.focusMoved(.forward)))
    #expect(action(.backTab, getStarted) == form(.focusMoved(.backward)))
    #expect(action(.up, getStarted) == form(.focusMoved(.backward)))
    #expect(action(.enter, getStarted) == form(.enterPressed))
    #expect(action(.escape, getStarted) == form(.escapePressed))
    #expect(action(.home, getStarted) == form(.textEdited(.moveToStart)))
    #expect(action(.end, getStarted) == form(.textEdited(.moveToEnd)))
    #expect(action(.control("c"), getStarted) == .interruptPressed)
  }

  @Test func lettersTypeInFieldsButCommandOnProfile() {
    #expect(action(.character("q"), getStarted) == .getStarted(.form(.textEdited(.insert("q")))))
    #expect(action(.character("q"), profile) == .quitPressed)
    #expect(action(.character("e"), profile) == .profile(.editNumberPressed))
    #expect(action(.character("l"), profile) == .logOutPressed)
    #expect(action(.character("x"), profile) == nil)
  }

  @Test func arrowsAndSpaceStepThePicker() {
    var form = SignupForm(email: "a@b.co")
    form.focus = .gender
    let state = AppState(root: .signedOut(SignedOut(path: [.signup(form)])))
    #expect(action(.right, state) == .signup(.form(.pickerStepped(.forward))))
    #expect(action(.character(" "), state) == .signup(.form(.pickerStepped(.forward))))
    #expect(action(.left, state) == .signup(.form(.pickerStepped(.backward))))
    #expect(action(.left, getStarted) == .getStarted(.form(.textEdited(.moveLeft))))
  }

  @Test func revealKeyIsInTheFooterAndSaysWhatItWillDo() {
    var form = LoginForm(email: "a@b.co")
    var state = AppState(root: .signedOut(SignedOut(path: [.login(form)])))
    #expect(action(.control("r"), state) == .login(.form(.revealToggled)))
    #expect(KeyBindings.hints(for: state).map(\.text).contains("Ctrl-R show password"))
    form.revealsPassword = true
    state = AppState(root: .signedOut(SignedOut(path: [.login(form)])))
    #expect(KeyBindings.hints(for: state).map(\.text).contains("Ctrl-R hide password"))
  }

  /// The keys of every screen come after the screen's own: in the footer, in the `Keys`
  /// panel, and when a key is looked up (a screen's own binding of a key wins).
  @Test func theGlobalKeysFollowTheScreensOwn() {
    let own = KeyMap(
      [
        KeyBinding([.character("x")], Hint(keys: "x", action: "one"), .quitPressed),
        KeyBinding([.control("o")], Hint(keys: "Ctrl-O", action: "own"), .keysPanelToggled),
      ], takesText: false)
    for signedIn in [false, true] {
      let map = KeyBindings.withGlobalKeys(own, signedIn: signedIn)
      #expect(map.action(for: .control("o")) == .keysPanelToggled, "the screen's own wins")
      #expect(map.action(for: .character("?")) == .keysPanelToggled)
      #expect(map.action(for: .control("c")) == .interruptPressed)
      #expect(map.action(for: .character("x")) == .quitPressed)
      #expect(
        map.hints.map(\.text) == ["x one", "Ctrl-O own", "? keys", "Ctrl-C quit"],
        "signed in: \(signedIn)")
      #expect(
        map.help.map(\.text)
          == ["x one", "Ctrl-O own"] + (signedIn ? ["Ctrl-O log out"] : [])
          + ["?/F1 all keys (this panel; F1 in a text field)", "Ctrl-C quit"])
      #expect(map.allBindings.count == (signedIn ? 5 : 4))
    }
    var typing = own
    typing.takesText = true
    let map = KeyBindings.withGlobalKeys(typing, signedIn: true)
    #expect(map.action(for: .character("?")) == nil, "typed into the field")
    #expect(map.action(for: .function(1)) == .keysPanelToggled)
    #expect(map.hints.map(\.text) == ["x one", "Ctrl-O own", "F1 keys", "Ctrl-C quit"])
  }

  @Test func everyFooterEndsWithQuitAndListsOnlyBoundKeys() {
    var expired = AppState.launch(with: .invalid)
    for state in [getStarted, profile, expired] {
      let map = KeyBindings.keyMap(for: state)
      #expect(map.hints.last == Hint(keys: "Ctrl-C", action: "quit"))
      #expect(map.allBindings.allSatisfy { !$0.keys.isEmpty })
    }
    expired.notice = nil
    #expect(
      KeyBindings.hints(for: profile).map(\.text) == [
        "e edit number", "l log out", "c classes", "n lessons", "i images", "Tab/↑↓ move",
        "Enter select", "? keys", "Ctrl-C quit",
      ])
  }

  /// Issue 24, item 6: Profile's footer shows `? keys` at 80 columns (the `q` key is listed in
  /// the panel; `Ctrl-C quit` ends the footer), and a footer that must drop hints keeps
  /// `? keys` and quitting the longest.
  @Test func profilesFooterShowsTheKeysPanelAndQuit() {
    let line = Hint.line(KeyBindings.hints(for: profile), width: 80)
    #expect(
      line == " e edit number  l log out  c classes  n lessons  i images  ? keys   Ctrl-C quit")
    #expect(
      Hint.line(KeyBindings.hints(for: profile), width: 40)
        == " e edit number  ? keys   Ctrl-C quit"
    )
    #expect(KeyBindings.keyMap(for: profile).action(for: .character("q")) == .quitPressed)
    #expect(KeyBindings.keyMap(for: profile).help.contains(Hint(keys: "q", action: "quit")))
  }

  /// Issue 24, item 6: while a text field has the focus, `?` is typed, so the footer names F1.
  @Test func aTextFieldsFooterNamesF1AndOtherwiseQuestionMark() {
    #expect(KeyBindings.hints(for: getStarted).map(\.text).contains("F1 keys"))
    #expect(!KeyBindings.hints(for: getStarted).map(\.text).contains("? keys"))
    #expect(KeyBindings.action(for: .function(1), in: getStarted) == .keysPanelToggled)
    #expect(KeyBindings.action(for: .character("?"), in: getStarted) != .keysPanelToggled)
    #expect(KeyBindings.hints(for: profile).map(\.text).contains("? keys"))
    #expect(KeyBindings.action(for: .character("?"), in: profile) == .keysPanelToggled)
  }

  /// A spec walk-through: Ctrl-O logs out from any signed-in screen (SPEC §10), the `Keys`
  /// panel open too: the panel closes and the log-out is the one Ctrl-O makes without it (the
  /// same state, the same effects). Signed out, Ctrl-O is no key, panel or not.
  @Test func ctrlOLogsOutWithTheKeysPanelOpen() throws {
    var plain = profile
    let plainEffects = reduce(&plain, try #require(action(.control("o"), plain)))
    var withPanel = profile
    _ = reduce(&withPanel, .keysPanelToggled)
    #expect(withPanel.showsKeys)
    let pressed = KeyBindings.action(for: .control("o"), in: withPanel, width: 80, height: 24)
    #expect(pressed == .logOutPressed)
    let effects = reduce(&withPanel, try #require(pressed))
    #expect(effects == plainEffects)
    #expect(withPanel == plain)
    #expect(!withPanel.showsKeys)

    // With changes still unsent, the question replaces the panel.
    var unsent = profile
    _ = reduce(&unsent, .syncChanged(SyncStatus(account: "auth0|ab", waiting: 2, offline: true)))
    _ = reduce(&unsent, .keysPanelToggled)
    _ = reduce(
      &unsent, try #require(KeyBindings.action(for: .control("o"), in: unsent, width: 80)))
    #expect(unsent.logOutConfirmation == LogOutConfirmation(waiting: 2))
    #expect(!unsent.showsKeys)

    var signedOut = getStarted
    _ = reduce(&signedOut, .keysPanelToggled)
    #expect(KeyBindings.action(for: .control("o"), in: signedOut, width: 80, height: 24) == nil)
  }

  /// Issue 28: `F1 keys` and `? keys` take the same width, so moving the focus between a
  /// field and a button leaves the rest of the footer where it was (nothing else is redrawn).
  @Test func theFooterKeepsItsLayoutWhenTheKeysHintChanges() {
    let onField = Hint.line(KeyBindings.hints(for: getStarted), width: 80)
    var onButton = getStarted
    guard case .signedOut(var flow) = onButton.root else { return }
    flow.getStarted.focus = .next
    onButton.root = .signedOut(flow)
    let other = Hint.line(KeyBindings.hints(for: onButton), width: 80)
    #expect(other.contains("? keys"), "\(other)")
    #expect(
      onField.range(of: "Ctrl-C quit")?.lowerBound.utf16Offset(in: onField)
        == other.range(of: "Ctrl-C quit")?.lowerBound.utf16Offset(in: other),
      "\(onField)\n\(other)")
  }

  @Test func whileARequestRunsTheFooterOffersOnlyCancelAndQuit() {
    var state = getStarted
    state.apply(.pasted("a@b.co"))
    state.apply(.enterPressed)
    #expect(state.isBusy)
    #expect(
      KeyBindings.hints(for: state).map(\.text) == ["Esc cancel request", "? keys", "Ctrl-C quit"])
  }

  @Test func footerDropsWholeHintsNeverHalfOfOne() {
    let hints = [
      Hint(keys: "Tab/↑↓", action: "move", isEssential: false),
      Hint(keys: "Ctrl-R", action: "show password"), Hint(keys: "Esc", action: "back"),
      Hint(keys: "Ctrl-C", action: "quit"),
    ]
    #expect(
      Hint.line(hints, width: 80) == " Tab/↑↓ move  Ctrl-R show password  Esc back  Ctrl-C quit")
    #expect(Hint.line(hints, width: 40) == " Ctrl-R show password  Ctrl-C quit")
    #expect(Hint.line(hints, width: 30) == " Ctrl-C quit")
    #expect(Hint.line(hints, width: 14) == " Ctrl-C quit")
    #expect(Hint.line(hints, width: 8) == " ")
  }

  @Test func aHintWithAShortWordingTakesItBeforeAnEssentialHintGoes() {
    let hints = [
      Hint(keys: "Ctrl-R", action: "show password", shortAction: "show"),
      Hint(keys: "F1", action: "keys", isPinned: true), Hint(keys: "Ctrl-C", action: "quit"),
    ]
    #expect(Hint.line(hints, width: 80) == " Ctrl-R show password  F1 keys  Ctrl-C quit")
    #expect(Hint.line(hints, width: 40) == " Ctrl-R show  F1 keys  Ctrl-C quit")
    #expect(Hint.line(hints, width: 30) == " F1 keys  Ctrl-C quit")
  }
}

@Suite struct AssetTests {
  @Test func logoMatchesTheAssetFile() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Assets/logo.txt")
    let file = try String(contentsOf: url, encoding: .utf8)
    #expect(file == AssetArt.logo + "\n")
  }
}

@Suite struct IdenticonTests {
  let hash = "6f0b1b4c2b8c7e5a1a6b3e0e5d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a69788796"

  @Test func isSymmetricAndStable() {
    let pattern = Identicon.pattern(hash: hash)
    #expect(pattern.count == 5)
    for row in pattern { #expect(row == row.reversed()) }
    #expect(pattern == Identicon.pattern(hash: hash))
    // 6,f,0 / b,1,b / 4,c,2 / b,8,c / 7,e,5: even nibbles are filled.
    #expect(pattern[0] == [true, false, true, false, true])
    #expect(pattern[1] == [false, false, false, false, false])
    #expect(pattern[2] == [true, true, true, true, true])
    #expect(pattern[3] == [false, true, true, true, false])
    #expect(pattern[4] == [false, true, false, true, false])
  }

  @Test func colourComesFromTheHash() {
    #expect(Identicon.color(hash: hash) == UInt8(0x8796 % 6))
    #expect(Identicon.color(hash: String(repeating: "0", count: 64)) == 0)
  }
}

/// A form's key map is made once for each of its inputs and kept: what it says follows every
/// input (the form, the focus, a running request, the password shown or not), call after call.
@Suite struct FormKeysTests {
  @Test func aKeptMapIsTheOneItsInputsMake() {
    func footer(_ map: KeyMap) -> String { Hint.line(map.hints, width: 200) }
    let hidden = FormKeys.Options(password: false, escape: "back")
    let shown = FormKeys.Options(password: true, escape: "back")
    for _ in 0..<2 {
      let login = FormKeys.map(.login, focus: .secureText, busy: false, options: hidden)
      #expect(footer(login).contains("show password"))
      #expect(login.takesText)
      #expect(login.action(for: .enter) == .login(.form(.enterPressed)))
      #expect(login.action(for: .character("x")) == .login(.form(.textEdited(.insert("x")))))
      let revealed = FormKeys.map(.login, focus: .secureText, busy: false, options: shown)
      #expect(footer(revealed).contains("hide password"))
      let busy = FormKeys.map(.login, focus: .secureText, busy: true, options: hidden)
      #expect(!footer(busy).contains("password") && footer(busy).contains("cancel request"))
      let button = FormKeys.map(.login, focus: .button, busy: false, options: hidden)
      #expect(!button.takesText)
      #expect(button.action(for: .character(" ")) == .login(.form(.enterPressed)))
      let signup = FormKeys.map(.signup, focus: .secureText, busy: false, options: hidden)
      #expect(signup.action(for: .enter) == .signup(.form(.enterPressed)))
      let modal = FormKeys.map(.classesModal, focus: .text, busy: false, options: hidden)
      #expect(modal.action(for: .enter) == .classes(.modal(.form(.enterPressed))))
    }
  }
}
