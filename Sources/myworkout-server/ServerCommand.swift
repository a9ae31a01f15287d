import ArgumentParser
import CMalloc
import Logging
import MyworkoutCore
import MyworkoutServer

#if canImport(Glibc)
  import Glibc
#endif

/// `myworkout-server`: the backend of SPEC §15.
@main
struct ServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "myworkout-server",
    abstract:
      "The Myworkout GO backend: Auth0-shaped accounts, classes, progress, lessons, images.",
    discussion: """
      Prints its base URL on its first line, then serves until interrupted. Data (SQLite) lives \
      in --data-dir, else $XDG_DATA_HOME/myworkout-server, else ~/.local/share/myworkout-server. \
      It starts with the account registered@email.com (password: password). With --database \
      (or MYWORKOUT_DATABASE_URL) everything lives in that PostgreSQL database instead, shared by \
      every instance given the same URL (the password may also come from PGPASSWORD).
      """,
    version: "myworkout-server 1.0.0")

  @Option(help: "The address to listen on.") var host = "127.0.0.1"
  @Option(help: "The port to listen on; 0 picks a free one.") var port = 8080
  @Option(
    name: .customLong("data-dir"), help: ArgumentHelp("Keep data in PATH.", valueName: "PATH"))
  var dataDirectory: String?
  @Option(help: ArgumentHelp("Serve the classes in FILE (the brief's CSV).", valueName: "FILE"))
  var catalog: String?
  @Option(help: ArgumentHelp("Serve the lessons in FILE (Mimo's JSON).", valueName: "FILE"))
  var lessons: String?
  @Option(
    name: .customLong("images-dir"),
    help: ArgumentHelp("Serve the PNG and JPEG files of DIR.", valueName: "DIR"))
  var imagesDirectory: String?
  @Option(
    name: .customLong("videos-dir"),
    help: ArgumentHelp(
      "Serve the class videos of DIR at /videos/<file> (default: the shipped ones).",
      valueName: "DIR"))
  var videosDirectory: String?
  @Option(
    name: .customLong("videos-accel"),
    help: ArgumentHelp(
      "Behind nginx: authorise video requests and let nginx send the file from its internal"
        + " location PREFIX (X-Accel-Redirect).", valueName: "PREFIX"))
  var videosAccel: String?
  @Option(
    help: ArgumentHelp(
      "The tokens' iss (default: the base URL with a trailing slash).", valueName: "URL"))
  var issuer: String?
  @Option(
    name: .customLong("token-lifetime"),
    // `-5s` is the value, refused as a duration, not taken for an option.
    parsing: .unconditional,
    help: ArgumentHelp(
      "How long tokens stay valid, e.g. 30m, 1.5h, 1d (default: 1d; at least 1s).",
      valueName: "DURATION"))
  var tokenLifetime = "1d"
  @Option(
    name: .customLong("login-limit"), help: "Login attempts a minute, per email and per address.")
  var loginLimit = 10
  @Option(
    help: ArgumentHelp(
      "Keep everything in PostgreSQL, shared by several instances (else $MYWORKOUT_DATABASE_URL).",
      valueName: "postgres://USER[:PASSWORD]@HOST:PORT/DB"))
  var database: String?
  @Flag(
    name: .customLong("behind-proxy"),
    help: "Count login attempts per X-Real-IP (set by the load balancer in front), not per peer.")
  var behindProxy = false
  @Flag(help: "Answer a third of /authenticate calls 401 and a third 500, at random.")
  var chaos = false
  @Option(
    name: .customLong("chaos-seed"), help: "Seed for --chaos (the same seed, the same answers).")
  var chaosSeed: UInt64?

  func validate() throws {
    guard Self.lifetime(tokenLifetime) != nil else {
      throw ValidationError(
        "'\(tokenLifetime)' is not a duration from 1s to \(DurationText.longest); use a number "
          + "with ms, s, m, h or d, like 1d or 1.5h.")
    }
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535.") }
    guard loginLimit > 0 else { throw ValidationError("--login-limit must be 1 or more.") }
    if chaosSeed != nil, !chaos { throw ValidationError("--chaos-seed needs --chaos.") }
    if dataDirectory?.isEmpty == true { throw ValidationError("--data-dir needs a path.") }
    if let videosAccel, !(videosAccel.hasPrefix("/") && videosAccel.hasSuffix("/")) {
      throw ValidationError("--videos-accel needs a location that starts and ends with /.")
    }
  }

  func run() async throws {
    Self.raiseDescriptorLimit()
    Self.giveBackLargeBuffers()
    var options = ServerOptions(dataDirectory: dataDirectory ?? Self.defaultDataDirectory)
    options.host = host
    options.port = port
    options.catalog = catalog
    options.lessons = lessons
    options.imagesDirectory = imagesDirectory
    options.videosDirectory = videosDirectory
    options.videosAccel = videosAccel
    options.assets = Self.assets
    options.issuer = issuer
    options.tokenLifetime = Self.lifetime(tokenLifetime) ?? .seconds(86_400)
    options.loginLimit = loginLimit
    options.behindProxy = behindProxy
    if chaos { options.chaosSeed = chaosSeed ?? UInt64.random(in: 0...UInt64.max) }
    var logger = Logger(label: "myworkout-server") { StreamLogHandler.standardError(label: $0) }
    // Hummingbird's per-request and start-up lines stay out; no request body is ever logged.
    logger.logLevel = .notice
    let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) } }
    guard
      let text = database
        ?? environment("MYWORKOUT_DATABASE_URL").flatMap({ $0.isEmpty ? nil : $0 })
    else {
      try await serve(Backend(options: options), logger: logger)
      return
    }
    let url: DatabaseURL
    do {
      url = try DatabaseURL(text, fallbackPassword: environment("PGPASSWORD"))
    } catch {
      Self.fail("myworkout-server: \(error.description)")
    }
    let opened: (stores: ServerStores, database: PostgresDatabase)
    do {
      opened = try await ServerStores.postgres(url: url, options: options, logger: logger)
    } catch let error as StoreError {
      Self.fail("myworkout-server: \(error.message)")
    } catch {
      Self.fail("myworkout-server: cannot use the database at \(url): \(type(of: error))")
    }
    defer { opened.database.close() }
    if issuer == nil {  // said once the database answers (a failure stays one line)
      // Each instance would name itself as issuer and refuse the others' tokens.
      let line = Array(
        "myworkout-server: several instances over one database need one --issuer (the URL clients use)\n"
          .utf8)
      _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
    try await serve(Backend(options: options, stores: opened.stores), logger: logger)
  }

  private func serve(_ backend: Backend, logger: Logger) async throws {
    let notices = backend.startNotices()
    let app = ServerApplication.make(backend, logger: logger) { url in
      // Always the first line of output (SPEC §15); flushed for whoever reads it through a pipe.
      print(url)
      for notice in notices { print("notice: \(notice)") }
      fflush(nil)
    }
    try await app.runService()
  }

  /// Every connection holds a descriptor: the soft limit (often 1,024) goes up to the hard one,
  /// as Go's servers do, so a burst of clients (each closed after the idle timeout) does not lock
  /// the others out. NIO waits with epoll, which takes any descriptor number.
  static func raiseDescriptorLimit() {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(resource, &limit)
  }

  /// A video is sent in 128-KiB chunks, each freed once the connection took it. glibc's malloc
  /// maps a block that large on its own, but raises that threshold to the size of every such
  /// block freed, and from then on carves the chunks from its heaps, which keep what is freed:
  /// 100 connections that asked for a video and read nothing held 485 MiB of the server's
  /// memory, and 467 MiB stayed after they closed. With the threshold fixed at 128 KiB, each
  /// chunk is mapped and given back when freed: 73 MiB while they hold on, 7 MiB after (a
  /// 100-MB video sent on loopback then costs 90–100 ms of CPU, where it cost 40–70).
  static func giveBackLargeBuffers() {
    _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
  }

  /// One line on standard error, exit status 1.
  static func fail(_ message: String) -> Never {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    Glibc.exit(1)
  }

  /// `--token-lifetime`: tokens carry whole seconds, so at least one.
  static func lifetime(_ text: String) -> Duration? {
    DurationText.parse(text, atLeast: .seconds(1))
  }

  static var defaultDataDirectory: String {
    let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) } }
    if let xdg = environment("XDG_DATA_HOME"), xdg.hasPrefix("/") {
      return xdg + "/myworkout-server"
    }
    return (environment("HOME") ?? ".") + "/.local/share/myworkout-server"
  }

  /// `Assets/` beside the binary, in `../share/myworkout/`, or in the source tree.
  static var assets: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var candidates: [String] = []
    if count > 0 {
      let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if let slash = path.lastIndex(of: "/") {
        candidates += [
          String(path[..<slash]) + "/Assets", String(path[..<slash]) + "/../share/myworkout",
        ]
      }
    }
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Sources/myworkout-server/ServerCommand.swift
    candidates.append(parts.joined(separator: "/") + "/Assets")
    return candidates.first { access($0 + "/classes.csv", R_OK) == 0 } ?? "Assets"
  }
}
