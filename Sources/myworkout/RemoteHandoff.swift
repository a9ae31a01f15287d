import ArgumentParser
import MyworkoutCore
import MyworkoutImages
import MyworkoutServices
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Remote mode (SPEC §15) lives in a second binary, `myworkout-remote`, built from this same
/// code plus `MyworkoutRemote` (AsyncHTTPClient, SwiftNIO, BoringSSL). The embedded `myworkout`
/// carries none of it, so its start and memory do not pay for remote mode (SPEC §16): given
/// `--server`, `MYWORKOUT_SERVER` or `--auth0-*`, it `exec`s `myworkout-remote` from its own
/// directory with the same arguments.
package struct RemoteFactory: Sendable {
  /// Every service a client of the checked server URL; the session kept beside the data.
  /// `events` reach the screen: a one-line notice (a change the server refused, put aside) and
  /// the outbox's state. The services' own tasks and waits run on `workers`.
  package var wire:
    @Sendable (
      _ server: String, _ directory: DataDirectory, _ events: RemoteEvents,
      _ workers: WorkerThreads
    ) -> RemoteParts
  /// The account part on an Auth0 tenant (domain, client id, connection).
  package var auth0:
    @Sendable (_ domain: String, _ clientID: String, _ connection: String, DataDirectory) ->
      RemoteAccountParts
  /// `--reset` with `--server`: forgets the remote session only.
  package var forget: @Sendable (_ server: String, _ directory: DataDirectory) throws -> Void

  package init(
    wire: @escaping @Sendable (String, DataDirectory, RemoteEvents, WorkerThreads) -> RemoteParts,
    auth0: @escaping @Sendable (String, String, String, DataDirectory) -> RemoteAccountParts,
    forget: @escaping @Sendable (String, DataDirectory) throws -> Void
  ) {
    self.wire = wire
    self.auth0 = auth0
    self.forget = forget
  }

  /// Set by `myworkout-remote` before it runs the command; nil in `myworkout`.
  package static let installed = Mutex<RemoteFactory?>(nil)
}

/// The account service and the kept session of a remote launch.
/// What remote mode's services tell the screen, from any thread.
package struct RemoteEvents: Sendable {
  /// A one-line notice.
  package var notice: @Sendable (String) -> Void
  /// The outbox's state changed.
  package var sync: @Sendable (SyncStatus) -> Void

  package init(
    notice: @escaping @Sendable (String) -> Void, sync: @escaping @Sendable (SyncStatus) -> Void
  ) {
    self.notice = notice
    self.sync = sync
  }
}

package struct RemoteAccountParts: Sendable {
  package var accounts: any AccountService
  package var sessions: any SessionPersisting
  package var loaded: SessionLoad

  package init(accounts: any AccountService, sessions: any SessionPersisting, loaded: SessionLoad) {
    self.accounts = accounts
    self.sessions = sessions
    self.loaded = loaded
  }
}

/// Every service of a remote launch.
package struct RemoteParts: Sendable {
  package var account: RemoteAccountParts
  package var catalog: any CatalogService
  package var progress: any ProgressService
  package var lessons: any LessonService
  package var completions: any LessonProgressStoring
  package var images: any ImageService
  /// The token to send with a class video's URL: the session's, for the server's own
  /// `/videos/` only (never to another host the catalog names).
  package var videoBearer: @Sendable (String) -> String?

  package init(
    account: RemoteAccountParts, catalog: any CatalogService, progress: any ProgressService,
    lessons: any LessonService, completions: any LessonProgressStoring, images: any ImageService,
    videoBearer: @escaping @Sendable (String) -> String? = { _ in nil }
  ) {
    self.account = account
    self.catalog = catalog
    self.progress = progress
    self.lessons = lessons
    self.completions = completions
    self.images = images
    self.videoBearer = videoBearer
  }
}

enum RemoteHandoff {
  /// The remote factory, or (in `myworkout`) never returns: replaces this process with
  /// `myworkout-remote` beside it, same arguments and environment.
  static func factory() throws -> RemoteFactory {
    if let factory = RemoteFactory.installed.withLock({ $0 }) { return factory }
    let remote = (AssetsLocation.executableDirectory ?? ".") + "/myworkout-remote"
    let arguments = [remote] + CommandLine.arguments.dropFirst()
    let argv = arguments.map { strdup($0) } + [nil]
    execv(remote, argv)
    let reason = String(cString: strerror(errno))
    throw ValidationError(
      "Remote mode needs myworkout-remote beside myworkout (\(remote): \(reason)).")
  }
}

/// The entry point of both executables: `myworkout` (embedded; hands remote mode over) and
/// `myworkout-remote` (with remote mode's factory installed).
package enum MyworkoutEntry {
  package static func run(arguments: [String], remote: RemoteFactory? = nil) -> Never {
    if let remote { RemoteFactory.installed.withLock { $0 = remote } }
    MyworkoutCommand.start(arguments: arguments)
  }
}
