import Testing

@testable import MyworkoutCore

/// An exhaustive reducer test helper: every `send` states the whole change it expects in the
/// state (as a mutation of the state before) and every effect it expects, in order. A state
/// change or an effect the test did not state fails the test.
struct TestStore {
  private(set) var state: AppState

  init(_ state: AppState) {
    self.state = state
  }

  /// Sends an action and checks that the state changed exactly as `update` says (nothing else)
  /// and that exactly `effects` came out.
  mutating func send(
    _ action: Action, effects expected: [Effect] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ update: (inout AppState) -> Void = { _ in }
  ) {
    var expectedState = state
    update(&expectedState)
    let effects = reduce(&state, action)
    #expect(
      state == expectedState, "state after \(action) differs from what the test states",
      sourceLocation: sourceLocation)
    #expect(
      effects == expected, "effects after \(action): got \(effects)",
      sourceLocation: sourceLocation)
    // Continue from what the test stated, so one mismatch is reported once.
    state = expectedState
  }

  /// Types text one character at a time through `wrap` (a screen's form action), checking the
  /// state only at the end, with no effects on the way.
  mutating func type(
    _ text: String, as wrap: (FormAction) -> Action,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ update: (inout AppState) -> Void
  ) {
    var expectedState = state
    update(&expectedState)
    for character in text {
      let effects = reduce(&state, wrap(.textEdited(.insert(String(character)))))
      #expect(effects.isEmpty, "typing produced \(effects)", sourceLocation: sourceLocation)
    }
    #expect(
      state == expectedState, "state after typing \"\(text)\" differs",
      sourceLocation: sourceLocation)
    state = expectedState
  }
}

/// Ways into the state for stating expectations: `$0.getStarted.email = ...`.
extension AppState {
  var signedOut: SignedOut {
    get {
      guard case .signedOut(let flow) = root else { fatalError("not signed out: \(root)") }
      return flow
    }
    set { root = .signedOut(newValue) }
  }

  var signedIn: SignedIn {
    get {
      guard case .signedIn(let signedIn) = root else { fatalError("not signed in: \(root)") }
      return signedIn
    }
    set { root = .signedIn(newValue) }
  }

  var getStarted: GetStartedForm {
    get { signedOut.getStarted }
    set { signedOut.getStarted = newValue }
  }

  var login: LoginForm {
    get {
      guard case .login(let form) = signedOut.path.last else { fatalError("no Login on top") }
      return form
    }
    set { signedOut.path[signedOut.path.count - 1] = .login(newValue) }
  }

  var signup: SignupForm {
    get {
      guard case .signup(let form) = signedOut.path.last else { fatalError("no Signup on top") }
      return form
    }
    set { signedOut.path[signedOut.path.count - 1] = .signup(newValue) }
  }

  var profile: ProfileState {
    get { signedIn.profile }
    set { signedIn.profile = newValue }
  }
}

/// Typed text as the form holds it after typing (cursor at the end, touched).
func typed(_ text: String, limit: Int) -> TextInput {
  TextInput(text, limit: limit)
}

enum Sample {
  static let profile = Profile(
    email: "registered@email.com", gender: .female, mobile: "+60123456789", firstName: "Ada",
    lastName: "Lovelace")
  static let session = Session(
    token: "header.payload.signature", accountID: "auth0|ada", profile: profile,
    gravatarHash: "ab12")
}
