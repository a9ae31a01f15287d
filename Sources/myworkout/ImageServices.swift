import MyworkoutCore
import MyworkoutImages

/// The image services (SPEC §14): the Images screen's list and its pictures (decoded off the
/// main thread and cached per tile size by an `ImageCache`), and the class thumbnails found by
/// `thumbnailSlug` in the catalog file's folder, through a cache of their own.
struct ImageServices: Sendable {
  let list: any ImageService
  let pictures: ImageCache
  /// The catalog file's folder; nil when unknown (no thumbnails then).
  let thumbnailFolder: String?
  let thumbnails: ImageCache

  /// Decodes run on `workers` when given (the app's threads for drawing), else on Swift's pool.
  init(images: any ImageService, thumbnailFolder: String?, workers: WorkerThreads? = nil) {
    list = images
    pictures = ImageCache(service: images, executor: workers)
    self.thumbnailFolder = thumbnailFolder
    // Thumbnails are read straight from their files: no latency (and no sleep on Dispatch's
    // pool for it).
    let clock: any Clock<Duration> = workers.map { WorkerClock(workers: $0) } ?? ContinuousClock()
    thumbnails = ImageCache(
      service: DirectoryImageService(
        directory: thumbnailFolder ?? "/", clock: clock, latency: .zero),
      executor: workers)
  }

  /// The thumbnail file a slug names, if it is a plain file name (a slug from a classes file
  /// never reaches outside the catalog's folder).
  func thumbnail(_ slug: String) -> ImageInfo? {
    guard let folder = thumbnailFolder, !slug.isEmpty, slug != ".", slug != "..",
      !slug.contains("/"), !slug.contains("\0")
    else { return nil }
    return ImageInfo(id: slug, caption: slug, location: .file(folder + "/" + slug))
  }

  /// The folder a file is in (`.` for a bare name).
  static func folder(of file: String) -> String {
    guard let slash = file.lastIndex(of: "/") else { return "." }
    return slash == file.startIndex ? "/" : String(file[..<slash])
  }
}
