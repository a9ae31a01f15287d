/// Login (`Welcome back`): email, password, `Log in`, `Cancel` and a way to Signup.
package struct LoginForm: FormState {
  package enum Focus: FocusStop {
    case email, password, logIn, cancel, createAccount
    package var kind: ControlKind {
      switch self {
      case .email: .text
      case .password: .secureText
      case .logIn, .cancel, .createAccount: .button
      }
    }
  }

  package var email: TextInput
  package var password = TextInput(limit: FieldLimit.password)
  package var revealsPassword = false
  package var focus: Focus = .email
  package var phase: RequestPhase = .idle

  package init(email: String) {
    self.email = TextInput(email, limit: FieldLimit.email)
    self.focus = Self.firstEmptyStop(in: self)
  }

  package subscript(field focus: Focus) -> TextInput? {
    get {
      switch focus {
      case .email: email
      case .password: password
      case .logIn, .cancel, .createAccount: nil
      }
    }
    set {
      guard let newValue else { return }
      switch focus {
      case .email: email = newValue
      case .password: password = newValue
      case .logIn, .cancel, .createAccount: break
      }
    }
  }

  /// First failing rule in screen order (SPEC §4); the password strength rule is not applied here.
  package var problem: (message: String, at: Focus)? {
    if email.isEmpty { return (Message.allFieldsRequired, .email) }
    if !Email.isValid(email.text) { return (Message.emailNotValid, .email) }
    if password.text.isEmpty { return (Message.allFieldsRequired, .password) }
    return nil
  }

  package func validity(of focus: Focus) -> FieldValidity {
    switch focus {
    case .email:
      guard email.isTouched else { return .neutral }
      return Email.isValid(email.text) ? .valid : .invalid
    case .password:
      guard password.isTouched else { return .neutral }
      return password.text.isEmpty ? .invalid : .valid
    case .logIn, .cancel, .createAccount:
      return .neutral
    }
  }
}
