/// The Edit-number dialog on Profile: its own field, validation, and request.
package struct EditNumberDialog: FormState {
  package enum Focus: FocusStop {
    case mobile, save, cancel
    package var kind: ControlKind { self == .mobile ? .text : .button }
  }

  package var mobile: TextInput
  package var focus: Focus = .mobile
  package var phase: RequestPhase = .idle

  package init(mobile: String) {
    self.mobile = TextInput(mobile, limit: FieldLimit.mobile)
  }

  package subscript(field focus: Focus) -> TextInput? {
    get { focus == .mobile ? mobile : nil }
    set { if focus == .mobile, let newValue { mobile = newValue } }
  }

  package var problem: (message: String, at: Focus)? {
    MobileNumber.isValid(mobile.text) ? nil : (Message.mobileNotValid, .mobile)
  }

  package func validity(of focus: Focus) -> FieldValidity {
    guard focus == .mobile, mobile.isTouched else { return .neutral }
    return MobileNumber.isValid(mobile.text) ? .valid : .invalid
  }
}
