import Logging
import MyworkoutCore
import MyworkoutServices
import PostgresNIO

/// The versioned schema. `run` brings a database up to `steps.count` in one transaction that
/// first takes a transaction-level advisory lock: when several instances start at once, one
/// migrates and the others wait, then find it done. A database whose version is higher than
/// ours (a newer server wrote it) is refused before anything is changed.
package enum Migrations {
  /// The version this server brings a database to: the number of steps.
  package static var version: Int { steps.count }

  /// The advisory lock every migration takes (any fixed 64-bit number; "myworkout" in ASCII).
  static let lockKey: Int64 = 0x6D79_776F_726B_6F75

  /// Step N brings the schema from version N-1 to N. Never edit a released step: add one.
  static let steps: [[String]] = [
    [
      "CREATE EXTENSION IF NOT EXISTS pg_trgm",
      """
      CREATE TABLE accounts (
        email text PRIMARY KEY,
        profile text NOT NULL,
        password text NOT NULL,
        created bigint NOT NULL)
      """,
      """
      CREATE TABLE signing_keys (
        id int PRIMARY KEY CHECK (id = 1),
        pem text NOT NULL,
        created timestamptz NOT NULL DEFAULT now())
      """,
      """
      CREATE TABLE class_progress (
        account text NOT NULL,
        class text NOT NULL,
        position bigint NOT NULL,
        watched int8multirange NOT NULL,
        time_in_class bigint NOT NULL,
        PRIMARY KEY (account, class))
      """,
      "CREATE TABLE lesson_rounds (account text PRIMARY KEY, round int NOT NULL)",
      """
      CREATE TABLE lesson_events (
        id bigserial PRIMARY KEY,
        account text NOT NULL,
        round int NOT NULL,
        lesson text NOT NULL,
        started bigint NOT NULL,
        completed bigint NOT NULL,
        UNIQUE (account, round, lesson))
      """,
      "CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)",
      """
      CREATE TABLE classes (
        position bigint PRIMARY KEY,
        id text NOT NULL UNIQUE,
        title text NOT NULL,
        instructor text NOT NULL,
        level text NOT NULL,
        song text NOT NULL,
        video_url text NOT NULL,
        thumbnail_slug text NOT NULL,
        duration bigint NOT NULL,
        search text NOT NULL)
      """,
      // Carries `search LIKE '%term%'` for terms of three characters or more (DECISIONS.md).
      "CREATE INDEX classes_search_trgm ON classes USING gin (search gin_trgm_ops)",
      // Unlogged: no WAL per login attempt; a crash empties it (a window starts afresh).
      """
      CREATE UNLOGGED TABLE rate_limits (
        key text PRIMARY KEY,
        started timestamptz NOT NULL,
        count int NOT NULL)
      """,
    ],
    // 2: the `Idempotency-Key`s applied per account, with the request each came with (issue 23).
    [
      """
      CREATE TABLE applied_changes (
        account text NOT NULL,
        key text NOT NULL,
        request text NOT NULL,
        applied timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account, key))
      """
    ],
    // 3: when the stored position's change was made (ms since 1970), so that a change arriving
    // late does not move the position back (issue 23).
    ["ALTER TABLE class_progress ADD COLUMN position_at bigint"],
    // 4: every account gets a stable id (Auth0's form, `auth0|` and 24 hex digits: the seeded
    // account the fixed one every store gives it), the `sub` of its tokens; everything filed
    // under an account's email is filed under its id.
    [
      "ALTER TABLE accounts ADD COLUMN id text",
      """
      UPDATE accounts SET id = CASE WHEN email = '\(SeedAccount.profile.email)'
        THEN '\(AccountID.seed)'
        ELSE 'auth0|' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24) END
      """,
      "ALTER TABLE accounts ALTER COLUMN id SET NOT NULL",
      "CREATE UNIQUE INDEX accounts_id ON accounts (id)",
    ]
      + ["class_progress", "lesson_rounds", "lesson_events", "applied_changes"].map { table in
        "UPDATE \(table) t SET account = a.id FROM accounts a WHERE t.account = a.email"
      },
    // 5: lesson events are one per lesson, round and visit (`started`), so that a lesson
    // finished on two devices is two events (SPEC §18); a completion sent without an
    // `Idempotency-Key` is still filed only when its lesson has none (the store checks).
    [
      "ALTER TABLE lesson_events DROP CONSTRAINT lesson_events_account_round_lesson_key",
      """
      ALTER TABLE lesson_events
        ADD CONSTRAINT lesson_events_visit UNIQUE (account, round, lesson, started)
      """,
    ],
  ]

  struct NewerSchema: Error, CustomStringConvertible {
    var found: Int
    var description: String {
      "the database's schema is version \(found), newer than this server's "
        + "\(Migrations.steps.count); refusing to start (nothing was changed). "
        + "Run a newer myworkout-server."
    }
  }

  /// Brings the schema up to date; `seed` runs in the same transaction when the database was
  /// empty (version 0).
  static func run(
    on connection: PostgresConnection, logger: Logger,
    seed: (PostgresConnection) async throws -> Void = { _ in }
  ) async throws {
    do {
      try await connection.withTransaction(logger: logger) { connection in
        try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
        try await connection.query(
          "CREATE TABLE IF NOT EXISTS myworkout_schema (version int NOT NULL)", logger: logger)
        var current = 0
        for try await version in try await connection.query(
          "SELECT version FROM myworkout_schema", logger: logger
        ).decode(Int.self) {
          current = max(current, version)
        }
        if current > steps.count { throw NewerSchema(found: current) }
        guard current < steps.count else { return }
        for step in steps[current...] {
          for statement in step {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
          }
        }
        try await connection.query("DELETE FROM myworkout_schema", logger: logger)
        try await connection.query(
          "INSERT INTO myworkout_schema (version) VALUES (\(steps.count))", logger: logger)
      }
    } catch let error as PostgresTransactionError {
      if let newer = error.closureError as? NewerSchema {
        throw StoreError(unavailable: newer.description)
      }
      throw error.closureError ?? error.beginError ?? error.commitError ?? error
    }
  }
}
