import ArgumentParser
import MyworkoutCore
import MyworkoutServices

#if canImport(Glibc)
  import Glibc
#endif

/// The command line (README's "Command line" says what each option does).
struct MyworkoutCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "myworkout",
    abstract:
      "Myworkout GO: dance classes, coding lessons and images with your account and progress, in the terminal.",
    usage: "myworkout [--data-dir PATH] [--reset] [--session-lifetime DURATION] "
      + "[--latency DURATION] [--catalog FILE] [--lessons FILE] [--images-dir DIR] "
      + "[--assets DIR] [--speed N] [--mute] [--no-mouse] [--server URL [--insecure-http]] "
      + "[--auth0-domain DOMAIN --auth0-client-id ID [--auth0-connection NAME]] "
      + "[--version] [--help]",
    discussion: """
      Data lives in $MYWORKOUT_DATA_DIR, else $XDG_DATA_HOME/myworkout, else \
      ~/.local/share/myworkout. The account service is an embedded mock that answers after \
      one second; the registry starts with registered@email.com (password: password). With \
      --server URL (or $MYWORKOUT_SERVER) every service is a client of myworkout-server instead.
      """,
    version: "myworkout 1.0.0"
  )

  @Option(
    name: .customLong("data-dir"), help: ArgumentHelp("Keep data in PATH.", valueName: "PATH"))
  var dataDirectory: String?

  @Flag(help: "Sign out and restore the registry to its single seeded account.")
  var reset = false

  @Option(
    name: .customLong("session-lifetime"),
    // The next word is the value even when it starts with `-`, so `-5s` is refused as a
    // duration rather than taken for an option.
    parsing: .unconditional,
    help: ArgumentHelp(
      "How long a login stays valid, e.g. 30s, 15m, 1.5h, 30d (default: 30d; at least 1s).",
      valueName: "DURATION"),
    transform: { text in
      guard let duration = DurationText.parse(text, atLeast: .seconds(1)) else {
        throw ValidationError(
          "'\(text)' is not a duration from 1s to \(DurationText.longest); use a number with ms, "
            + "s, m, h or d, like 30d or 1.5h.")
      }
      return duration
    })
  var sessionLifetime: Duration?

  static let defaultSessionLifetime: Duration = .seconds(30 * 24 * 3600)

  @Option(
    // As for --session-lifetime: `-1s` is the value, refused as a duration.
    parsing: .unconditional,
    help: ArgumentHelp(
      "How long the embedded services take to answer: 1s (the default), 300ms, 0.5s, or 0s "
        + "for no delay.",
      valueName: "DURATION"),
    transform: { text in
      guard let duration = DurationText.parse(text) else {
        throw ValidationError(
          "'\(text)' is not a duration; use a number with ms, s, m, h or d, like 1s, 300ms, "
            + "0.5s or 0s.")
      }
      return duration
    })
  var latency: Duration?

  @Option(
    help: ArgumentHelp("Use the classes in FILE (the brief's CSV format).", valueName: "FILE"))
  var catalog: String?

  @Option(help: ArgumentHelp("Find the app's own files in DIR.", valueName: "DIR"))
  var assets: String?

  @Option(
    help: ArgumentHelp("Use the lessons in FILE (Mimo's JSON format).", valueName: "FILE"))
  var lessons: String?

  @Flag(
    name: .customLong("no-mouse"),
    help: "Leave mouse reporting off, so the terminal's own text selection works.")
  var noMouse = false

  @Option(
    name: .customLong("images-dir"),
    help: ArgumentHelp("Show the PNG and JPEG files of DIR on Images.", valueName: "DIR"))
  var imagesDirectory: String?

  @Option(
    help: ArgumentHelp(
      "Use myworkout-server at URL for everything (also $MYWORKOUT_SERVER).", valueName: "URL"))
  var server: String?

  @Flag(
    name: .customLong("insecure-http"),
    help: "Allow plain http:// to a --server that is not on this machine.")
  var insecureHTTP = false

  @Option(
    name: .customLong("auth0-domain"),
    help: ArgumentHelp(
      "Log in with the Auth0 tenant at DOMAIN (HTTPS), e.g. example.eu.auth0.com.",
      valueName: "DOMAIN"))
  var auth0Domain: String?

  @Option(
    name: .customLong("auth0-client-id"),
    help: ArgumentHelp("The Auth0 application's client id.", valueName: "ID"))
  var auth0ClientID: String?

  @Option(
    name: .customLong("auth0-connection"),
    help: ArgumentHelp(
      "The Auth0 database connection (default: Username-Password-Authentication).",
      valueName: "NAME"))
  var auth0Connection: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Start the player at N times normal speed, 0.25 to 100 (for demos and tests).",
      valueName: "N"),
    transform: { text in
      guard let speed = PlaybackSpeed(text: text) else {
        // ArgumentParser names the option before it: "The value … is invalid for '--speed <N>'".
        throw ValidationError("'\(text)' is not a speed from 0.25 to 100, like 1.5.")
      }
      return speed
    })
  var speed = PlaybackSpeed.normal

  @Flag(help: "Play videos without sound (their pictures follow the wall clock).")
  var mute = false

  func validate() throws {
    let tenant = try auth0Tenant()
    let remote = try Self.server(given: server, insecureHTTP: insecureHTTP) != nil
    if tenant != nil, remote {
      throw ValidationError("--auth0-domain and --server cannot be used together.")
    }
    if tenant != nil, sessionLifetime != nil {
      throw ValidationError(
        "--session-lifetime sets the embedded accounts' logins; with --auth0-domain the Auth0 "
          + "tenant decides how long a login stays valid.")
    }
    if remote {
      // The embedded services' own settings: with a server they would be taken and do nothing.
      if sessionLifetime != nil {
        throw ValidationError(
          "--session-lifetime is a server option; with --server the server chooses "
            + "(myworkout-server --token-lifetime).")
      }
      if latency != nil {
        throw ValidationError(
          "--latency is the embedded services' delay; with --server the server answers as fast "
            + "as it does.")
      }
      let local = [
        ("--catalog", catalog), ("--lessons", lessons), ("--images-dir", imagesDirectory),
      ]
      if let (name, _) = local.first(where: { $0.1 != nil }) {
        throw ValidationError(
          "\(name) is a server option; with --server the server chooses (myworkout-server \(name))."
        )
      }
    }
    if dataDirectory?.isEmpty == true {
      throw ValidationError("--data-dir needs a path; it was given an empty one.")
    }
    if let imagesDirectory, !Self.isFolder(imagesDirectory) {
      var status = stat()
      let exists = stat(imagesDirectory, &status) == 0
      throw ValidationError(
        "--images-dir: '\(imagesDirectory)' \(exists ? "is not a folder" : "does not exist").")
    }
  }

  /// Whether a path names a folder (following links).
  static func isFolder(_ path: String) -> Bool {
    var status = stat()
    return !path.isEmpty && stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  func run() throws {
    let server = try Self.server(given: server, insecureHTTP: insecureHTTP)
    if reset {
      let environment = ProcessEnvironment.current
      let path = DataDirectory.resolve(override: dataDirectory, environment: environment)
      if let server {
        // Remote mode: only the local session is forgotten; accounts live on the server.
        try RemoteHandoff.factory().forget(server, DataDirectory.prepare(path: path))
        print("Signed out of \(server).")
        return
      }
      try Reset.run(dataDirectory: path)
      return
    }
    try Self.launchApp(
      LaunchOptions(
        dataDirectory: dataDirectory ?? "",
        sessionLifetime: sessionLifetime ?? Self.defaultSessionLifetime,
        latency: latency ?? LaunchOptions.defaultLatency,
        catalog: catalog, assets: assets, lessons: lessons, mouse: !noMouse,
        imagesDirectory: imagesDirectory, server: server, speed: speed,
        auth0: try auth0Tenant(), mute: mute),
      dataDirectoryGiven: dataDirectory != nil)
  }

  /// `--auth0-domain D --auth0-client-id ID [--auth0-connection NAME]`, checked: a host name
  /// (HTTPS is implied), both or neither.
  func auth0Tenant() throws -> Auth0Tenant? {
    guard auth0Domain != nil || auth0ClientID != nil || auth0Connection != nil else { return nil }
    guard let domain = auth0Domain, let clientID = auth0ClientID, !clientID.isEmpty else {
      throw ValidationError("--auth0-domain and --auth0-client-id go together.")
    }
    let host = domain.hasPrefix("https://") ? String(domain.dropFirst(8)) : domain
    let trimmed = host.hasSuffix("/") ? String(host.dropLast()) : host
    guard !trimmed.isEmpty,
      trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:".contains($0)) })
    else {
      throw ValidationError(
        "--auth0-domain: '\(domain)' is not a host name like example.auth0.com.")
    }
    var tenant = Auth0Tenant(domain: trimmed, clientID: clientID)
    if let connection = auth0Connection, !connection.isEmpty { tenant.connection = connection }
    return tenant
  }

  /// The server of remote mode: `--server`, else `$MYWORKOUT_SERVER`, checked (SPEC §15).
  static func server(given: String?, insecureHTTP: Bool) throws -> String? {
    let environment = ProcessEnvironment.current["MYWORKOUT_SERVER"].flatMap {
      $0.isEmpty ? nil : $0
    }
    guard let text = given ?? environment else { return nil }
    do {
      return try ServerAddress.check(text, insecureHTTP: insecureHTTP)
    } catch {
      throw ValidationError(error.message)
    }
  }

  /// Runs the command. A launch without arguments, what a person does every day, starts the
  /// app straight away: ArgumentParser spends ~1.5 ms building its tables (measured with perf),
  /// a fifth of the time to the first frame. Everything else goes through ArgumentParser.
  static func start(arguments: [String]) -> Never {
    // Remote mode by environment takes the checked path too.
    guard arguments.isEmpty, getenv("MYWORKOUT_SERVER") == nil else {
      main(arguments)
      exit(withError: nil)
    }
    do {
      try launchApp(
        LaunchOptions(dataDirectory: "", sessionLifetime: defaultSessionLifetime),
        dataDirectoryGiven: false)
    } catch {
      exit(withError: error)
    }
  }

  /// Opens the data directory (`--data-dir`, else from the environment) and runs the app.
  private static func launchApp(_ options: LaunchOptions, dataDirectoryGiven: Bool) throws -> Never
  {
    let environment = ProcessEnvironment.current
    var options = options
    options.dataDirectory = DataDirectory.resolve(
      override: dataDirectoryGiven ? options.dataDirectory : nil, environment: environment)
    // Remote mode runs in myworkout-remote (this binary carries no networking code).
    if options.server != nil || options.auth0 != nil { _ = try RemoteHandoff.factory() }
    try MainActor.assumeIsolated { try App.launch(options, environment: environment) }
  }

}
