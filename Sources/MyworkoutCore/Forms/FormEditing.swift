/// What every form does the same way: focus moves, typing, paste, and leaving an error state
/// once the person edits. Screen reducers call this first and handle only what is theirs.
enum FormEditing {
  enum Outcome: Equatable {
    /// The action was handled (or deliberately ignored) here.
    case handled
    /// The screen's own reducer decides.
    case notHandled
  }

  static func reduce<Form: FormState>(_ form: inout Form, _ action: FormAction) -> Outcome {
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
      let whole = field.insert(text)
      form[field: form.focus] = field
      // A paste longer than the field is cut, and the form says so rather than hide it.
      form.phase = whole ? form.phase.cleared : .invalid(Message.pasteCut(limit: field.limit))
      return .handled
    case .stopClicked:
      return .handled
    case .enterPressed, .escapePressed, .pickerStepped, .revealToggled:
      return .notHandled
    }
  }

  /// A click on a focus stop focuses it, and on a button also activates it (it becomes Enter);
  /// other actions pass through. While a request runs only a click on the focused button (the
  /// one titled `Cancel`) does anything. Returns nil when the click is done with.
  static func resolvingClick<Form: FormState>(_ form: inout Form, _ action: FormAction)
    -> FormAction?
  {
    guard case .stopClicked(let index) = action else { return action }
    let stops = Form.Focus.allCases
    guard stops.indices.contains(index) else { return nil }
    let stop = stops[index]
    if form.phase.isRunning { return stop == form.focus ? .enterPressed : nil }
    form.focus = stop
    return stop.kind == .button ? .enterPressed : nil
  }

  /// Enter on a field: move to the next field, or return false when this is the last field
  /// (or a button) and Enter should submit or activate.
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
    phase = phase.cleared
  }

  /// Starts a request for a form with no problem, or shows the problem and moves the focus to
  /// the stop at fault; while it runs the submit button keeps the focus so Enter (now `Cancel`)
  /// cancels.
  mutating func submit(
    problem: (message: String, at: Focus)?, button: Focus, id: EffectID, request: Request
  ) -> [Effect] {
    if let problem {
      phase = .invalid(problem.message)
      focus = problem.at
      return []
    }
    phase = .running
    focus = button
    return [.run(id, request)]
  }

  /// Cancels the running request: back to rest, no message.
  mutating func cancelRequest(_ id: EffectID) -> [Effect] {
    phase = .idle
    return [.cancel(id)]
  }

  /// The answer to a log-in: the session on success (the parent navigates), the service's
  /// message on failure. An answer for a form at rest was cancelled and is dropped (a log-in
  /// changes nothing, so its cancel always comes in time).
  mutating func signedIn(_ result: Result<Session, ServiceError>) -> Session? {
    guard phase.isRunning else { return nil }
    return signedUp(result)
  }

  /// The answer to a sign-up, as `signedIn`; but at rest (cancelled) an account made before
  /// the cancel came (the runner's `CommitGate` lets only that answer through) is signed in
  /// to, and a failure is dropped.
  mutating func signedUp(_ result: Result<Session, ServiceError>) -> Session? {
    switch result {
    case .success(let session):
      phase = .idle
      return session
    case .failure(let error):
      guard phase.isRunning else { return nil }
      phase = .failed(error.message)
      return nil
    }
  }
}
