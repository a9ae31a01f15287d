import Testing

extension TerminalSession {
  /// On Get started: types the email, presses Enter (Next), and waits for the screen it leads
  /// to; returns that screen.
  @discardableResult
  func submitEmail(
    _ email: String, expecting heading: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    try type(email)
    try press("Enter")
    return try waitFor(heading, sourceLocation: sourceLocation)
  }

  /// On Login with the focus on the password: types it, presses Enter (Log in), and waits for
  /// Profile; returns that screen.
  @discardableResult
  func logIn(password: String = "password", sourceLocation: SourceLocation = #_sourceLocation)
    throws -> String
  {
    try type(password)
    try press("Enter")
    return try waitFor("Log out", sourceLocation: sourceLocation)
  }
}
