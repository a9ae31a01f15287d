import MyworkoutCore
import MyworkoutImages
import MyworkoutRemote
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Remote mode (SPEC §15): every service a client of myworkout-server. Only here is
/// AsyncHTTPClient created, so the embedded default pays nothing for it.
enum RemoteMode {
  /// The services, the session store and the restored session for `server` (checked URL).
  static func wire(
    server url: String, directory: DataDirectory, assets: String
  ) -> (services: Services, sessions: RemoteSessionStore, loaded: SessionLoad) {
    let server = RemoteServer(baseURL: url)
    let credentials = RemoteCredentials()
    let sessions = RemoteSessionStore(directory: directory, server: url, credentials: credentials)
    let loaded = sessions.load(now: Date())
    let progress = RemoteProgressService(server: server, credentials: credentials)
    let services = Services(
      accounts: RemoteAccountService(server: server, credentials: credentials),
      catalog: RemoteCatalogService(server: server),
      lessons: LessonServices(
        course: RemoteLessonService(server: server), progress: progress, now: { Date() }),
      images: ImageServices(
        images: RemoteImageService(server: server),
        // The class thumbnails are the app's own files.
        thumbnailFolder: assets),
      progress: progress)
    return (services, sessions, loaded)
  }

  /// `--auth0-domain`: the account part on a real Auth0 tenant over HTTPS; the session kept
  /// with the tenant's JWKS like remote mode's.
  static func auth0(
    _ tenant: Auth0Tenant, directory: DataDirectory
  ) -> (accounts: any AccountService, sessions: RemoteSessionStore, loaded: SessionLoad) {
    let url = "https://" + tenant.domain
    let credentials = RemoteCredentials()
    let sessions = RemoteSessionStore(directory: directory, server: url, credentials: credentials)
    let loaded = sessions.load(now: Date())
    let accounts = Auth0AccountService(
      server: RemoteServer(baseURL: url), clientID: tenant.clientID,
      connection: tenant.connection, credentials: credentials)
    return (accounts, sessions, loaded)
  }
}

/// `--auth0-domain D --auth0-client-id ID [--auth0-connection NAME]`.
struct Auth0Tenant: Equatable {
  var domain: String
  var clientID: String
  var connection = RemoteAccountService.connection
}

extension RemoteSessionStore: SessionPersisting {}
extension RemoteProgressService: LessonProgressStoring {}
