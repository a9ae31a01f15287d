/// Login (`Welcome back`): email, password, `Log in`, `Cancel` and a way to Signup.
public struct LoginForm: FormState {
  public enum Focus: FocusStop {
    case email, password, logIn, cancel, createAccount
    public var kind: ControlKind {
      switch self {
      case .email: .text
      case .password: .secureText
      case .logIn, .cancel, .createAccount: .button
      }
    }
  }

  public var email: TextInput
  public var password = TextInput(limit: FieldLimit.password)
  public var revealsPassword = false
  public var focus: Focus = .email
  public var phase: RequestPhase = .idle

  public init(email: String) {
    self.email = TextInput(email, limit: FieldLimit.email)
    self.focus = Self.firstEmptyStop(in: self)
  }

  public subscript(field focus: Focus) -> TextInput? {
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
  public var problem: String? {
    if email.isEmpty { return Message.allFieldsRequired }
    if !Email.isValid(email.text) { return Message.emailNotValid }
    if password.text.isEmpty { return Message.allFieldsRequired }
    return nil
  }

  public func validity(of focus: Focus) -> FieldValidity {
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
