import MyworkoutCore

/// The expiry message under the `Profile` heading, with `Log in again`.
enum SessionExpiredView {
  static func body(_ screen: SessionExpiredScreen, metrics: Metrics) -> Body {
    var body = Body()
    body.add(TextBlock.centered("Profile", width: metrics.width, style: .heading))
    body.spacer()
    body.addPinned(
      TextBlock.rows(
        Message.sessionExpired, column: metrics.labelColumn, width: metrics.width, style: .error))
    body.spacer()
    body.add(
      ButtonRow.rows(
        [Button(title: "Log in again", focused: true)], spinner: nil, metrics: metrics),
      focused: true)
    return body
  }
}

enum SessionExpiredKeys {
  static func map(_ screen: SessionExpiredScreen) -> KeyMap {
    KeyMap([
      KeyBinding(
        [.enter, .character(" ")], Hint(keys: "Enter", action: "log in again"),
        .sessionExpiredScreen(.logInAgainPressed)),
      KeyBinding([.character("l"), .character("L")], .logOutPressed),
      KeyBinding(
        [.character("q"), .character("Q")], Hint(keys: "q", action: "quit"), .quitPressed),
    ])
  }
}
