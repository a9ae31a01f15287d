import MyworkoutCore

/// Profile has no text field, so single letters act there (SPEC §5); its dialog is a form.
enum ProfileKeys {
  static func map(_ profile: ProfileState) -> KeyMap {
    if let dialog = profile.dialog {
      return FormKeys.map(
        .profileDialog, focus: dialog.focus.kind, busy: dialog.phase.isRunning,
        options: .init(escape: "close"))
    }
    return KeyMap(
      [
        KeyBinding(
          [.character("e"), .character("E")],
          profile.editNumberUnavailable == nil ? Hint(keys: "e", action: "edit number") : nil,
          .profile(.editNumberPressed), help: Hint(keys: "e", action: "edit number")),
        KeyBinding(
          [.character("l"), .character("L")], Hint(keys: "l", action: "log out"), .logOutPressed),
        KeyBinding(
          [.character("c"), .character("C")], Hint(keys: "c", action: "classes"),
          .profile(.classesPressed)),
        KeyBinding(
          [.character("n"), .character("N")], Hint(keys: "n", action: "lessons"),
          .profile(.lessonsPressed)),
        KeyBinding(
          [.character("i"), .character("I")], Hint(keys: "i", action: "images"),
          .profile(.imagesPressed)),
        // In the panel, not the footer: the footer ends with Ctrl-C quit, and its room goes to
        // `? keys`.
        KeyBinding(
          [.character("q"), .character("Q")], .quitPressed, help: Hint(keys: "q", action: "quit")),
        KeyBinding(
          [.tab, .down], Hint(keys: "Tab/↑↓", action: "move", isEssential: false),
          .profile(.form(.focusMoved(.forward)))),
        KeyBinding([.backTab, .up], .profile(.form(.focusMoved(.backward)))),
        KeyBinding(
          [.enter, .character(" ")], Hint(keys: "Enter", action: "select", isEssential: false),
          .profile(.form(.enterPressed))),
      ])
  }
}
