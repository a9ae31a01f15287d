/// The signed-in root: the session every signed-in screen shares, the screens opened from
/// Profile, and the transitions that work from any of them (log out, expiry). The root above
/// turns its delegates into navigation.
enum SignedInReducer {
  enum Delegate: Equatable, Sendable {
    case loggedOut
    case expired
    /// A line for the app's notice (lessons skipped while loading).
    case notice(String)
  }

  static func reduce(_ signedIn: inout SignedIn, _ action: Action) -> Outcome<Delegate> {
    switch action {
    case .profile(let action):
      guard signedIn.path.isEmpty || isAnswer(action) else { return .none }
      let outcome = ProfileReducer.reduce(&signedIn.profile, action, session: signedIn.session)
      switch outcome.delegate {
      case .logOutRequested?:
        return Outcome(effects: outcome.effects, delegate: .loggedOut)
      case .classesRequested?:
        let (classes, effects) = ClassesReducer.opened()
        signedIn.path.append(.classes(classes))
        return .effects(outcome.effects + effects)
      case .lessonsRequested?:
        let (lessons, effects) = LessonsReducer.opened(account: signedIn.account)
        signedIn.path.append(.lessons(lessons))
        return .effects(outcome.effects + effects)
      case .sessionRenewed(let session)?:
        signedIn.session = session
        return .effects(outcome.effects + [.saveSession(session)])
      case .sessionExpired?:
        return Outcome(effects: outcome.effects, delegate: .expired)
      case nil:
        return .effects(outcome.effects)
      }
    case .classes(let action):
      return reduceClasses(&signedIn, action)
    case .lessons(let action):
      return reduceLessons(&signedIn, action)
    case .classPage(.backPressed):
      guard case .classPage? = signedIn.path.last else { return .none }
      signedIn.path.removeLast()
      return .none
    case .logOutPressed:
      return .delegate(.loggedOut)
    case .sessionExpired:
      return .delegate(.expired)
    default:
      return .none
    }
  }

  private static func isAnswer(_ action: ProfileAction) -> Bool {
    if case .editNumberResponse = action { return true }
    return false
  }

  private static func reduceClasses(_ signedIn: inout SignedIn, _ action: ClassesAction)
    -> Outcome<Delegate>
  {
    guard let index = signedIn.path.lastIndex(where: \.isClasses),
      case .classes(var classes) = signedIn.path[index]
    else { return .none }
    let onTop = index == signedIn.path.count - 1
    // Keys reach the catalog only when it is on top; its answers wherever it is.
    guard onTop || action.isAnswer else { return .none }
    let outcome = ClassesReducer.reduce(&classes, action, signedIn: true)
    signedIn.path[index] = .classes(classes)
    switch outcome.delegate {
    case .back?:
      signedIn.path.removeLast(signedIn.path.count - index)
    case .open(let danceClass)?:
      signedIn.path.append(
        .classPage(ClassPageState(danceClass: danceClass, watched: classes.watched[danceClass.id])))
    case .createAccount?, .signedIn?, nil:
      break
    }
    return .effects(outcome.effects)
  }
}

extension SignedIn.Route {
  var isClasses: Bool {
    if case .classes = self { return true }
    return false
  }
}
