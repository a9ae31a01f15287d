/// Signup (`Create a new account`): email, password, gender, mobile, first and last name.
package struct SignupForm: FormState {
  package enum Focus: FocusStop {
    case email, password, gender, mobile, firstName, lastName, signUp, cancel
    package var kind: ControlKind {
      switch self {
      case .email, .mobile, .firstName, .lastName: .text
      case .password: .secureText
      case .gender: .picker
      case .signUp, .cancel: .button
      }
    }
  }

  package var email: TextInput
  package var password = TextInput(limit: FieldLimit.password)
  /// Starts with no choice; Right/Space step forward, Left back.
  package var gender: Gender?
  package var mobile = TextInput(limit: FieldLimit.mobile)
  package var firstName = TextInput(limit: FieldLimit.name)
  package var lastName = TextInput(limit: FieldLimit.name)
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
  package var problem: (message: String, at: Focus)? {
    if email.isEmpty { return (Message.completeTheForm, .email) }
    if !Email.isValid(email.text) { return (Message.emailNotValid, .email) }
    if password.text.isEmpty { return (Message.completeTheForm, .password) }
    if !Password.isStrong(password.text) { return (Message.weakPassword, .password) }
    if gender == nil { return (Message.selectGender, .gender) }
    if mobile.isEmpty { return (Message.completeTheForm, .mobile) }
    if !MobileNumber.isValid(mobile.text) { return (Message.mobileNotValid, .mobile) }
    return nil
  }

  package func validity(of focus: Focus) -> FieldValidity {
    switch focus {
    case .email: Self.validity(email, Email.isValid)
    case .password: Self.validity(password, Password.isStrong)
    case .mobile: Self.validity(mobile, MobileNumber.isValid)
    // An untouched picker turns red once a submit was refused for it.
    case .gender:
      gender != nil ? .valid : (phase == .invalid(Message.selectGender) ? .invalid : .neutral)
    // Optional, and any name is one: valid once typed, neutral while empty (never red).
    case .firstName: firstName.isEmpty ? .neutral : Self.validity(firstName) { _ in true }
    case .lastName: lastName.isEmpty ? .neutral : Self.validity(lastName) { _ in true }
    case .signUp, .cancel: .neutral
    }
  }

  private static func validity(_ input: TextInput, _ rule: (String) -> Bool) -> FieldValidity {
    guard input.isTouched else { return .neutral }
    return rule(input.text) ? .valid : .invalid
  }

  /// The account this form describes; only meaningful when `problem` is nil.
  package var registration: Registration {
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
