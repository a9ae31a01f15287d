import MyworkoutServices
import Synchronization

/// What remote mode holds about the signed-in person: the server's tokens and the key set they
/// were verified with. Shared by the services (the Bearer token of personal calls) and the
/// session store (kept for the next launch).
package final class RemoteCredentials: Sendable {
  package struct Tokens: Sendable, Equatable {
    package var idToken: String
    package var accessToken: String?

    package init(idToken: String, accessToken: String? = nil) {
      self.idToken = idToken
      self.accessToken = accessToken
    }
  }

  private let state = Mutex<(tokens: Tokens?, keys: JSONWebKeySet?)>((nil, nil))

  package init() {}

  package var tokens: Tokens? { state.withLock { $0.tokens } }
  package var keySet: JSONWebKeySet? { state.withLock { $0.keys } }

  /// The token personal calls send: the access token, else the id_token.
  package var bearer: String? { state.withLock { $0.tokens.map { $0.accessToken ?? $0.idToken } } }

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
}
