import Foundation
import Synchronization
import TestProcesses

#if canImport(Glibc)
  import Glibc
#endif

/// A throw-away PostgreSQL cluster for the tests: `initdb` into a temporary folder (as the
/// `postgres` user when the tests run as root: PostgreSQL refuses root), started with `pg_ctl`
/// on a free loopback port, password authentication over TCP, stopped and removed when the test
/// process exits (by `atexit`, and by an `ExitWatch` when it crashes or is killed). `shared` serves every test that needs a database (each gets a database of its
/// own); a test that stops the server starts a cluster of its own.
final class TestPostgres: Sendable {
  /// The binaries' folder (the newest of Debian's /usr/lib/postgresql/N/bin), or nil.
  static let binaries: String? = {
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return versions.compactMap(Int.init).sorted().reversed()
      .map { "\(root)/\($0)/bin" }
      .first { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
  }()

  static var isAvailable: Bool { binaries != nil }
  static let unavailableReason =
    "PostgreSQL binaries absent (no /usr/lib/postgresql/N/bin/pg_ctl; apt-get install postgresql)"

  /// The superuser's password (password authentication over TCP, as a deployment would use).
  static let password = "test-pw-\(UInt32.random(in: 0...UInt32.max))"

  let directory: String
  let port: Int
  private let databases = Mutex(0)

  /// The cluster every test shares, started on first use.
  static let shared: Result<TestPostgres, any Error> = Result { try TestPostgres() }

  static func sharedCluster() throws -> TestPostgres { try shared.get() }

  /// Starts a new cluster (a few seconds).
  init() throws {
    guard let binaries = Self.binaries else {
      throw ChildProcess.Failed(description: Self.unavailableReason)
    }
    var template = Array("/tmp/myworkout-pg-XXXXXX".utf8CString)
    let made: String? = template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
    guard let made else { throw ChildProcess.Failed(description: "mkdtemp failed") }
    directory = made
    Self.register(made)
    // Stopped and removed however this process ends (`atexit` runs only on a normal exit).
    try ExitWatch.atEnd(
      (getuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : "")
        + #""$1/pg_ctl" -D "$2/data" -m immediate -w stop >/dev/null 2>&1; rm -rf "$2""#,
      arguments: [binaries, made])
    let owner = getuid() == 0 ? getpwnam("postgres") : nil
    if let owner { chown(made, owner.pointee.pw_uid, owner.pointee.pw_gid) }
    chmod(made, 0o700)
    let passwordFile = made + "/pw"
    FileManager.default.createFile(atPath: passwordFile, contents: Data(Self.password.utf8))
    if let owner { chown(passwordFile, owner.pointee.pw_uid, owner.pointee.pw_gid) }
    try Self.run(
      [
        binaries + "/initdb", "-D", made + "/data", "-U", "postgres", "--pwfile=" + passwordFile,
        "-E", "UTF8", "--locale=C", "--auth-local=trust", "--auth-host=scram-sha-256",
        "--no-sync",
      ], asPostgres: owner != nil)
    var started: Int?
    for _ in 0..<5 {
      let candidate = Int.random(in: 20_000...60_000)
      guard Self.isFree(candidate) else { continue }
      let status = try Self.run(
        [
          binaries + "/pg_ctl", "-D", made + "/data", "-l", made + "/log", "-w", "-t", "30",
          "-o",
          "-p \(candidate) -k \(made) -c listen_addresses=127.0.0.1 -c fsync=off "
            + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
          "start",
        ], asPostgres: owner != nil, check: false)
      if status == .exited(0) {
        started = candidate
        break
      }
    }
    guard let started else {
      throw ChildProcess.Failed(description: "PostgreSQL did not start; see \(made)/log")
    }
    port = started
  }

  /// A new, empty database; its URL (with the password).
  func makeDatabase() throws -> String {
    let name =
      "t"
      + String(
        databases.withLock {
          $0 += 1; return $0
        })
    _ = try psql("CREATE DATABASE \(name)")
    return url(name)
  }

  func url(_ database: String, password: String = TestPostgres.password) -> String {
    "postgres://postgres:\(password)@127.0.0.1:\(port)/\(database)"
  }

  /// Runs SQL as the superuser (over the socket in the cluster's folder); its output.
  @discardableResult
  func psql(_ sql: String, database: String = "postgres") throws -> String {
    guard let binaries = Self.binaries else { throw ChildProcess.Failed(description: "no psql") }
    var environment = ProcessInfo.processInfo.environment
    environment["PGPASSWORD"] = Self.password
    return try ChildProcess.run(
      [
        binaries + "/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
        "-p", String(port), "-U", "postgres", "-d", database, "-c", sql,
      ], environment: environment)
  }

  /// Stops the server (immediately: connections drop as in a crash or a restart).
  func stop() throws {
    guard let binaries = Self.binaries else { return }
    try Self.run(
      [binaries + "/pg_ctl", "-D", directory + "/data", "-m", "immediate", "-w", "stop"],
      asPostgres: getuid() == 0, check: false)
  }

  /// Starts it again on the same port.
  func start() throws {
    guard let binaries = Self.binaries else { return }
    try Self.run(
      [
        binaries + "/pg_ctl", "-D", directory + "/data", "-l", directory + "/log", "-w", "-o",
        "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off "
          + "-c max_connections=200",
        "start",
      ], asPostgres: getuid() == 0)
  }

  // MARK: Processes

  @discardableResult
  private static func run(_ arguments: [String], asPostgres: Bool, check: Bool = true) throws
    -> Termination
  {
    let command =
      asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments
    let child = try ChildProcess.spawn(command)
    let status = child.waitBlocking()
    if check, status != .exited(0) {
      throw ChildProcess.Failed(description: "\(arguments[0]) failed: \(status)")
    }
    return status
  }

  private static func isFree(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  // MARK: Clean-up at exit

  private static let clusters = Mutex<[String]>([])

  private static func register(_ directory: String) {
    let first = clusters.withLock { list in
      list.append(directory)
      return list.count == 1
    }
    if first { atexit { TestPostgres.stopAll() } }
  }

  private static func stopAll() {
    let list = clusters.withLock { $0 }
    for directory in list {
      if let binaries {
        _ = try? run(
          [binaries + "/pg_ctl", "-D", directory + "/data", "-m", "immediate", "-w", "stop"],
          asPostgres: getuid() == 0, check: false)
      }
      try? FileManager.default.removeItem(atPath: directory)
    }
  }
}
