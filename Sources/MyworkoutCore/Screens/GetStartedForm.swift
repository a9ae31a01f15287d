/// Get started (`Myworkout GO`): one email field and `Next`.
public struct GetStartedForm: FormState {
  public enum Focus: FocusStop {
    case email, next
    public var kind: ControlKind { self == .email ? .text : .button }
  }

  public var email: TextInput
  public var focus: Focus
  public var phase: RequestPhase = .idle

  public init(email: String = "") {
    self.email = TextInput(email, limit: FieldLimit.email)
    self.focus = .email
  }

  public subscript(field focus: Focus) -> TextInput? {
    get { focus == .email ? email : nil }
    set { if focus == .email, let newValue { email = newValue } }
  }

  /// The message that refuses the form, or nil when a request may be made.
  public var problem: String? {
    Email.isValid(email.text) ? nil : Message.emailNotValid
  }

  public func validity(of focus: Focus) -> FieldValidity {
    guard focus == .email, email.isTouched else { return .neutral }
    return Email.isValid(email.text) ? .valid : .invalid
  }
}

/// Longest values the fields take; a paste beyond is cut here.
public enum FieldLimit {
  public static let email = 254
  public static let password = 128
  public static let mobile = 20
  public static let name = 64
}
