import MyworkoutCore

extension SessionLoad {
  /// The restored session showing what the registry holds (embedded mode). The registry is
  /// written before `session.json`, so a kill between the two (during Edit number) leaves the
  /// session's copy of the profile behind; the registry is the truth. A session whose account
  /// the registry no longer has is ended (its file removed), as an expired one is. A small local
  /// file read, with no lock and no latency.
  package func reconciled(with accounts: AccountsStore, sessions: SessionStore) -> SessionLoad {
    guard case .valid(var session) = restored else { return self }
    switch accounts.lookUp(email: session.profile.email) {
    case .unknown:
      return self
    case .absent:
      // Best effort: if it cannot be removed, the next launch finds it again.
      try? sessions.delete()
      return SessionLoad(restored: .invalid, notice: notice)
    case .found(let profile, let id):
      session.profile = profile
      // The registry's id governs (a token made before accounts had ids names the email). A
      // registry from before ids is given them now, under its lock, once for all processes.
      if let id = id ?? (try? accounts.load())?.account(for: profile.email)?.id {
        session.accountID = id
      }
      session.gravatarHash = Gravatar.hash(email: profile.email)
      return SessionLoad(restored: .valid(session), notice: notice)
    }
  }
}
