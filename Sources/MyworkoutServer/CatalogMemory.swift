import Crypto
import MyworkoutCore
import NIOCore
import Synchronization

/// The public catalog's answers kept in memory (issue 30): each page, search and class detail
/// as the exact bytes sent, with their `ETag`, stamped with the catalog's version. A repeated
/// read costs a dictionary lookup under a lock held for nanoseconds: no store call, no JSON
/// encoding, no hashing, and never a wait behind another read.
///
/// The version comes from the store (`CatalogStoring.version()`: the imported file's SHA-256,
/// which every instance sees through the shared database) and is asked again at most once per
/// `recheck` seconds, by one request while the others go on with what is kept; a new version
/// drops everything. So an import shows within a second on every instance (the answers' own
/// `Cache-Control: public, max-age=60` lets proxies keep them far longer).
///
/// At most `budget` bytes of bodies are kept; beyond, the oldest answers go first (searches
/// anyone can make up never push memory past it).
final class CatalogMemory: Sendable {
  /// What a request asks: the answer's bytes depend on it and on the address the request
  /// reached (the video URLs name it).
  enum Key: Hashable, Sendable {
    case page(query: String, offset: Int, limit: Int, base: String)
    case detail(id: String, base: String)
  }

  struct Answer: Sendable {
    var body: ByteBuffer
    var tag: String
  }

  private struct State: ~Copyable {
    var version: String?
    var checkedAt = -Double.infinity
    var checking = false
    var answers: [Key: Answer] = [:]
    var order: [Key] = []
    var oldest = 0
    var bytes = 0
  }

  private let store: any CatalogStoring
  private let now: @Sendable () -> Double
  private let recheck: Double
  private let budget: Int
  private let state = Mutex(State())

  init(
    store: any CatalogStoring, now: @escaping @Sendable () -> Double, recheck: Double = 1,
    budget: Int = 32 << 20
  ) {
    self.store = store
    self.now = now
    self.recheck = recheck
    self.budget = budget
  }

  /// The answer for `key`: kept, or made by `make` (nil: nothing to keep, e.g. no such class)
  /// and kept while the catalog's version is still the one it was made under.
  func answer(_ key: Key, make: () async throws -> ByteBuffer?) async throws -> Answer? {
    let version = try await currentVersion()
    if let kept = state.withLock({ $0.version == version ? $0.answers[key] : nil }) {
      return kept
    }
    guard let body = try await make() else { return nil }
    let answer = Answer(body: body, tag: Self.entityTag(body))
    state.withLock { state in
      guard state.version == version, state.answers[key] == nil else { return }
      state.answers[key] = answer
      state.order.append(key)
      state.bytes += Self.size(of: key, body)
      while state.bytes > budget, state.oldest < state.order.count {
        let old = state.order[state.oldest]
        state.oldest += 1
        if let dropped = state.answers.removeValue(forKey: old) {
          state.bytes -= Self.size(of: old, dropped.body)
        }
      }
      if state.oldest > 1_024, state.oldest * 2 > state.order.count {
        state.order.removeFirst(state.oldest)
        state.oldest = 0
      }
    }
    return answer
  }

  /// How many answers are kept (for tests).
  var count: Int { state.withLock { $0.answers.count } }

  /// The catalog's version: the one known while it is fresh (or while another request asks the
  /// store), else the store's, dropping every answer when it changed.
  private func currentVersion() async throws -> String {
    let now = now()
    let known: String? = state.withLock { state in
      if let version = state.version, state.checking || now < state.checkedAt + recheck {
        return version
      }
      state.checking = true
      return nil
    }
    if let known { return known }
    do {
      let version = try await store.version()
      state.withLock { state in
        state.checking = false
        state.checkedAt = now
        if state.version != version {
          state.version = version
          state.answers = [:]
          state.order = []
          state.oldest = 0
          state.bytes = 0
        }
      }
      return version
    } catch {
      state.withLock { $0.checking = false }
      throw error
    }
  }

  /// What an answer holds in memory, roughly: its body and its key's text.
  private static func size(of key: Key, _ body: ByteBuffer) -> Int {
    switch key {
    case .page(let query, _, _, let base): body.readableBytes + query.utf8.count + base.utf8.count
    case .detail(let id, let base): body.readableBytes + id.utf8.count + base.utf8.count
    }
  }

  static func entityTag(_ body: ByteBuffer) -> String {
    HTTPCachingMiddleware<ServerContext>.entityTag(body.readableBytesView)
  }
}
