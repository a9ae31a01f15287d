/// Get started (`Myworkout GO`): one email field and `Next`.
package struct GetStartedForm: FormState {
  package enum Focus: FocusStop {
    case email, next, browseClasses
    package var kind: ControlKind { self == .email ? .text : .button }
  }

  package var email: TextInput
  package var focus: Focus
  package var phase: RequestPhase = .idle

  package init(email: String = "") {
    self.email = TextInput(email, limit: FieldLimit.email)
    self.focus = .email
  }

  package subscript(field focus: Focus) -> TextInput? {
    get { focus == .email ? email : nil }
    set { if focus == .email, let newValue { email = newValue } }
  }

  /// The message that refuses the form, or nil when a request may be made.
  package var problem: (message: String, at: Focus)? {
    Email.isValid(email.text) ? nil : (Message.emailNotValid, .email)
  }

  package func validity(of focus: Focus) -> FieldValidity {
    guard focus == .email, email.isTouched else { return .neutral }
    return Email.isValid(email.text) ? .valid : .invalid
  }
}

/// Longest values the fields take; a paste beyond is cut here.
package enum FieldLimit {
  package static let email = 254
  package static let password = 128
  package static let mobile = 20
  package static let name = 64
  package static let search = 100
}
