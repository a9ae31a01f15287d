@testable import MyworkoutCore

/// Test helpers: type into the focused field, and sample values.
extension AppState {
  mutating func type(_ text: String) {
    for character in text { _ = reduce(&self, .textEdited(.insert(String(character)))) }
  }

  @discardableResult
  mutating func send(_ actions: Action...) -> [Effect] {
    actions.flatMap { reduce(&self, $0) }
  }

  var getStarted: GetStartedForm? {
    if case .getStarted(let form) = screen { return form }
    return nil
  }
  var login: LoginForm? {
    if case .login(let form) = screen { return form }
    return nil
  }
  var signup: SignupForm? {
    if case .signup(let form) = screen { return form }
    return nil
  }
  var profile: ProfileScreen? {
    if case .profile(let profile) = screen { return profile }
    return nil
  }
}

enum Sample {
  static let profile = Profile(
    email: "registered@email.com", gender: .female, mobile: "+60123456789", firstName: "Ada",
    lastName: "Lovelace")
  static let session = Session(
    token: "header.payload.signature", profile: profile, gravatarHash: "ab12")

  static func state(_ screen: Screen) -> AppState { AppState(screen: screen) }
}
