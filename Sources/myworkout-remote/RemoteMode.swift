import MyworkoutCore
import MyworkoutRemote
import MyworkoutServices
import myworkout

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Remote mode's wiring: every service a client of myworkout-server (AsyncHTTPClient, created
/// here only), or the account part on an Auth0 tenant over HTTPS.
enum RemoteMode {
  static let factory = RemoteFactory(
    wire: { url, directory, onNotice in
      let server = RemoteServer(baseURL: url)
      let credentials = RemoteCredentials()
      let sessions = RemoteSessionStore(
        directory: directory, server: url, credentials: credentials)
      // Progress and completions go through the outbox (SPEC §18).
      let progress = OutboxProgressService(
        remote: RemoteProgressService(server: server, credentials: credentials),
        directory: directory, server: url, clock: ContinuousClock(), onNotice: onNotice)
      let loaded = sessions.load(now: Date())
      if case .valid(let session) = loaded.restored {
        // At launch: what the last run left waiting goes now.
        Task { await progress.resume(account: session.accountID) }
      }
      return RemoteParts(
        account: RemoteAccountParts(
          accounts: RemoteAccountService(server: server, credentials: credentials),
          sessions: sessions, loaded: loaded),
        catalog: RemoteCatalogService(server: server), progress: progress,
        lessons: RemoteLessonService(server: server), completions: progress,
        images: RemoteImageService(server: server))
    },
    auth0: { domain, clientID, connection, directory in
      let url = "https://" + domain
      let credentials = RemoteCredentials()
      let sessions = RemoteSessionStore(
        directory: directory, server: url, credentials: credentials)
      return RemoteAccountParts(
        accounts: Auth0AccountService(
          server: RemoteServer(baseURL: url), clientID: clientID, connection: connection,
          credentials: credentials),
        sessions: sessions, loaded: sessions.load(now: Date()))
    },
    forget: { url, directory in
      try RemoteSessionStore(directory: directory, server: url, credentials: RemoteCredentials())
        .delete()
    })
}

extension RemoteSessionStore: SessionPersisting {}
extension RemoteProgressService: LessonProgressStoring {}
extension OutboxProgressService: LessonProgressStoring {}
