import MyworkoutCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The embedded image service: the PNG and JPEG files of one folder (the project's
/// `Assets/images/`, or `--images-dir DIR`), sorted by name, captioned with the file name
/// without its extension. Listing pays a deliberate latency on an injected clock, like every
/// embedded mock, while the folder is read off the main actor; the bytes come at once.
package struct DirectoryImageService: ImageService {
  package let directory: String
  let clock: any Clock<Duration>
  let latency: Duration

  /// Header bytes read per file to learn its size for the list (larger JPEG headers, with
  /// big embedded previews, leave the size unknown).
  static let probeBytes = 128 << 10
  static let extensions: Set<String> = ["png", "jpg", "jpeg"]

  package init(directory: String, clock: any Clock<Duration>, latency: Duration = .seconds(1)) {
    self.directory = directory
    self.clock = clock
    self.latency = latency
  }

  package func listImages() async throws -> [ImageInfo] {
    async let listed = Self.list(directory)
    try await clock.sleep(for: latency)
    try Task.checkCancellation()
    return try await listed
  }

  package func bytes(of image: ImageInfo) async throws -> [UInt8] {
    guard case .file(let path) = image.location else {
      throw ImageError.unreadable("not a file: \(image.id)")
    }
    return try await Self.read(path)
  }

  /// Reads the folder; nonisolated and async, so it runs on the global executor.
  static func list(_ directory: String) async throws -> [ImageInfo] {
    guard let stream = opendir(directory) else {
      throw ImageServiceError.cannotList("\(directory): \(String(cString: strerror(errno)))")
    }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if entry.pointee.d_type != DT_DIR, !name.hasPrefix("."),
        extensions.contains(fileExtension(name).lowercased())
      {
        names.append(name)
      }
    }
    closedir(stream)
    names.sort()
    var images: [ImageInfo] = []
    for name in names {
      try Task.checkCancellation()
      let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      let size = try? ImageDecoder.header(bytes: FileBytes.prefix(path, count: probeBytes)).size
      let caption = String(name.dropLast(fileExtension(name).count + 1))
      images.append(ImageInfo(id: name, caption: caption, location: .file(path), size: size))
    }
    return images
  }

  static func read(_ path: String) async throws(ImageError) -> [UInt8] {
    try FileBytes.read(path, limit: ImageDecoder.maxFileBytes)
  }

  private static func fileExtension(_ name: String) -> Substring {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return name[name.index(after: dot)...]
  }
}
