/// Signup (`Create a new account`): email, password, gender, mobile, first and last name.
public struct SignupForm: FormState {
  public enum Focus: FocusStop {
    case email, password, gender, mobile, firstName, lastName, signUp, cancel
    public var kind: ControlKind {
      switch self {
      case .email, .mobile, .firstName, .lastName: .text
      case .password: .secureText
      case .gender: .picker
      case .signUp, .cancel: .button
      }
    }
  }

  public var email: TextInput
  public var password = TextInput(limit: FieldLimit.password)
  /// Starts with no choice; Right/Space step forward, Left back.
  public var gender: Gender?
  public var mobile = TextInput(limit: FieldLimit.mobile)
  public var firstName = TextInput(limit: FieldLimit.name)
  public var lastName = TextInput(limit: FieldLimit.name)
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
      case .mobile: mobile
      case .firstName: firstName
      case .lastName: lastName
      case .gender, .signUp, .cancel: nil
      }
    }
    set {
      guard let newValue else { return }
      switch focus {
      case .email: email = newValue
      case .password: password = newValue
      case .mobile: mobile = newValue
      case .firstName: firstName = newValue
      case .lastName: lastName = newValue
      case .gender, .signUp, .cancel: break
      }
    }
  }

  /// First failing rule in screen order: email, password, gender, mobile (SPEC §4).
  public var problem: String? {
    if email.isEmpty { return Message.completeTheForm }
    if !Email.isValid(email.text) { return Message.emailNotValid }
    if password.text.isEmpty { return Message.completeTheForm }
    if !Password.isStrong(password.text) { return Message.weakPassword }
    if gender == nil { return Message.selectGender }
    if mobile.isEmpty { return Message.completeTheForm }
    if !MobileNumber.isValid(mobile.text) { return Message.mobileNotValid }
    return nil
  }

  public func validity(of focus: Focus) -> FieldValidity {
    switch focus {
    case .email: Self.validity(email, Email.isValid)
    case .password: Self.validity(password, Password.isStrong)
    case .mobile: Self.validity(mobile, MobileNumber.isValid)
    case .gender: gender == nil ? .neutral : .valid
    case .firstName, .lastName, .signUp, .cancel: .neutral
    }
  }

  private static func validity(_ input: TextInput, _ rule: (String) -> Bool) -> FieldValidity {
    guard input.isTouched else { return .neutral }
    return rule(input.text) ? .valid : .invalid
  }

  /// The account this form describes; only meaningful when `problem` is nil.
  public var registration: Registration {
    Registration(
      password: password.text,
      profile: Profile(
        email: Email.normalized(email.text),
        gender: gender ?? .preferNotToSay,
        mobile: MobileNumber.normalized(mobile.text) ?? mobile.text,
        firstName: firstName.text.trimmingWhitespace(),
        lastName: lastName.text.trimmingWhitespace()
      )
    )
  }
}
