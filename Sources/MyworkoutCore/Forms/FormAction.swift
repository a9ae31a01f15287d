/// What a person does on any form: the same keys mean the same things on every screen that has
/// fields and buttons. Each screen's action wraps these (`.login(.form(.enterPressed))`).
package enum FormAction: Equatable, Sendable {
  case focusMoved(FocusDirection)
  case textEdited(TextEdit)
  case pasted(String)
  case enterPressed
  case escapePressed
  case pickerStepped(FocusDirection)
  case revealToggled
  /// A mouse click on the focus stop at this place in the focus order.
  case stopClicked(Int)
}
