/// The signed-in root: the session every signed-in screen shares, and the transitions that work
/// from any of them (log out, expiry). The root above turns its delegates into navigation.
enum SignedInReducer {
  enum Delegate: Equatable, Sendable {
    case loggedOut
    case expired
  }

  static func reduce(_ signedIn: inout SignedIn, _ action: Action) -> Outcome<Delegate> {
    switch action {
    case .profile(let action):
      let outcome = ProfileReducer.reduce(&signedIn.profile, action, session: signedIn.session)
      switch outcome.delegate {
      case .logOutRequested?:
        return Outcome(effects: outcome.effects, delegate: .loggedOut)
      case .sessionRenewed(let session)?:
        signedIn.session = session
        return .effects(outcome.effects + [.saveSession(session)])
      case .sessionExpired?:
        return Outcome(effects: outcome.effects, delegate: .expired)
      case nil:
        return .effects(outcome.effects)
      }
    case .logOutPressed:
      return .delegate(.loggedOut)
    case .sessionExpired:
      return .delegate(.expired)
    default:
      return .none
    }
  }
}
