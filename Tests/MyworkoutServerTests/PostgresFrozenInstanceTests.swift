import Foundation
import Logging
import MyworkoutCore
import MyworkoutServer
import MyworkoutServices
import PostgresNIO
import Testing

/// A PostgreSQL session an instance can no longer finish (SPEC §17).
@Suite(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason)))
struct PostgresFrozenInstanceTests {
  let logger: Logger = {
    var logger = Logger(label: "test-postgres")
    logger.logLevel = .critical
    return logger
  }()

  /// SPEC §17: an instance stopped in the middle of a transaction (SIGSTOP, a frozen VM) held
  /// its rows' locks until it went on, and every other instance's saves of those rows waited
  /// for it, past their call timeout (a walk-through froze one instance of the cluster; this
  /// test waited 15 minutes). A session silent in a transaction a second past the call
  /// timeout is one its instance gave up on or cannot finish: PostgreSQL ends it, and the row
  /// is saved again (the outbox sends again).
  @Test func aTransactionAFrozenInstanceLeftOpenEndsAndFreesItsRow()
    async throws
  {
    let url = try DatabaseURL(TestPostgres.sharedCluster().makeDatabase())
    try await withTemporaryDirectory { directory in
      var options = testOptions(directory)
      options.databaseCallTimeout = .seconds(2)
      let opened = try await ServerStores.postgres(url: url, options: options, logger: logger)
      defer { opened.database.close() }
      let update = ProgressUpdate(
        account: "a1", classID: "c1", position: 5_000, played: IntervalSet([0..<5_000]),
        addedTimeInClass: 5_000)
      _ = try await opened.stores.progress.record(update)
      // The frozen instance: a connection opened as the pool opens its own, in a transaction
      // that holds the row, then silent.
      var configuration = PostgresConnection.Configuration(
        host: url.host, port: url.port, username: url.user, password: url.password,
        database: url.database, tls: .disable)
      configuration.options.additionalStartupParameters = MyworkoutServer.PostgresDatabase
        .sessionParameters(
          callTimeout: options.databaseCallTimeout)
      let frozen = try await PostgresConnection.connect(
        configuration: configuration, id: 1, logger: logger)
      try await frozen.query("BEGIN", logger: logger)
      try await frozen.query(
        "SELECT 1 FROM class_progress WHERE account = 'a1' FOR UPDATE", logger: logger)
      // The other instance's saves of that row, sent again with their key as the outbox does
      // (a save whose answer was lost may have been made). Each is awaited apart, with the
      // time left: a save that waits for the row for good fails the test instead of holding it.
      let key = IdempotencyKey("k-frozen", request: "progress/c1")
      let deadline = ContinuousClock.now + .seconds(20)
      var failures = 0
      var saved: ClassProgress?
      while saved == nil, ContinuousClock.now < deadline {
        let store = opened.stores.progress
        guard
          let answer = await within(
            deadline - ContinuousClock.now, { try await store.record(update, key: key).value })
        else { break }
        switch answer {
        case .success(let progress): saved = progress
        case .failure: failures += 1
        }
      }
      try? await frozen.close()
      #expect(saved?.timeInClass == 10_000, "\(failures) saves refused first")
    }
  }
}
