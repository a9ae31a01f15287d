import PostgresNIO

/// Login attempts counted in the `rate_limits` table, so that every instance counts towards
/// the same limit: per key, a window starting at its first attempt and lasting `window`
/// seconds of the database's clock (the one clock all instances share).
package struct PostgresRateLimiter: AttemptLimiting {
  let database: PostgresDatabase
  /// Keeps this limiter's keys apart from another's in the same table.
  let name: String
  let limit: Int
  var window = 60

  package func allow(_ keys: [String]) async throws -> Bool {
    let keys = Array(Set(keys.map { name + ":" + $0 })).sorted()
    let limit = limit
    let window = Double(window)
    let logger = database.logger
    let allowed = try await database.transaction("count the attempt") { connection in
      // Rows made first (outside any window), then locked in key order: two instances
      // counting the same keys wait for each other and never deadlock.
      try await connection.query(
        """
        INSERT INTO rate_limits (key, started, count)
        SELECT k, 'epoch', 0 FROM unnest(\(keys)::text[]) AS k ORDER BY k
        ON CONFLICT DO NOTHING
        """, logger: logger)
      var full = false
      for try await (current, count) in try await connection.query(
        """
        SELECT started > now() - make_interval(secs => \(window)), count FROM rate_limits
        WHERE key = ANY(\(keys)::text[]) ORDER BY key FOR UPDATE
        """, logger: logger
      ).decode((Bool, Int).self) where current && count >= limit {
        full = true
      }
      guard !full else { return false }
      try await connection.query(
        """
        UPDATE rate_limits SET
          count = CASE WHEN started > now() - make_interval(secs => \(window))
            THEN count + 1 ELSE 1 END,
          started = CASE WHEN started > now() - make_interval(secs => \(window))
            THEN started ELSE now() END
        WHERE key = ANY(\(keys)::text[])
        """, logger: logger)
      return true
    }
    // Now and then, the windows long over go.
    if UInt8.random(in: 0...255) == 0 {
      _ = try? await database.call("forget old attempts") { client in
        _ = try await client.query(
          "DELETE FROM rate_limits WHERE started < now() - interval '1 hour'"
        ).collect()
      }
    }
    return allowed
  }
}
