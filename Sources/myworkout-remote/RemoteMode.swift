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
    wire: { url, directory in
      let server = RemoteServer(baseURL: url)
      let credentials = RemoteCredentials()
      let sessions = RemoteSessionStore(
        directory: directory, server: url, credentials: credentials)
      let progress = RemoteProgressService(server: server, credentials: credentials)
      return RemoteParts(
        account: RemoteAccountParts(
          accounts: RemoteAccountService(server: server, credentials: credentials),
          sessions: sessions, loaded: sessions.load(now: Date())),
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
