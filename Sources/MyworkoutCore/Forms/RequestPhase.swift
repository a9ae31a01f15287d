/// Where a form stands with its request. One value, so the button title, the spinner and the
/// error label can never disagree.
package enum RequestPhase: Equatable, Sendable {
  /// At rest: default button title, no message.
  case idle
  /// Refused on the spot by validation: default title, the rule's message, no request made.
  case invalid(String)
  /// A request is running: the button reads `Cancel` and a spinner turns.
  case running
  /// The service said no: the button reads `Try again` and the label shows the service's message.
  case failed(String)

  package var isRunning: Bool { self == .running }

  /// The phase once the person edits: a message goes, a running request stays.
  var cleared: RequestPhase {
    switch self {
    case .invalid, .failed: .idle
    case .idle, .running: self
    }
  }

  /// The text of the error label, if any.
  package var message: String? {
    switch self {
    case .idle, .running: nil
    case .invalid(let message), .failed(let message): message
    }
  }

  /// The submit button's title for a form whose resting title is `restTitle`.
  package func buttonTitle(rest restTitle: String) -> String {
    switch self {
    case .idle, .invalid: restTitle
    case .running: "Cancel"
    case .failed: "Try again"
    }
  }
}
