/// Remote mode's outbox as the screen tells it (SPEC §18): how many of an account's changes
/// (progress saves, lesson completions) have not reached the server yet, and whether the last
/// try to send them failed. Reported by the outbox whenever either changes.
package struct SyncStatus: Equatable, Sendable {
  /// Whose outbox this is (the session's account id).
  package var account: String
  /// Changes written here and not yet applied by the server.
  package var waiting: Int
  /// The last try to send failed (no connection, no answer, a 5xx, an expired session): the
  /// outbox waits and tries again later.
  package var offline: Bool
  /// Changes put aside (refused by the server, or unreadable by this build): kept, counted,
  /// and sent again at the account's next log-in.
  package var aside: Int
  /// The server refused the session's token on a change (401): the person logs in again, and
  /// the changes wait for it.
  package var sessionRefused: Bool

  package init(
    account: String, waiting: Int, offline: Bool, aside: Int = 0, sessionRefused: Bool = false
  ) {
    self.account = account
    self.waiting = max(0, waiting)
    self.offline = offline
    self.aside = max(0, aside)
    self.sessionRefused = sessionRefused
  }

  /// Every change of the account the server does not have: waiting and put aside.
  package var unsent: Int { waiting + aside }

  /// The header's words for this state, or nil when it is plain (everything sent).
  package var headerText: String? {
    guard waiting > 0 else {
      return aside > 0 ? "\(Self.changes(aside)) put aside" : nil
    }
    return offline ? "offline — \(Self.changes(unsent)) waiting" : "syncing…"
  }

  /// `1 change`, `3 changes`.
  static func changes(_ count: Int) -> String {
    count == 1 ? "1 change" : "\(count) changes"
  }
}

/// Logging out with changes the server does not have yet asks first (SPEC §18). Either answer
/// keeps the changes: they stay in that account's outbox and go at its next log-in.
package struct LogOutConfirmation: Equatable, Sendable {
  package enum Button: Equatable, Sendable { case logOut, stay }

  /// How many changes were waiting when it asked.
  package var waiting: Int
  /// The focused button; the one that loses nothing first.
  package var focus = Button.stay

  package init(waiting: Int) {
    self.waiting = waiting
  }

  /// `3 changes have not reached the server yet. Log out anyway?`
  package var question: String {
    let verb = waiting == 1 ? "has" : "have"
    return "\(SyncStatus.changes(waiting)) \(verb) not reached the server yet. Log out anyway?"
  }

  package static let logOutTitle = "Log out"
  package static let stayTitle = "Stay logged in"
}

/// What the person does with the question.
package enum LogOutConfirmationAction: Equatable, Sendable {
  /// Tab, ←/→: the other button.
  case focusMoved
  /// Enter on the focused button, or a click on one.
  case pressed(LogOutConfirmation.Button)
}
