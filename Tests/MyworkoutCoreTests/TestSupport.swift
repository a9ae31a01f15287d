@testable import MyworkoutCore

/// Starting points and sample values shared by the reducer tests (beside `TestStore.swift`).
extension AppState {
  /// Signed out with this screen on top of an empty Get started, as it was opened.
  static func showing(_ route: SignedOut.Route) -> AppState {
    AppState(root: .signedOut(SignedOut(path: [route])))
  }

  /// Profile for the sample session, as a launch with a saved session opens it.
  static var signedInSample: AppState { .launch(with: .valid(Sample.session)) }
}

extension Sample {
  /// The session the service answers after the number was edited: a new token, the new number.
  static let renewed = Session(
    token: "header.renewed.signature",
    accountID: "auth0|ada",
    profile: Profile(
      email: "registered@email.com", gender: .female, mobile: "+601112345678",
      firstName: "Ada", lastName: "Lovelace"),
    gravatarHash: "ab12")

  /// Another account's session (a sign-up answer).
  static let newcomer = Session(
    token: "header.newcomer.signature",
    accountID: "auth0|newcomer",
    profile: Profile(
      email: "new@email.com", gender: .female, mobile: "+60123456789", firstName: "Zoë",
      lastName: "中文"),
    gravatarHash: "cd34")
}

/// A refusal as a value `==` can compare (`problem` returns a tuple, which it cannot).
struct Refusal<Focus: Equatable>: Equatable {
  var message: String
  var at: Focus

  init(_ message: String, at: Focus) {
    self.message = message
    self.at = at
  }

  init?(_ problem: (message: String, at: Focus)?) {
    guard let problem else { return nil }
    self.init(problem.message, at: problem.at)
  }
}

/// A text field emptied by the person: no text, but touched (validation colours speak).
func cleared(limit: Int) -> TextInput {
  var input = TextInput("x", limit: limit)
  input.deleteBackward()
  return input
}
