import MyworkoutCore
import MyworkoutServices
import Synchronization

/// What remote mode holds about the signed-in person: the server's tokens and the key set they
/// were verified with. Shared by the services (the Bearer token of personal calls) and the
/// session store (kept for the next launch).
package final class RemoteCredentials: Sendable {
  package struct Tokens: Sendable, Equatable {
    package var idToken: String
    package var accessToken: String?
    /// Whose tokens these are: the account id (the id_token's `sub`) and the normalized email
    /// (an outbox kept under the email before accounts had ids). Nil: not known (a test's).
    package var owner: Owner?

    package init(idToken: String, accessToken: String? = nil, owner: Owner? = nil) {
      self.idToken = idToken
      self.accessToken = accessToken
      self.owner = owner
    }
  }

  /// The person tokens were given to.
  package struct Owner: Sendable, Equatable {
    package var accountID: String
    package var email: String

    package init(accountID: String, email: String) {
      self.accountID = accountID
      self.email = Email.normalized(email)
    }

    /// Whether `account` (an outbox's: an id, or an email from before ids) is this person.
    package func owns(_ account: String) -> Bool {
      account == accountID || account == email
    }
  }

  private struct State {
    var tokens: Tokens?
    var keys: JSONWebKeySet?
    /// The tokens of a session that just ended, kept while its outbox sends what the session
    /// left (the Player's closing save at a log-out); only for that person's own changes.
    var leaving: Tokens?
  }

  private let state = Mutex(State())

  package init() {}

  package var tokens: Tokens? { state.withLock { $0.tokens } }
  package var keySet: JSONWebKeySet? { state.withLock { $0.keys } }

  /// The token personal calls send: the access token, else the id_token (every log-in gives an
  /// access token; myworkout-server refuses an id_token, so a call sent with one is answered
  /// as a session that ended).
  package var bearer: String? { state.withLock { $0.tokens.map { $0.accessToken ?? $0.idToken } } }

  /// The token to send changes of `account` with: only that person's own (issue 28: an
  /// outbox kept by one account is never sent under another's session); nil when someone else,
  /// or no one, is signed in.
  /// The tokens of a session that just ended count for their own person's changes until
  /// `forget(leaving:)`.
  package func bearer(for account: String) -> String? {
    state.withLock { state in
      for tokens in [state.tokens, state.leaving] {
        guard let tokens, tokens.owner?.owns(account) ?? false else { continue }
        return tokens.accessToken ?? tokens.idToken
      }
      return nil
    }
  }

  package func signedIn(_ tokens: Tokens, keys: JSONWebKeySet?) {
    state.withLock { state in
      state.tokens = tokens
      if let keys { state.keys = keys }
    }
  }

  package func keep(keys: JSONWebKeySet) {
    state.withLock { $0.keys = keys }
  }

  package func signedOut() {
    state.withLock { $0.tokens = nil }
  }

  /// The session is about to end (log-out, expiry): its tokens are kept aside for the outbox's
  /// last delivery of that person's changes, and returned (nil: no one was signed in).
  package func leaving() -> Tokens? {
    state.withLock { state in
      if let tokens = state.tokens { state.leaving = tokens }
      return state.tokens
    }
  }

  /// The last delivery is over: the ended session's tokens are no longer sent (unless another
  /// session ended since, whose tokens stay for its own delivery).
  package func forget(leaving tokens: Tokens) {
    state.withLock { state in
      if state.leaving == tokens { state.leaving = nil }
    }
  }
}
