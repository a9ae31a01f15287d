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
    wire: { url, directory, events, workers in
      let server = RemoteServer(baseURL: url)
      let credentials = RemoteCredentials()
      let sessions = RemoteSessionStore(
        directory: directory, server: url, credentials: credentials)
      // What was fetched stays usable offline; progress and completions go through the
      // outbox (SPEC §18).
      let cache = RemoteCache(directory: directory, server: url)
      let progress = OutboxProgressService(
        remote: RemoteProgressService(server: server, credentials: credentials),
        directory: directory, server: url, clock: WorkerClock(workers: workers),
        onNotice: events.notice, onStatus: events.sync, executor: workers)
      let loaded = sessions.load(now: Date())
      if case .valid(let session) = loaded.restored {
        // At launch: what the last run left waiting goes now.
        Task(executorPreference: workers) {
          await progress.resume(account: session.accountID, email: session.profile.email)
        }
      }
      return RemoteParts(
        account: RemoteAccountParts(
          accounts: RemoteAccountService(server: server, credentials: credentials),
          sessions: OutboxResuming(
            sessions: sessions, credentials: credentials, progress: progress, workers: workers),
          loaded: loaded),
        catalog: RemoteCatalogService(server: server, cache: cache, onNotice: events.notice),
        progress: progress,
        lessons: RemoteLessonService(server: server, cache: cache, onNotice: events.notice),
        completions: progress,
        images: RemoteImageService(server: server),
        videoBearer: { video in
          RemoteServer.isOwnVideo(video, server: url) ? credentials.bearer : nil
        })
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

/// The session store, and at every log-in (a session saved) the account's outbox starts
/// sending what it kept: changes left by an expired session, or by an earlier launch.
struct OutboxResuming<C: Clock>: SessionPersisting where C.Duration == Duration {
  let sessions: RemoteSessionStore
  let credentials: RemoteCredentials
  let progress: OutboxProgressService<C>
  let workers: WorkerThreads

  func isSessionKept(_ session: Session) -> Bool { sessions.isSessionKept(session) }

  func renew(_ session: Session) throws { try sessions.renew(session) }

  func save(_ session: Session) throws {
    try sessions.save(session)
    let progress = progress
    Task(executorPreference: workers) {
      await progress.resume(account: session.accountID, email: session.profile.email)
    }
  }

  /// Log-out and expiry: the session is forgotten. Its person's changes (the Player's closing
  /// save among them) go now under that person's token, for at most 10 s; what cannot go
  /// stays in the outbox for their next log-in, and the other outboxes stop sending.
  func end(_ session: Session) throws {
    let leaving = credentials.leaving()
    let progress = progress
    defer {
      Task(executorPreference: workers) {
        await progress.loggedOut(leaving, within: .seconds(10))
      }
    }
    try sessions.end(session)
  }
}
extension RemoteProgressService: LessonProgressStoring {}
extension OutboxProgressService: LessonProgressStoring {}
