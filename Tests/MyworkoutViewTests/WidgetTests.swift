import Foundation
import MyworkoutCore
import Testing

@testable import MyworkoutView

@Suite struct DisplayWidthTests {
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
    var state = AppState(screen: .login(LoginForm(email: "a@b.co")))
    _ = reduce(&state, .pasted("pässword"))
    let text = Renderer.render(state, width: 80, height: 24).text
    #expect(text.contains("[••••••••  "))
    #expect(!text.contains("pässword"))
    _ = reduce(&state, .revealToggled)
    #expect(Renderer.render(state, width: 80, height: 24).text.contains("pässword"))
  }

  @Test func wrapsLongMessagesAtWords() {
    let lines = TextBlock.wrap(Message.weakPassword, width: 74)
    #expect(lines.count == 2)
    #expect(lines.joined(separator: " ") == Message.weakPassword)
  }
}

@Suite struct KeyBindingTests {
  let getStarted = AppState.launch(with: .none)

  @Test func navigationKeys() {
    #expect(KeyBindings.action(for: .tab, in: getStarted) == .focusMoved(.forward))
    #expect(KeyBindings.action(for: .down, in: getStarted) == .focusMoved(.forward))
    #expect(KeyBindings.action(for: .backTab, in: getStarted) == .focusMoved(.backward))
    #expect(KeyBindings.action(for: .up, in: getStarted) == .focusMoved(.backward))
    #expect(KeyBindings.action(for: .enter, in: getStarted) == .enterPressed)
    #expect(KeyBindings.action(for: .escape, in: getStarted) == .escapePressed)
  }

  @Test func lettersTypeInFieldsButCommandOnProfile() {
    #expect(KeyBindings.action(for: .character("q"), in: getStarted) == .textEdited(.insert("q")))
    let profile = AppState.launch(
      with: .valid(
        Session(
          token: "t",
          profile: Profile(
            email: "a@b.co", gender: .male, mobile: "+60123456789", firstName: "", lastName: ""),
          gravatarHash: "00")))
    #expect(KeyBindings.action(for: .character("q"), in: profile) == .quitPressed)
    #expect(KeyBindings.action(for: .character("e"), in: profile) == .editNumberPressed)
    #expect(KeyBindings.action(for: .character("l"), in: profile) == .logOutPressed)
  }

  @Test func arrowsAndSpaceStepThePicker() {
    var form = SignupForm(email: "a@b.co")
    form.focus = .gender
    let state = AppState(screen: .signup(form))
    #expect(KeyBindings.action(for: .right, in: state) == .pickerStepped(.forward))
    #expect(KeyBindings.action(for: .character(" "), in: state) == .pickerStepped(.forward))
    #expect(KeyBindings.action(for: .left, in: state) == .pickerStepped(.backward))
    #expect(KeyBindings.action(for: .left, in: getStarted) == .textEdited(.moveLeft))
  }

  @Test func revealKeyIsInTheFooter() {
    let state = AppState(screen: .login(LoginForm(email: "a@b.co")))
    #expect(KeyBindings.action(for: .control("r"), in: state) == .revealToggled)
    #expect(KeyBindings.hints(for: state).contains(Hint(keys: "Ctrl-R", action: "show password")))
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
