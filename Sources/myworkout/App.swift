import Dispatch
import MyworkoutCore
import MyworkoutImages
import MyworkoutServices
import MyworkoutTerminal
import MyworkoutWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// What the command line chose for a launch.
struct LaunchOptions {
  var dataDirectory: String
  var sessionLifetime: Duration
  /// The embedded mock's latency (SPEC §16).
  var latency: Duration = Self.defaultLatency
  static let defaultLatency: Duration = .seconds(1)
  /// `--catalog FILE`, else the shipped `Assets/classes.csv`.
  var catalog: String?
  /// `--assets DIR`, else found beside the binary or in the source tree.
  var assets: String?
  /// `--lessons FILE`, else the shipped `Assets/lessons.json`.
  var lessons: String?
  /// Mouse reporting (off with `--no-mouse`, so the terminal's own text selection works).
  var mouse = true
  /// `--images-dir DIR`, else the shipped `Assets/images/`.
  var imagesDirectory: String?
  /// `--server URL` or `MYWORKOUT_SERVER` (checked): remote mode (SPEC §15).
  var server: String?
  /// `--speed N`: the Player's starting speed.
  var speed = PlaybackSpeed.normal
  /// `--auth0-domain` and friends: the account part on a real Auth0 tenant.
  var auth0: Auth0Tenant?
  /// `--mute`: videos play without sound, on the wall clock.
  var mute = false
}

/// `--auth0-domain D --auth0-client-id ID [--auth0-connection NAME]`.
struct Auth0Tenant: Equatable {
  var domain: String
  var clientID: String
  var connection = "Username-Password-Authentication"
}

/// Wiring: the data directory, the services, the saved session, the terminal and the loop.
@MainActor
enum App {
  static func launch(_ options: LaunchOptions, environment: [String: String]) throws -> Never {
    // First, before any thread starts: the loop takes the signals for itself.
    let loop = MainLoop()
    // Then refuse an unusable terminal before anything is created.
    _ = try Terminal.check(environment: environment)
    let directory = try DataDirectory.prepare(path: options.dataDirectory)
    CrashGuard.install(reportDirectory: directory.path)
    if let server = options.server {
      try launchRemote(
        options, server: server, directory: directory, environment: environment, loop: loop)
    }
    // Read only: the key is made when the first session is signed (a first launch writes nothing).
    let keys = try SigningKeyFile.open(in: directory, now: Date())
    let sessions = SessionStore(directory: directory, keys: keys)
    let notices = NoticeRelay()
    // The services' work and their latency run on threads of the app's own, none on Dispatch's
    // pool (whose monitor would wake the app every second from the first search on).
    let workers = WorkerThreads()
    // Image decodes have threads of their own: a run of large pictures never holds up a login,
    // a search or the Player's progress.
    let drawing = WorkerThreads(name: "myworkout-draw")
    let clock = WorkerClock(workers: workers)
    let accounts = AccountsStore(directory: directory, onNotice: notices.raise)
    var loaded = sessions.load(now: Date()).reconciled(with: accounts, sessions: sessions)
    let assets = AssetsLocation.find(override: options.assets) ?? "Assets"
    let catalog = CatalogStore(
      directory: directory,
      source: CatalogSource(file: options.catalog, shipped: assets + "/classes.csv"),
      onNotice: notices.raise)
    let progress = ProgressStore(
      directory: directory, onNotice: notices.raise,
      accountIDs: { try accounts.load().idsByEmail })
    var services = Services(
      accounts: MockAccountService(
        store: accounts, keys: keys, clock: clock, sessionLifetime: options.sessionLifetime,
        latency: options.latency),
      catalog: EmbeddedCatalogService(store: catalog, clock: clock, latency: options.latency),
      lessons: LessonServices(
        course: EmbeddedLessonService(
          file: options.lessons ?? assets + "/lessons.json", clock: clock,
          latency: options.latency),
        progress: progress, now: { Date() }),
      images: ImageServices(
        images: DirectoryImageService(
          directory: options.imagesDirectory ?? assets + "/images", clock: clock,
          latency: options.latency),
        thumbnailFolder: ImageServices.folder(of: options.catalog ?? assets + "/classes.csv"),
        workers: drawing),
      progress: progress)

    var persisting: any SessionPersisting = sessions
    var acceptedUntil: (String) -> Date? = TokenSigner.acceptedUntil
    if let tenant = options.auth0 {
      let auth0 = try RemoteHandoff.factory().auth0(
        tenant.domain, tenant.clientID, tenant.connection, directory)
      services.accounts = auth0.accounts
      persisting = auth0.sessions
      loaded = auth0.loaded
      acceptedUntil = RS256Verifier.acceptedUntil
    }

    let terminal = try Terminal(
      colors: !Display.noColor(in: environment), mouse: options.mouse, environment: environment)
    let notice = [keys.notice, loaded.notice].compactMap { $0 }.joined(separator: "; ")
    var state = AppState.launch(with: loaded.restored, notice: notice.isEmpty ? nil : notice)
    state.startSpeed = options.speed
    if options.auth0 != nil { state.editNumberUnavailable(because: Message.editNumberNeedsServer) }
    state.display.colors = Display.colors(
      count: terminal.colorCount, noColor: Display.noColor(in: environment))
    let video = VideoHost(
      executable: VideoHost.besideExecutable(), muted: options.mute,
      locate: VideoSources(
        catalogFolder: ImageServices.folder(of: options.catalog ?? assets + "/classes.csv"),
        assets: assets, bearer: nil
      ).locate)
    let runtime = Runtime(
      state: state,
      terminal: terminal, services: services, sessions: persisting,
      timers: LoopTimers(loop: loop), acceptedUntil: acceptedUntil, now: { Date() },
      exit: { loop.end(status: $0) }, video: video, executor: workers)
    video.connect(runtime.videoWiring(loop: loop))
    notices.connect { [unowned runtime] notice in runtime.dispatch(.noticeRaised(notice)) }
    runtime.run(on: loop)
  }

  /// Remote mode: the same screens over myworkout-server's API.
  private static func launchRemote(
    _ options: LaunchOptions, server: String, directory: DataDirectory,
    environment: [String: String], loop: MainLoop
  ) throws -> Never {
    let assets = AssetsLocation.find(override: options.assets) ?? "Assets"
    let notices = NoticeRelay()
    let sync = SyncRelay()
    // As in local mode: nothing on Dispatch's pool (the HTTP client's own threads are NIO's).
    let workers = WorkerThreads()
    let remote = try RemoteHandoff.factory().wire(
      server, directory, RemoteEvents(notice: notices.raise, sync: sync.report), workers)
    let services = Services(
      accounts: remote.account.accounts, catalog: remote.catalog,
      lessons: LessonServices(
        course: remote.lessons, progress: remote.completions, now: { Date() }),
      // The class thumbnails are the app's own files.
      images: ImageServices(
        images: remote.images, thumbnailFolder: assets,
        workers: WorkerThreads(name: "myworkout-draw")),
      progress: remote.progress)
    let terminal = try Terminal(
      colors: !Display.noColor(in: environment), mouse: options.mouse, environment: environment)
    let loaded = remote.account.loaded
    var state = AppState.launch(with: loaded.restored, notice: loaded.notice)
    state.startSpeed = options.speed
    state.display.colors = Display.colors(
      count: terminal.colorCount, noColor: Display.noColor(in: environment))
    let video = VideoHost(
      executable: VideoHost.besideExecutable(), muted: options.mute,
      locate: VideoSources(
        catalogFolder: assets, assets: assets, bearer: remote.videoBearer, remote: true
      ).locate)
    let runtime = Runtime(
      state: state, terminal: terminal, services: services, sessions: remote.account.sessions,
      timers: LoopTimers(loop: loop), acceptedUntil: RS256Verifier.acceptedUntil,
      now: { Date() },
      exit: { loop.end(status: $0) }, video: video, executor: workers)
    video.connect(runtime.videoWiring(loop: loop))
    notices.connect { [unowned runtime] notice in runtime.dispatch(.noticeRaised(notice)) }
    sync.connect { [unowned runtime] status in runtime.dispatch(.syncChanged(status)) }
    runtime.run(on: loop)
  }
}

/// Where a class's `videoUrl` is (SPEC §19): an `http(s)://` URL as it is, a `file://` URL's
/// path, an absolute path, else a path relative to the catalog file's folder, then to the
/// app's `Assets/videos/`.
struct VideoSources {
  var catalogFolder: String
  var assets: String
  /// The session's token, for the server's own video URLs (remote mode).
  var bearer: (@Sendable (String) -> String?)?
  /// Remote mode: the catalog is the server's, and only what it can send plays (a `file://`
  /// URL or a path in its catalog would open a file on this machine's disk).
  var remote = false

  /// The source to open, or nil when the URL names nothing this mode plays.
  func locate(_ videoURL: String) -> VideoHost.MediaSource? {
    if DanceClass.isWebAddress(videoURL) {
      return VideoHost.MediaSource(
        source: videoURL, header: bearer?(videoURL).map { "Authorization: Bearer \($0)" })
    }
    if remote { return nil }
    if let path = Self.filePath(videoURL) {
      return VideoHost.MediaSource(source: path, header: nil)
    }
    if videoURL.hasPrefix("/") { return VideoHost.MediaSource(source: videoURL, header: nil) }
    let beside = catalogFolder + "/" + videoURL
    if access(beside, R_OK) == 0 { return VideoHost.MediaSource(source: beside, header: nil) }
    return VideoHost.MediaSource(source: assets + "/videos/" + videoURL, header: nil)
  }

  /// The path a `file:` URL names, as RFC 8089 writes one: `file:///p`, `file://localhost/p`
  /// or `file:/p`, percent-decoded escape by escape (a `%` that starts no escape is the name's
  /// own, and `%00` stays as it is: a NUL would end the path early where C reads it). Another
  /// machine's (`file://host/p`) stays as it is, and says it is not found. Nil for anything
  /// else.
  static func filePath(_ url: String) -> String? {
    guard url.lowercased().hasPrefix("file:") else { return nil }
    var path = url.dropFirst(5)
    if path.hasPrefix("//") {
      path = path.dropFirst(2)
      let host = path.prefix { $0 != "/" }
      guard host.isEmpty || host.lowercased() == "localhost" else { return url }
      path = path.dropFirst(host.count)
    }
    return Percent.decodeEach(path, except: 0)
  }

}
