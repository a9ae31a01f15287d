import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What `myworkout-server`'s command line chose (SPEC §15), and the seams tests inject.
package struct ServerOptions: Sendable {
  package var host = "127.0.0.1"
  package var port = 8080
  package var dataDirectory: String
  /// `--catalog FILE`, else the shipped `Assets/classes.csv`.
  package var catalog: String?
  /// `--lessons FILE`, else the shipped `Assets/lessons.json`.
  package var lessons: String?
  /// `--images-dir DIR`, else the shipped `Assets/images/`.
  package var imagesDirectory: String?
  /// `--videos-dir DIR`, else the shipped `Assets/videos/` (SPEC §19).
  package var videosDirectory: String?
  /// `--videos-accel PREFIX`: behind nginx, a video request is only authorised here and answered
  /// with `X-Accel-Redirect: PREFIX<file>`; nginx sends the bytes from its internal location.
  package var videosAccel: String?
  /// Where the shipped files are.
  package var assets = "Assets"
  /// `--issuer URL`; nil: the base URL with a trailing slash.
  package var issuer: String?
  package var tokenLifetime: Duration = .seconds(24 * 3600)
  package var loginLimit = 10
  /// The most classes one account keeps progress for (tests lower it).
  package var progressClassLimit = ProgressBounds.storedClasses
  /// The most lesson completion events one account keeps, every round together (tests lower
  /// it).
  package var lessonEventLimit = ProgressBounds.storedLessonEvents
  /// The most `Idempotency-Key`s kept per account (tests lower it).
  package var appliedKeyLimit = ProgressBounds.appliedKeys
  /// `POST /api/accounts/lookup` a minute per address, and as many `POST
  /// /dbconnections/signup`: three times the login limit.
  package var lookupLimit: Int { max(loginLimit, 1) * 3 }
  /// `--behind-proxy`: the per-address limits count the `X-Real-IP` header the load balancer
  /// sets, not the peer (which is then always the balancer).
  package var behindProxy = false
  /// `--chaos` with its seed.
  package var chaosSeed: UInt64?
  /// Work factor for new password hashes (tests lower it).
  package var hasherIterations = PasswordHasher.defaultIterations
  /// How long a connection may send nothing (between requests, or inside a request's head or
  /// body) before it is closed: a client that stalls cannot keep a connection, its descriptor
  /// and the body collected so far for ever. Longer than clients keep idle connections in their
  /// pools (AsyncHTTPClient: 60 s), so the server never closes one a client is about to reuse;
  /// nginx keeps them 75 s too. An answer being sent is not idle (`stalledWriteTimeout`), nor is
  /// a body still arriving (`requestReadTimeout`).
  package var idleTimeout: Duration = .seconds(75)
  /// How long an answer may wait on a client that takes none of it (the server's buffers for
  /// the connection full, NIO's channel not writable) before the connection is closed: a client
  /// that asks for a video and stops reading kept its connection, its descriptor and what was
  /// buffered for it until TCP gave up, hours later. A client that reads, however slowly, frees
  /// the buffers again and is not cut. As long as the idle timeout; nginx's `send_timeout` (the
  /// cluster's) is 60 s.
  package var stalledWriteTimeout: Duration = .seconds(75)
  /// How long a request's body may take to arrive, from its head's end (the head itself must
  /// come whole within the idle timeout): a body sent a byte a minute was never idle. Two
  /// minutes: a full 1 MiB body at 9 KB/s; the app's bodies are a few kilobytes.
  package var requestReadTimeout: Duration = .seconds(120)
  /// How long a PostgreSQL call may take before the client gets 503 `temporarily_unavailable`
  /// (tests on a loaded machine allow more: they check answers, not timing).
  package var databaseCallTimeout: Duration = .seconds(5)
  /// Told the length of each chunk of a video as it is read from its file (tests: what a
  /// client that stops reading costs the server).
  package var videoChunkRead: (@Sendable (Int) -> Void)?
  /// Wall-clock time for tokens.
  package var now: @Sendable () -> Date = { Date() }
  /// Monotonic seconds for the rate limits.
  package var monotonic: @Sendable () -> Double = { MonotonicSeconds.now() }

  package init(dataDirectory: String) {
    self.dataDirectory = dataDirectory
  }
}

package enum MonotonicSeconds {
  static let start = ContinuousClock.now

  package static func now() -> Double {
    let elapsed = start.duration(to: ContinuousClock.now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  }
}
