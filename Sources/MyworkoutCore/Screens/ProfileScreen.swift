/// Profile (`Profile`): the signed-in person, `Edit` for the mobile number, and `Log out`.
public struct ProfileScreen: Equatable, Sendable {
  public enum Focus: FocusStop {
    case edit, logOut
    public var kind: ControlKind { .button }
  }

  public enum Content: Equatable, Sendable {
    case signedIn(Session)
    /// The session was missing, tampered with or expired: the message shows instead.
    case expired
  }

  public var content: Content
  public var focus: Focus = .edit
  /// The Edit-number dialog, when open.
  public var dialog: EditNumberDialog?
  /// A confirmation shown under the details (`Number was edited successfully`).
  public var confirmation: String?

  public init(content: Content) {
    self.content = content
    self.focus = content == .expired ? .logOut : .edit
  }

  public var session: Session? {
    if case .signedIn(let session) = content { return session }
    return nil
  }
}

/// The Edit-number dialog: its own field, validation, and request.
public struct EditNumberDialog: FormState {
  public enum Focus: FocusStop {
    case mobile, save, cancel
    public var kind: ControlKind { self == .mobile ? .text : .button }
  }

  public var mobile: TextInput
  public var focus: Focus = .mobile
  public var phase: RequestPhase = .idle

  public init(mobile: String) {
    self.mobile = TextInput(mobile, limit: FieldLimit.mobile)
  }

  public subscript(field focus: Focus) -> TextInput? {
    get { focus == .mobile ? mobile : nil }
    set { if focus == .mobile, let newValue { mobile = newValue } }
  }

  public var problem: String? {
    MobileNumber.isValid(mobile.text) ? nil : Message.mobileNotValid
  }

  public func validity(of focus: Focus) -> FieldValidity {
    guard focus == .mobile, mobile.isTouched else { return .neutral }
    return MobileNumber.isValid(mobile.text) ? .valid : .invalid
  }
}
