import MyworkoutCore
import MyworkoutImages
import Synchronization

/// Set once, read from any task.
final class Finished: Sendable {
  private let value = Mutex(false)
  var isSet: Bool { value.withLock { $0 } }
  func set() { value.withLock { $0 = true } }
}

/// An image service over bytes in memory that counts how often each image's bytes are asked
/// for; `gate`, when set, holds every `bytes(of:)` until it is opened.
final class CountingService: ImageService {
  private let files: [String: [UInt8]]
  private let counts = Mutex<[String: Int]>([:])

  init(_ files: [String: [UInt8]]) {
    self.files = files
  }

  static func info(_ id: String) -> ImageInfo {
    ImageInfo(id: id, caption: id, location: .file("/memory/" + id))
  }

  func listImages() async throws -> [ImageInfo] {
    files.keys.sorted().map(Self.info)
  }

  func bytes(of image: ImageInfo) async throws -> [UInt8] {
    counts.withLock { $0[image.id, default: 0] += 1 }
    guard let bytes = files[image.id] else { throw ImageError.unreadable(image.id) }
    return bytes
  }

  func reads(of id: String) -> Int {
    counts.withLock { $0[id, default: 0] }
  }
}
