import MyworkoutCore
import MyworkoutView
import Synchronization

/// Pictures ready to draw, keyed by image, tile size and colours, so that each image is
/// decoded once per size. Decoding runs off the main thread (in a detached task, so that up to
/// one decode per core runs at once); concurrent requests for the same key share one decode,
/// and a decode nobody waits for any more when its turn comes is not started.
/// A decoding failure is kept too: a bad file fails the same way next time without being read
/// again; a failure to fetch the bytes (a file gone, a network error) is not kept.
/// Entries past `byteLimit` (an estimate of their memory) are dropped, least recently used
/// first.
package actor ImageCache {
  package struct Key: Hashable, Sendable {
    package let imageID: String
    package let tile: TileSize
    package let colors: PictureColors

    package init(imageID: String, tile: TileSize, colors: PictureColors) {
      self.imageID = imageID
      self.tile = tile
      self.colors = colors
    }
  }

  package typealias Outcome = Result<HalfBlockPicture, ImageError>

  private struct Entry {
    let outcome: Outcome
    let cost: Int
    var lastUse: UInt64
  }

  private let service: any ImageService
  package let byteLimit: Int
  private var entries: [Key: Entry] = [:]
  private var running: [Key: Task<Made, Never>] = [:]
  private var clock: UInt64 = 0
  package private(set) var bytesUsed = 0
  /// How many decodes were set going: each key's first request, and a request after eviction
  /// (one not started, as nobody waited for it any more when its turn came, counts too).
  package private(set) var decodeCount = 0

  /// Decodes run on `executor` (the app's own threads; nil: Swift's global pool).
  private let executor: (any TaskExecutor)?

  package init(
    service: any ImageService, byteLimit: Int = 4 << 20, executor: (any TaskExecutor)? = nil
  ) {
    self.service = service
    self.byteLimit = byteLimit
    self.executor = executor
  }

  /// How many requests wait for each key's decode, read by the decode as its turn comes (on
  /// its own thread, hence a lock and not the actor).
  private let waiting = Waiting()

  private final class Waiting: Sendable {
    private let counts = Mutex<[Key: Int]>([:])

    func join(_ key: Key) { counts.withLock { $0[key, default: 0] += 1 } }

    func leave(_ key: Key) {
      counts.withLock { counts in
        let left = counts[key, default: 1] - 1
        counts[key] = left > 0 ? left : nil
      }
    }

    func anyone(_ key: Key) -> Bool { counts.withLock { $0[key] != nil } }
  }

  /// The picture for an image in a tile of a size: cached, or fetched and decoded now. A decode
  /// whose every request was cancelled before its turn came is not started (scrolled past, a
  /// thumbnail passed over); one under way finishes and is cached, for the next request.
  package func picture(for image: ImageInfo, tile: TileSize, colors: PictureColors) async
    -> Outcome
  {
    let key = Key(imageID: image.id, tile: tile, colors: colors)
    while true {
      if let outcome = cached(key) { return outcome }
      // Counted before the decode can start, so that it never finds this request missing.
      waiting.join(key)
      let task = running[key] ?? start(key, image: image)
      let waiting = self.waiting
      let made = await withTaskCancellationHandler {
        await task.value
      } onCancel: {
        waiting.leave(key)
      }
      if !Task.isCancelled { waiting.leave(key) }
      if running[key] == task {
        running[key] = nil
        if made.keep { store(made.outcome, for: key) }
      }
      // Not started, as nobody waited when its turn came, and this request came after that
      // look: it starts one.
      if made.skipped, !Task.isCancelled { continue }
      return made.outcome
    }
  }

  private func start(_ key: Key, image: ImageInfo) -> Task<Made, Never> {
    decodeCount += 1
    let service = service
    let waiting = waiting
    let task = Task.detached(executorPreference: executor, priority: .userInitiated) {
      guard waiting.anyone(key) else {
        return Made(outcome: .failure(.unreadable("no longer wanted")), keep: false, skipped: true)
      }
      return await Self.make(image, tile: key.tile, colors: key.colors, service: service)
    }
    running[key] = task
    return task
  }

  /// The picture if it is ready, without starting anything.
  package func cached(_ key: Key) -> Outcome? {
    guard var entry = entries[key] else { return nil }
    clock += 1
    entry.lastUse = clock
    entries[key] = entry
    return entry.outcome
  }

  private func store(_ outcome: Outcome, for key: Key) {
    guard entries[key] == nil else { return }
    let cost = Self.cost(of: outcome)
    clock += 1
    entries[key] = Entry(outcome: outcome, cost: cost, lastUse: clock)
    bytesUsed += cost
    while bytesUsed > byteLimit, entries.count > 1,
      let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
    {
      bytesUsed -= oldest.value.cost
      entries[oldest.key] = nil
    }
  }

  /// A picture's cells plus a fixed overhead for the entry, key and arrays.
  private static func cost(of outcome: Outcome) -> Int {
    let cells = (try? outcome.get().cells.count) ?? 0
    return 256 + cells * MemoryLayout<HalfBlockPicture.Cell>.stride
  }

  /// An outcome, whether it is worth keeping (not when the bytes could not be had), and whether
  /// the decode was not started at all (nobody waited for it any more).
  private struct Made: Sendable {
    var outcome: Outcome
    var keep: Bool
    var skipped = false
  }

  private static func make(
    _ image: ImageInfo, tile: TileSize, colors: PictureColors, service: any ImageService
  ) async -> Made {
    let bytes: [UInt8]
    do {
      bytes = try await service.bytes(of: image)
    } catch let error as ImageError {
      return Made(outcome: .failure(error), keep: false)
    } catch {
      return Made(outcome: .failure(.unreadable(String(describing: error))), keep: false)
    }
    do throws(ImageError) {
      return Made(
        outcome: .success(try HalfBlockPicture.decoding(bytes: bytes, tile: tile, colors: colors)),
        keep: true)
    } catch {
      return Made(outcome: .failure(error), keep: true)
    }
  }
}
