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

  static func reduce(_ signedIn: inout SignedIn, _ action: Action, display: Display)
    -> Outcome<Delegate>
  {
    switch action {
    case .profile(let action):
      guard signedIn.path.isEmpty || isAnswer(action) else { return .none }
      let outcome = ProfileReducer.reduce(&signedIn.profile, action, session: signedIn.session)
      switch outcome.delegate {
      case .logOutRequested?:
        return Outcome(effects: outcome.effects, delegate: .loggedOut)
      case .classesRequested?:
        let (classes, effects) = ClassesReducer.opened(colors: display.colors)
        signedIn.path.append(.classes(classes))
        return .effects(outcome.effects + effects)
      case .lessonsRequested?:
        let (lessons, effects) = LessonsReducer.opened(account: signedIn.account)
        signedIn.path.append(.lessons(lessons))
        return .effects(outcome.effects + effects)
      case .imagesRequested?:
        let (images, effects) = ImagesReducer.opened(display: display)
        signedIn.path.append(.images(images))
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
      return reduceClasses(&signedIn, action, display: display)
    case .lessons(let action):
      return reduceLessons(&signedIn, action)
    case .images(let action):
      return reduceImages(&signedIn, action)
    case .terminalResized:
      return .effects(resizeImages(&signedIn, display: display))
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

  private static func reduceClasses(
    _ signedIn: inout SignedIn, _ action: ClassesAction, display: Display
  )
    -> Outcome<Delegate>
  {
    guard let index = signedIn.path.lastIndex(where: \.isClasses),
      case .classes(var classes) = signedIn.path[index]
    else { return .none }
    let onTop = index == signedIn.path.count - 1
    // Keys reach the catalog only when it is on top; its answers wherever it is.
    guard onTop || action.isAnswer else { return .none }
    let outcome = ClassesReducer.reduce(&classes, action, signedIn: true, display: display)
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

extension SignedInReducer {
  /// Routes an action to Images: keys only when it is on top, answers wherever it is.
  fileprivate static func reduceImages(_ signedIn: inout SignedIn, _ action: ImagesAction)
    -> Outcome<Delegate>
  {
    guard let index = signedIn.path.lastIndex(where: \.isImages),
      case .images(var images) = signedIn.path[index]
    else { return .none }
    guard index == signedIn.path.count - 1 || action.isAnswer else { return .none }
    let outcome = ImagesReducer.reduce(&images, action)
    signedIn.path[index] = .images(images)
    if outcome.delegate == .back { signedIn.path.removeLast(signedIn.path.count - index) }
    return .effects(outcome.effects)
  }

  /// The Images grid reflows for a new terminal size.
  fileprivate static func resizeImages(_ signedIn: inout SignedIn, display: Display) -> [Effect] {
    guard let index = signedIn.path.lastIndex(where: \.isImages),
      case .images(var images) = signedIn.path[index]
    else { return [] }
    let effects = ImagesReducer.resized(&images, to: display)
    signedIn.path[index] = .images(images)
    return effects
  }
}

extension SignedIn.Route {
  var isImages: Bool {
    if case .images = self { return true }
    return false
  }

  var isClasses: Bool {
    if case .classes = self { return true }
    return false
  }
}
