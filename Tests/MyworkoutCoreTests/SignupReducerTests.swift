import Testing

@testable import MyworkoutCore

@Suite struct SignupReducerTests {
  let signup: (FormAction) -> Action = { .signup(.form($0)) }

  /// The account `filled()` describes.
  let registration = Registration(
    password: "secret!!",
    profile: Profile(
      email: "new@email.com", gender: .female, mobile: "+60123456789", firstName: "Zoë",
      lastName: "中文"))

  /// Signup opened for `New@Email.com`, every field filled in with Enter moving down the form;
  /// the focus is on the last field.
  func filled() -> TestStore {
    var store = TestStore(.showing(.signup(SignupForm(email: "New@Email.com"))))
    store.type("secret!!", as: signup) {
      $0.signup.password = typed("secret!!", limit: FieldLimit.password)
    }
    store.send(signup(.enterPressed)) { $0.signup.focus = .gender }
    store.send(signup(.pickerStepped(.forward))) { $0.signup.gender = .female }
    store.send(signup(.enterPressed)) { $0.signup.focus = .mobile }
    store.type("012-345 6789", as: signup) {
      $0.signup.mobile = typed("012-345 6789", limit: FieldLimit.mobile)
    }
    store.send(signup(.enterPressed)) { $0.signup.focus = .firstName }
    store.type("Zoë", as: signup) { $0.signup.firstName = typed("Zoë", limit: FieldLimit.name) }
    store.send(signup(.enterPressed)) { $0.signup.focus = .lastName }
    store.type("中文", as: signup) { $0.signup.lastName = typed("中文", limit: FieldLimit.name) }
    return store
  }

  /// The filled form submitted: the request runs.
  func signingUp() -> TestStore {
    var store = filled()
    store.send(signup(.enterPressed), effects: [.run(.signUp, .signUp(registration))]) {
      $0.signup.phase = .running
      $0.signup.focus = .signUp
    }
    return store
  }

  @Test func fullFormSignsUpFromTheLastField() {
    let store = signingUp()
    #expect(store.state.signup.phase.buttonTitle(rest: "Sign up") == "Cancel")
    #expect(store.state.running == [.signUp])
  }

  @Test func successOpensProfileAndSavesTheSession() {
    var store = signingUp()
    store.send(
      .signup(.signUpResponse(.success(Sample.newcomer))), effects: [.saveSession(Sample.newcomer)]
    ) {
      $0.root = .signedIn(SignedIn(session: Sample.newcomer))
    }
    #expect(store.state.screen == .profile(ProfileState(), Sample.newcomer))
    #expect(!store.state.isBusy)
  }

  @Test func existingEmailShowsTheServiceMessage() {
    var store = signingUp()
    store.send(.signup(.signUpResponse(.failure(.emailExists)))) {
      $0.signup.phase = .failed(Message.emailExists)
    }
    #expect(store.state.signup.phase.message == "Email already exists")
    #expect(store.state.signup.phase.buttonTitle(rest: "Sign up") == "Try again")
    store.send(signup(.enterPressed), effects: [.run(.signUp, .signUp(registration))]) {
      $0.signup.phase = .running
    }
  }

  @Test func pickerStepsBothWaysFromNoChoice() {
    #expect(SignupReducer.step(nil, .forward) == .female)
    #expect(SignupReducer.step(nil, .backward) == .preferNotToSay)
    #expect(SignupReducer.step(.female, .forward) == .male)
    #expect(SignupReducer.step(.male, .forward) == .nonBinary)
    #expect(SignupReducer.step(.nonBinary, .forward) == .preferNotToSay)
    #expect(SignupReducer.step(.preferNotToSay, .forward) == .female)
    #expect(SignupReducer.step(.female, .backward) == .preferNotToSay)
  }

  @Test func pickerOnlyStepsWhenFocused() {
    var store = TestStore(.showing(.signup(SignupForm(email: "a@b.co"))))
    #expect(store.state.signup.focus == .password)
    store.send(signup(.pickerStepped(.forward)))
  }

  @Test func pickerDoesNotStepWhileRunning() {
    var form = SignupForm(email: "new@email.com")
    form.gender = .male
    form.focus = .gender
    form.phase = .running
    var store = TestStore(.showing(.signup(form)))
    store.send(signup(.pickerStepped(.forward)))
  }

  @Test func emptyFormIsRefusedAtTheEmail() {
    var store = TestStore(.showing(.signup(SignupForm(email: ""))))
    #expect(store.state.signup.focus == .email)
    store.send(signup(.focusMoved(.backward))) { $0.signup.focus = .cancel }
    store.send(signup(.focusMoved(.backward))) { $0.signup.focus = .signUp }
    store.send(signup(.enterPressed)) {
      $0.signup.phase = .invalid(Message.completeTheForm)
      $0.signup.focus = .email
    }
  }

  /// Signup with these values and the focus on `Sign up`: Enter is refused with the message and
  /// the focus goes to the field at fault, with no request.
  func expectRefused(
    email: String = "new@email.com", password: String = "secret!!", gender: Gender? = .male,
    mobile: String = "012-345 6789", _ message: String, at field: SignupForm.Focus,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var form = SignupForm(email: email)
    form.password = TextInput(password, limit: FieldLimit.password)
    form.gender = gender
    form.mobile = TextInput(mobile, limit: FieldLimit.mobile)
    form.focus = .signUp
    var store = TestStore(.showing(.signup(form)))
    store.send(signup(.enterPressed), sourceLocation: sourceLocation) {
      $0.signup.phase = .invalid(message)
      $0.signup.focus = field
    }
  }

  @Test func eachRuleRefusesAtItsFieldInScreenOrder() {
    expectRefused(
      email: " ", password: "", gender: nil, mobile: "", Message.completeTheForm, at: .email)
    expectRefused(email: "new@", password: "", Message.emailNotValid, at: .email)
    expectRefused(password: "", gender: nil, Message.completeTheForm, at: .password)
    expectRefused(password: "short!", gender: nil, Message.weakPassword, at: .password)
    expectRefused(password: "longenough", Message.weakPassword, at: .password)
    expectRefused(gender: nil, mobile: "", Message.selectGender, at: .gender)
    expectRefused(mobile: "  ", Message.completeTheForm, at: .mobile)
    expectRefused(mobile: "12345", Message.mobileNotValid, at: .mobile)
  }

  @Test func namesAreOptional() {
    var form = SignupForm(email: "new@email.com")
    form.password = TextInput("secret!!", limit: FieldLimit.password)
    form.gender = .nonBinary
    form.mobile = TextInput("+60 11-1234 5678", limit: FieldLimit.mobile)
    form.focus = .signUp
    var store = TestStore(.showing(.signup(form)))
    let expected = Registration(
      password: "secret!!",
      profile: Profile(
        email: "new@email.com", gender: .nonBinary, mobile: "+601112345678", firstName: "",
        lastName: ""))
    store.send(signup(.enterPressed), effects: [.run(.signUp, .signUp(expected))]) {
      $0.signup.phase = .running
    }
  }

  /// A spec walk-through: the optional names show their state as the other fields do (SPEC
  /// §4): neutral while empty, valid (blue, ✓) once a name is typed; emptied again (or only
  /// spaces), neutral again. Any name is a valid one, so they are never red.
  @Test func theOptionalNamesShowValidOnceTyped() {
    let store = filled()
    #expect(store.state.signup.validity(of: .firstName) == .valid)
    #expect(store.state.signup.validity(of: .lastName) == .valid)

    var form = SignupForm(email: "new@email.com")
    #expect(form.validity(of: .firstName) == .neutral)
    #expect(form.validity(of: .lastName) == .neutral)
    form.firstName.insert("Ada")
    #expect(form.validity(of: .firstName) == .valid)
    form.firstName.deleteBackward()
    form.firstName.deleteBackward()
    form.firstName.deleteBackward()
    #expect(form.firstName.isTouched)
    #expect(form.validity(of: .firstName) == .neutral)
    form.lastName.insert("  ")
    #expect(form.validity(of: .lastName) == .neutral)
  }

  @Test func anUntouchedGenderPickerTurnsRedWhenRefusedForIt() {
    var store = TestStore(.showing(.signup(SignupForm(email: "new@email.com"))))
    store.type("secret!!", as: signup) {
      $0.signup.password = typed("secret!!", limit: FieldLimit.password)
    }
    store.send(signup(.focusMoved(.backward))) { $0.signup.focus = .email }
    store.send(signup(.focusMoved(.backward))) { $0.signup.focus = .cancel }
    store.send(signup(.focusMoved(.backward))) { $0.signup.focus = .signUp }
    #expect(store.state.signup.validity(of: .gender) == .neutral)
    store.send(signup(.enterPressed)) {
      $0.signup.phase = .invalid(Message.selectGender)
      $0.signup.focus = .gender
    }
    #expect(store.state.signup.phase.message == "Please select a gender")
    #expect(store.state.signup.validity(of: .gender) == .invalid)
    // Choosing one clears the message and the colour turns valid.
    store.send(signup(.pickerStepped(.backward))) {
      $0.signup.gender = .preferNotToSay
      $0.signup.phase = .idle
    }
    #expect(store.state.signup.validity(of: .gender) == .valid)
  }

  @Test func cancelButtonAndEscReturnToGetStartedWithTheEmail() {
    let back = SignedOut(getStarted: GetStartedForm(email: "x@y.io"))

    var byButton = TestStore(.showing(.signup(SignupForm(email: "x@y.io"))))
    byButton.send(signup(.focusMoved(.backward))) { $0.signup.focus = .email }
    byButton.send(signup(.focusMoved(.backward))) { $0.signup.focus = .cancel }
    byButton.send(signup(.enterPressed)) { $0.signedOut = back }

    var byEsc = TestStore(.showing(.signup(SignupForm(email: "x@y.io"))))
    byEsc.send(signup(.escapePressed)) { $0.signedOut = back }
  }

  @Test(arguments: [FormAction.enterPressed, .escapePressed])
  func cancelDuringTheRequestStopsItAndStays(cancel: FormAction) {
    var store = signingUp()
    store.send(signup(cancel), effects: [.cancel(.signUp)]) { $0.signup.phase = .idle }
    #expect(store.state.signup.phase.buttonTitle(rest: "Sign up") == "Sign up")
    // A failure for the cancelled request changes nothing.
    store.send(.signup(.signUpResponse(.failure(.emailExists))))
  }

  /// The only answer that reaches a cancelled sign-up is one whose account was made before the
  /// cancel came (the runner's `CommitGate`): it is signed in to (a walk-through's cancelled
  /// sign-up made the account, and the form then said `Email already exists`).
  @Test func anAccountMadeBeforeItsCancelCameIsSignedIn() {
    var store = signingUp()
    store.send(signup(.escapePressed), effects: [.cancel(.signUp)]) { $0.signup.phase = .idle }
    store.send(
      .signup(.signUpResponse(.success(Sample.newcomer))),
      effects: [.saveSession(Sample.newcomer)]
    ) {
      $0.root = .signedIn(SignedIn(session: Sample.newcomer))
    }
  }

  @Test func revealToggles() {
    var store = TestStore(.showing(.signup(SignupForm(email: "a@b.co"))))
    store.send(signup(.revealToggled)) { $0.signup.revealsPassword = true }
    store.send(signup(.revealToggled)) { $0.signup.revealsPassword = false }
  }
}
