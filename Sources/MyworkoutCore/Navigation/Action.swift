/// Everything that can happen to the app, named for what happened.
public enum Action: Equatable, Sendable {
  // What the person did.
  case focusMoved(FocusDirection)
  case textEdited(TextEdit)
  case pasted(String)
  case enterPressed
  case escapePressed
  case pickerStepped(FocusDirection)
  case revealToggled
  case editNumberPressed
  case logOutPressed
  case quitPressed

  // What the world did.
  case spinnerTicked
  case checkEmailResponse(Result<Bool, ServiceError>)
  case logInResponse(Result<Session, ServiceError>)
  case signUpResponse(Result<Session, ServiceError>)
  case editNumberResponse(Result<Session, ServiceError>)
  /// The signed-in session's token reached its expiry while the app was open.
  case sessionExpired
  /// The app has something to tell in one line (a damaged file moved aside, a failed save).
  case noticeRaised(String)

  /// Whether the person did this (a key or a paste), as opposed to the world.
  public var isInput: Bool {
    switch self {
    case .focusMoved, .textEdited, .pasted, .enterPressed, .escapePressed, .pickerStepped,
      .revealToggled, .editNumberPressed, .logOutPressed, .quitPressed:
      true
    case .spinnerTicked, .checkEmailResponse, .logInResponse, .signUpResponse,
      .editNumberResponse, .sessionExpired, .noticeRaised:
      false
    }
  }
}
