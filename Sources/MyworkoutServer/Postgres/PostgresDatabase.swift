import Logging
import MyworkoutCore
import NIOCore
import PostgresNIO
import Synchronization

/// One deployment's PostgreSQL (SPEC §17): a pool of connections (`PostgresClient`), the schema
/// brought up to date on start, and every call bounded in time with its failures turned into a
/// `StoreError` (unavailable: 503; anything else: 500). Nothing it logs or throws holds the
/// database password.
package final class PostgresDatabase: Sendable {
  /// The schema this server writes. A database at a higher version is refused, unchanged.
  package static let schemaVersion = Migrations.steps.count

  let client: PostgresClient
  /// The connections that hold the deployment's change locks (`withChangeLock`), apart from
  /// the pool: a holder takes the pool's for its check and its change, and holders that had
  /// taken every one of the pool's would wait on each other for good.
  let lockClient: PostgresClient
  package let url: DatabaseURL
  let logger: Logger
  /// How long a call may wait (for a connection, a lock, the server) before it answers 503.
  let callTimeout: Duration
  private let runner: Mutex<Task<Void, Never>?>

  private init(
    url: DatabaseURL, client: PostgresClient, lockClient: PostgresClient, logger: Logger,
    callTimeout: Duration
  ) {
    self.url = url
    self.client = client
    self.lockClient = lockClient
    self.logger = logger
    self.callTimeout = callTimeout
    runner = Mutex(nil)
  }

  /// The pool's size, sized to the work (issue 30): what this instance can keep busy is about
  /// two queries per core (one running, one whose answer is on its way), at least 4, at most 16
  /// (eight instances stay within the cluster's 200 connections).
  package static func poolSize(cores: Int = System.coreCount) -> Int {
    min(16, max(4, 2 * cores))
  }

  /// Connects once to check the database and bring its schema up to date (one instance
  /// migrates, the others wait on the advisory lock), then starts the pool. Throws a
  /// `StoreError` saying in one line what is wrong: unreachable, wrong password, a newer schema.
  package static func open(
    url: DatabaseURL, logger: Logger, callTimeout: Duration = .seconds(5),
    maximumConnections: Int = PostgresDatabase.poolSize(),
    prepare: (PostgresConnection) async throws -> Void = { _ in }
  ) async throws -> PostgresDatabase {
    var configuration = PostgresConnection.Configuration(
      host: url.host, port: url.port, username: url.user, password: url.password,
      database: url.database, tls: .disable)
    configuration.options.connectTimeout = .seconds(5)
    let connection: PostgresConnection
    do {
      connection = try await PostgresConnection.connect(
        configuration: configuration, id: 0, logger: quiet(logger))
    } catch {
      throw startError(error, url: url)
    }
    do {
      try await Migrations.run(on: connection, logger: quiet(logger))
      try await prepare(connection)
      try? await connection.close()
    } catch {
      try? await connection.close()
      throw startError(error, url: url)
    }
    var poolConfiguration = PostgresClient.Configuration(
      host: url.host, port: url.port, username: url.user, password: url.password,
      database: url.database, tls: .disable)
    poolConfiguration.options.connectTimeout = .seconds(3)
    poolConfiguration.options.maximumConnections = maximumConnections
    poolConfiguration.options.minimumConnections = 1
    poolConfiguration.options.keepAliveBehavior = .init(frequency: .seconds(10))
    poolConfiguration.options.additionalStartupParameters = sessionParameters(
      callTimeout: callTimeout)
    let client = PostgresClient(configuration: poolConfiguration, backgroundLogger: quiet(logger))
    var lockConfiguration = poolConfiguration
    lockConfiguration.options.maximumConnections = max(2, maximumConnections / 2)
    lockConfiguration.options.additionalStartupParameters = lockSessionParameters(
      callTimeout: callTimeout)
    let lockClient = PostgresClient(
      configuration: lockConfiguration, backgroundLogger: quiet(logger))
    let database = PostgresDatabase(
      url: url, client: client, lockClient: lockClient, logger: logger, callTimeout: callTimeout)
    database.runner.withLock {
      $0 = Task {
        await withDiscardingTaskGroup { group in
          group.addTask { await client.run() }
          group.addTask { await lockClient.run() }
        }
      }
    }
    return database
  }

  /// The settings each of the pool's sessions starts with: PostgreSQL itself ends what the
  /// instance gave up on a second after its call timeout.
  /// - A statement still running then (waiting on a row another session holds): the call
  ///   answers "did not answer in time" then, not when the row is free.
  /// - A session silent in a transaction (its instance stopped, frozen or cut off mid-call):
  ///   its transaction ends, and with it the row locks that kept every other instance from
  ///   saving those rows until it came back.
  package static func sessionParameters(callTimeout: Duration) -> [(String, String)] {
    let milliseconds = "\(Int((callTimeout / .milliseconds(1)).rounded()) + 1_000)ms"
    return [
      ("statement_timeout", milliseconds), ("idle_in_transaction_session_timeout", milliseconds),
    ]
  }

  /// The lock's sessions: a statement (the wait for the lock) ends as the pool's do, but the
  /// transaction that holds the lock stays while the change's check and writes run on the
  /// pool, each bounded by the call timeout (three of them at most): the pool's idle limit, one
  /// call's, would have let the lock go in the middle of a slow change.
  package static func lockSessionParameters(callTimeout: Duration) -> [(String, String)] {
    let call = Int((callTimeout / .milliseconds(1)).rounded())
    return [
      ("statement_timeout", "\(call + 1_000)ms"),
      ("idle_in_transaction_session_timeout", "\(4 * call + 1_000)ms"),
    ]
  }

  /// Stops the pool (its connections close).
  package func close() {
    runner.withLock { task in
      task?.cancel()
      task = nil
    }
  }

  /// postgres-nio's own lines (a connection lost and made again) stay out of the server's log:
  /// they repeat what the 503 answers already say.
  private static func quiet(_ logger: Logger) -> Logger {
    var logger = logger
    logger.logLevel = .critical
    return logger
  }

  // MARK: Calls

  /// Runs `body` with the pool, within `callTimeout`.
  func call<T: Sendable>(
    _ what: String, _ body: @escaping @Sendable (PostgresClient) async throws -> T
  ) async throws -> T {
    let client = client
    return try await bounded(what) { try await body(client) }
  }

  /// Runs `body` while this deployment's lock `key` is held: a transaction-level advisory lock
  /// on a connection of `lockClient`, so that it ends with the transaction whatever happens (an
  /// instance that stops mid-change: PostgreSQL ends its idle transaction, see
  /// `lockSessionParameters`). A task of its own holds the connection, so that waiting for the
  /// lock is bounded by `callTimeout` as every call is (503 after it), while `body` runs here.
  func withChangeLock<T>(_ key: String, _ body: () async throws -> T) async throws -> T {
    let logger = Self.quiet(logger)
    let lockClient = lockClient
    let (taken, sayTaken) = AsyncStream<StoreError?>.makeStream()
    let (done, sayDone) = AsyncStream<Bool>.makeStream()
    let holder = Task {
      do {
        try await lockClient.withConnection { connection in
          do {
            try await connection.query("BEGIN", logger: logger)
            // Our own class of advisory keys (7301), apart from the migrations' one-number key.
            try await connection.query(
              "SELECT pg_advisory_xact_lock(7301, hashtext(\(key)))", logger: logger)
          } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
          }
          sayTaken.yield(nil)
          let made = await done.first { _ in true } ?? false
          // The change is made or not (on the pool's connections): the lock goes with the
          // transaction either way.
          _ = try? await connection.query(made ? "COMMIT" : "ROLLBACK", logger: logger)
        }
      } catch {
        sayTaken.yield(Self.storeError(error, what: "wait for another change"))
      }
      sayTaken.finish()
    }
    // The wait for the holder's word, bounded as every call is.
    let failure: (any Error)?
    do {
      failure = try await bounded("wait for another change") {
        for await outcome in taken { return outcome }
        return Self.late
      }
    } catch {
      failure = error
    }
    if let failure {
      // The holder is not waited for: it lets the lock go at once if it ever gets it (not
      // cancelled, which could end it between its BEGIN and its ROLLBACK, the connection back
      // in the pool with the lock held).
      sayDone.yield(false)
      sayDone.finish()
      throw failure
    }
    func end(_ made: Bool) async {
      sayDone.yield(made)
      sayDone.finish()
      await holder.value
    }
    do {
      let result = try await body()
      await end(true)
      return result
    } catch {
      await end(false)
      throw error
    }
  }

  /// Runs `body` in one transaction (committed when it returns, rolled back when it throws),
  /// within `callTimeout`.
  func transaction<T: Sendable>(
    _ what: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    let client = client
    let logger = Self.quiet(logger)
    return try await bounded(what) {
      try await client.withTransaction(logger: logger) { connection in
        try await body(connection)
      }
    }
  }

  /// A call that ran out of time.
  private static let late = StoreError(
    unavailable: "The database did not answer in time. Try again.")

  private func bounded<T: Sendable>(
    _ what: String, _ body: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let timeout = callTimeout
    let late = Self.late
    do {
      return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
          try await Task.sleep(for: timeout)
          return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        if let first { return first }
        // Out of time: the call is cancelled, and the group waits for it to end (PostgreSQL
        // ends a statement a second after the call timeout, see `sessionParameters`). When it
        // ended by doing its work (a transaction that committed meanwhile), that is the
        // answer: answering "not in time" for a change that was made would have it sent again.
        group.cancelAll()
        do {
          guard let outcome = try await group.next(), let done = outcome else { throw late }
          return done
        } catch {
          throw late
        }
      }
    } catch {
      if let refusal = Self.refusal(error) { throw refusal }
      throw Self.storeError(error, what: what)
    }
  }

  /// A change the store refuses for what it is, not for the database's state: passed on as
  /// it is (`ProgressError.tooManyIntervals`), out of a transaction too.
  private static func refusal(_ error: any Error) -> ProgressError? {
    switch error {
    case let error as ProgressError: error
    case let error as PostgresTransactionError: error.closureError.flatMap { refusal($0) }
    default: nil
    }
  }

  // MARK: Errors

  /// SQLSTATE classes that mean "the database is away or cannot take this now": connection
  /// exceptions, insufficient resources (a full disk), operator intervention (shut down,
  /// starting up), a read-only transaction, a serialization failure or deadlock.
  private static func isTransient(_ state: String) -> Bool {
    state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57") || state == "25006"
      || state == "40001" || state == "40P01"
  }

  static func storeError(_ error: any Error, what: String) -> StoreError {
    switch error {
    case let error as StoreError:
      return error
    case let error as PostgresTransactionError:
      let inner = error.closureError ?? error.beginError ?? error.commitError
      return inner.map { storeError($0, what: what) }
        ?? StoreError(failed: "Could not \(what): the transaction failed.")
    case let error as PSQLError:
      if error.code == .server, let info = error.serverInfo {
        let state = info[.sqlState] ?? "?"
        let message = info[.message] ?? "no message"
        let detail =
          switch state {
          case "25006": "the database is read-only"
          case "53100": "the database's disk is full"
          default: "\(message) (SQLSTATE \(state))"
          }
        return isTransient(state)
          ? StoreError(unavailable: "Could not \(what): \(detail). Try again.")
          : StoreError(failed: "Could not \(what): \(detail).")
      }
      if error.code == .tooManyParameters || error.code == .messageDecodingFailure
        || error.code == .unexpectedBackendMessage || error.code == .invalidCommandTag
      {
        return StoreError(failed: "Could not \(what): \(error.code).")
      }
      return StoreError(unavailable: "Could not \(what): the database is unavailable. Try again.")
    case is CancellationError:
      return StoreError(unavailable: "Could not \(what): cancelled.")
    case is PostgresDecodingError:
      return StoreError(failed: "Could not \(what): a stored value could not be read.")
    default:
      return StoreError(failed: "Could not \(what): \(type(of: error)).")
    }
  }

  /// One line for a start that failed: what is wrong and where, never the password.
  static func startError(_ error: any Error, url: DatabaseURL) -> StoreError {
    let place = url.description
    switch error {
    case let error as StoreError:
      return error
    case let error as PSQLError where error.code == .server:
      let state = error.serverInfo?[.sqlState] ?? "?"
      let message = error.serverInfo?[.message] ?? "no message"
      switch state {
      case "28P01", "28000":
        return StoreError(
          unavailable: "the database at \(place) refused user \(url.user): \(message)")
      case "3D000":
        return StoreError(unavailable: "the database at \(place) does not exist")
      case "57P03":
        return StoreError(unavailable: "the database at \(place) is starting up; try again")
      default:
        return StoreError(
          unavailable: "the database at \(place) failed: \(message) (SQLSTATE \(state))")
      }
    case let error as PSQLError:
      let reason = error.underlying.map { String(describing: $0) } ?? "\(error.code)"
      return StoreError(unavailable: "cannot reach the database at \(place): \(reason)")
    default:
      return StoreError(unavailable: "cannot use the database at \(place): \(error)")
    }
  }
}
