/// What every form does the same way: focus moves, typing, paste, and leaving an error state
/// once the person edits. Screen reducers call this first and handle only what is theirs.
enum FormEditing {
  enum Outcome {
    /// The action was handled (or deliberately ignored) here.
    case handled
    /// The screen's own reducer decides.
    case notHandled
  }

  static func reduce<Form: FormState>(_ form: inout Form, _ action: Action) -> Outcome {
    switch action {
    case .focusMoved(let direction):
      if !form.phase.isRunning { form.focus = form.focus.moved(direction) }
      return .handled
    case .textEdited(let edit):
      guard !form.phase.isRunning, var field = form[field: form.focus] else { return .handled }
      field.apply(edit)
      form[field: form.focus] = field
      if TextInput.changesText(edit) { form.clearMessage() }
      return .handled
    case .pasted(let text):
      guard !form.phase.isRunning, var field = form[field: form.focus] else { return .handled }
      field.insert(text)
      form[field: form.focus] = field
      form.clearMessage()
      return .handled
    default:
      return .notHandled
    }
  }

  /// Enter on a field: move to the next field, or return true when this is the last field and
  /// Enter should submit.
  static func enterMovesFocus<Form: FormState>(_ form: inout Form) -> Bool {
    guard form.focus.kind != .button else { return false }
    if let next = form.focus.nextField {
      form.focus = next
      return true
    }
    return false
  }
}

extension FormState {
  /// An edit clears a validation or service message and returns the button to its resting title.
  mutating func clearMessage() {
    switch phase {
    case .invalid, .failed: phase = .idle
    case .idle, .running: break
    }
  }

  /// Starts a request for a form with no problem, or shows the problem; the submit button keeps
  /// the focus so Enter (now `Cancel`) cancels.
  mutating func submit(problem: String?, button: Focus, request: Effect) -> [Effect] {
    if let problem {
      phase = .invalid(problem)
      return []
    }
    phase = .running
    focus = button
    return [request]
  }

  /// The answer to a sign-in request (log in or sign up): Profile and the session saved on
  /// success, the service's message on failure. An answer for a form at rest was cancelled and
  /// is dropped.
  mutating func signedIn(_ result: Result<Session, ServiceError>, screen: inout Screen)
    -> [Effect]
  {
    guard phase.isRunning else { return [] }
    switch result {
    case .success(let session):
      screen = .profile(ProfileScreen(content: .signedIn(session)))
      return [.saveSession(session)]
    case .failure(let error):
      phase = .failed(error.message)
      return []
    }
  }

  /// Esc on Login or Signup: cancels a running request, else goes back to Get started with the
  /// email kept.
  mutating func escape(keeping email: TextInput, screen: inout Screen) -> [Effect] {
    if phase.isRunning { return cancelRequest() }
    screen = .getStarted(GetStartedForm(email: email.text))
    return []
  }

  /// Cancels the running request: back to rest, no message.
  mutating func cancelRequest() -> [Effect] {
    phase = .idle
    return [.cancelRequest]
  }
}
