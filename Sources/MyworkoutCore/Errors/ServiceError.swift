/// What went wrong with a service call, as cases. Services say what happened; the words a
/// person reads are chosen here, in one place (`message`), whatever service answered.
package enum ServiceError: Error, Equatable, Sendable {
  /// Login with an email the registry does not know.
  case noAccount
  case wrongCredentials
  case emailExists
  /// The session's token has expired (or was refused as invalid).
  case sessionExpired
  case invalidMobile
  /// A personal request was refused (remote mode: 401 on an authenticated endpoint).
  case unauthorized
  /// Too many attempts (remote mode: 429).
  case rateLimited
  /// The server could not be reached.
  case network
  /// The server did not answer in time.
  case timedOut
  /// The server answered with an unexpected status (5xx and the like).
  case server(status: Int)
  /// The data directory vanished while the app ran; the next request recreates it.
  case dataFolderGone(path: String)
  /// A local file could not be read or written; the detail says which and why.
  case storage(String)

  /// The one line shown in a form's error label.
  package var message: String {
    switch self {
    case .noAccount: Message.noAccount
    case .wrongCredentials: Message.wrongCredentials
    case .emailExists: Message.emailExists
    case .sessionExpired, .unauthorized: Message.sessionExpired
    case .invalidMobile: Message.mobileNotValid
    case .rateLimited: Message.rateLimited
    case .network: Message.noConnection
    case .timedOut: Message.timedOut
    case .server: Message.serverProblem
    case .dataFolderGone(let path): "The data folder \(path) is gone; it will be recreated"
    case .storage(let detail): detail
    }
  }
}
