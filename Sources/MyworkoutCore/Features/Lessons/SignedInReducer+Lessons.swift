extension SignedInReducer {
  /// Routes an action to Lessons (always on top of the path: nothing opens over it) and follows
  /// its delegate. An answer for a visit that ended is dropped.
  static func reduceLessons(_ signedIn: inout SignedIn, _ action: LessonsAction)
    -> Outcome<Delegate>
  {
    guard case .lessons(var lessons)? = signedIn.path.last else { return .none }
    let outcome = LessonsReducer.reduce(&lessons, action, account: signedIn.account)
    signedIn.path[signedIn.path.count - 1] = .lessons(lessons)
    switch outcome.delegate {
    case nil:
      return .effects(outcome.effects)
    case .back?:
      signedIn.path.removeLast()
      return .effects(outcome.effects)
    case .notice(let text)?:
      return Outcome(effects: outcome.effects, delegate: .notice(text))
    }
  }
}

extension SignedIn {
  /// Whose progress it is: the account's stable id, as the session token's subject names it.
  var account: String { session.accountID }
}
