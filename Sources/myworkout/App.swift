import Dispatch
import MyworkoutCore
import MyworkoutServices
import MyworkoutTerminal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Wiring: the data directory, the services, the saved session, the terminal and the loop.
@MainActor
enum App {
  /// The running loop; kept here so it lives as long as the process.
  private static var runtime: Runtime?

  static func launch(
    dataDirectory path: String, sessionLifetime: Duration, environment: [String: String]
  ) throws -> Never {
    // First, before any thread starts: the loop takes the signals for itself.
    let loop = MainLoop()
    // Then refuse an unusable terminal before anything is created.
    _ = try Terminal.check(environment: environment)
    let directory = try DataDirectory.prepare(path: path)
    CrashGuard.install(reportDirectory: directory.path)
    let (key, keyNotice) = try SigningKey.load(in: directory, now: Date())
    let signer = TokenSigner(key: key)
    let sessions = SessionStore(directory: directory, signer: signer)
    let accounts = AccountsStore(
      directory: directory,
      onNotice: { notice in
        DispatchQueue.main.async {
          MainActor.assumeIsolated { Self.runtime?.dispatch(.noticeRaised(notice)) }
        }
      })
    let loaded = sessions.load(now: Date()).reconciled(with: accounts, sessions: sessions)
    let service = MockAccountService(
      store: accounts, signer: signer, clock: ContinuousClock(), sessionLifetime: sessionLifetime)

    let terminal = try Terminal(colors: environment["NO_COLOR"] == nil, environment: environment)
    let notice = [keyNotice, loaded.notice].compactMap { $0 }.joined(separator: "; ")
    let runtime = Runtime(
      state: .launch(with: loaded.restored, notice: notice.isEmpty ? nil : notice),
      terminal: terminal, service: service, sessions: sessions,
      acceptedUntil: TokenSigner.acceptedUntil)
    self.runtime = runtime
    runtime.run(on: loop)
  }
}
