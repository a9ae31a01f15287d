import Dispatch
import MyworkoutCore
import MyworkoutServices
import MyworkoutTerminal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// Wiring: the data directory, the services, the saved session, the terminal and the loop.
@MainActor
enum App {
  static func launch(
    dataDirectory path: String, sessionLifetime: Duration, environment: [String: String]
  ) throws -> Never {
    // First, before any thread starts: the loop takes the signals for itself.
    let loop = MainLoop()
    let directory = try DataDirectory.prepare(path: path)
    let (key, keyNotice) = try SigningKey.load(in: directory, now: Date())
    let signer = TokenSigner(key: key)
    let sessions = SessionStore(directory: directory, signer: signer)
    let loaded = sessions.load(now: Date())
    let notices = NoticeRelay()
    let accounts = AccountsStore(directory: directory, onNotice: notices.raise)
    let service = MockAccountService(
      store: accounts, signer: signer, clock: ContinuousClock(), sessionLifetime: sessionLifetime)

    let terminal = try Terminal(colors: environment["NO_COLOR"] == nil, environment: environment)
    let notice = [keyNotice, loaded.notice].compactMap { $0 }.joined(separator: "; ")
    let runtime = Runtime(
      state: .launch(with: loaded.restored, notice: notice.isEmpty ? nil : notice),
      terminal: terminal, service: service, sessions: sessions, timers: DispatchTimers(),
      acceptedUntil: TokenSigner.acceptedUntil, exit: { Glibc.exit($0) })
    notices.connect { [unowned runtime] notice in runtime.dispatch(.noticeRaised(notice)) }
    runtime.run(on: loop)
  }
}
