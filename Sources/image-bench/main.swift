// image-bench: times the image pipeline for bench/bench.py, in-process (no terminal needed).
//
//   image-bench [--images DIR] [--thumbnails DIR] [--runs N]
//
// Prints `name: value` lines:
//   eight_tiles_first_ms / eight_tiles_median_ms / eight_tiles_min_ms: the list of 8 images
//     (latency 0) → all 8 tiles decoded, scaled, quantised and drawn into an 80x24 grid of
//     2 columns; the first run is cold (tables built on first use), the others use fresh caches.
//   grid_bytes_256 / grid_bytes_8 / grid_bytes_shades: GridBytes' estimate of the bytes a full
//     redraw of the 4 visible tiles sends, for each kind of colour.
//   fifty_images_ms / peak_rss_mib: 50 images (the samples and thumbnails, cycled) listed and
//     all turned into tiles; the process's peak resident memory (VmHWM) after that.
import MyworkoutCore
import MyworkoutImages
import MyworkoutView

#if canImport(Glibc)
  import Glibc
#endif

/// The layout assumed for an 80x24 screen: heading and a blank line, then rows of 2 tiles
/// (38 columns each, 2 apart, so 2 + 38 + 2 + 38 = 80) of 8 picture rows, a caption and a
/// blank line; 2 rows of tiles are visible.
enum Layout {
  static let screen = (width: 80, height: 24)
  static let tile = TileSize(columns: 38, rows: 8)
  static let top = 2
  static let rowHeight = 10

  static func origin(of index: Int) -> (row: Int, column: Int) {
    (top + index / 2 * rowHeight, 1 + index % 2 * 40)
  }
}

func option(_ name: String, default value: String) -> String {
  let arguments = CommandLine.arguments
  guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return value }
  return arguments[at + 1]
}

/// Milliseconds to one decimal.
func milliseconds(_ duration: Duration) -> Double {
  let value =
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  return (value * 10).rounded() / 10
}

/// A path made absolute against the working directory.
func absolute(_ path: String) -> String {
  guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
  defer { free(cwd) }
  return String(cString: cwd) + "/" + path
}

/// Lists, decodes every tile (concurrently, through the cache) and draws the grid.
func tiles(service: any ImageService, count: Int, colors: PictureColors) async throws -> Grid {
  let images = Array(try await service.listImages().prefix(count))
  let cache = ImageCache(service: service)
  let outcomes = await withTaskGroup(of: (Int, ImageCache.Outcome).self) { group in
    for (index, image) in images.enumerated() {
      group.addTask { (index, await cache.picture(for: image, tile: Layout.tile, colors: colors)) }
    }
    return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
  }
  var grid = Grid(width: Layout.screen.width, height: Layout.screen.height)
  grid.put("Images", row: 0, column: 1, style: .heading)
  for (index, image) in images.enumerated() {
    let (row, column) = Layout.origin(of: index)
    guard row + Layout.rowHeight <= grid.height else { continue }
    switch outcomes[index] {
    case .success(let picture)?:
      grid.draw(picture, row: row, column: column)
    default:
      grid.put(ImageError.tileMessage, row: row, column: column, style: .hint)
    }
    grid.put(image.caption, row: row + Layout.tile.rows, column: column, style: .label)
  }
  return grid
}

func peakResidentMiB() -> Double {
  guard let file = fopen("/proc/self/status", "r") else { return -1 }
  defer { fclose(file) }
  var line = [CChar](repeating: 0, count: 256)
  while fgets(&line, Int32(line.count), file) != nil {
    let text = String(
      decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if text.hasPrefix("VmHWM:") {
      let kib = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
      return (Double(kib) / 1024 * 10).rounded() / 10
    }
  }
  return -1
}

/// A folder of `count` symbolic links cycling through the given files.
func folderOfLinks(to files: [String], count: Int) -> String? {
  var template = Array("/tmp/image-bench-XXXXXX".utf8CString)
  guard !files.isEmpty, let made = mkdtemp(&template) else { return nil }
  let folder = String(cString: made)
  for n in 0..<count {
    let file = files[n % files.count]
    let name = String(n + 100) + "-" + (file.split(separator: "/").last.map(String.init) ?? "x")
    symlink(file, folder + "/" + name)
  }
  return folder
}

func removeLinks(in folder: String) {
  guard let stream = opendir(folder) else { return }
  while let entry = readdir(stream) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name != "." && name != ".." { unlink(folder + "/" + name) }
  }
  closedir(stream)
  rmdir(folder)
}

let imagesDirectory = option("--images", default: "Assets/images")
let thumbnailsDirectory = option("--thumbnails", default: "../shared/data/steezy")
let runs = max(1, Int(option("--runs", default: "5")) ?? 5)
let clock = ContinuousClock()
let assets = DirectoryImageService(directory: imagesDirectory, clock: clock, latency: .zero)

var durations: [Double] = []
var grid = Grid(width: 0, height: 0)
for _ in 0...runs {
  let started = clock.now
  grid = try await tiles(service: assets, count: 8, colors: .xterm256)
  durations.append(milliseconds(clock.now - started))
}
let first = durations.removeFirst()
durations.sort()
print("eight_tiles_first_ms: \(first)")
print("eight_tiles_median_ms: \(durations[durations.count / 2])")
print("eight_tiles_min_ms: \(durations[0])")
print("grid_bytes_256: \(GridBytes.estimate(grid))")
for (name, colors) in [("8", PictureColors.basic8), ("shades", .shades)] {
  let drawn = try await tiles(service: assets, count: 8, colors: colors)
  print("grid_bytes_\(name): \(GridBytes.estimate(drawn))")
}

let sources = try await assets.listImages().compactMap { image -> String? in
  guard case .file(let path) = image.location else { return nil }
  return absolute(path)
}
let thumbnails = (1...3).map { thumbnailsDirectory + "/class-thumbnail-\($0).jpg" }
  .filter { access($0, R_OK) == 0 }
  .map(absolute)
if let folder = folderOfLinks(to: sources + thumbnails, count: 50) {
  defer { removeLinks(in: folder) }
  let fifty = DirectoryImageService(directory: folder, clock: clock, latency: .zero)
  let started = clock.now
  _ = try await tiles(service: fifty, count: 50, colors: .xterm256)
  print("fifty_images_ms: \(milliseconds(clock.now - started))")
  print("fifty_images_thumbnails: \(thumbnails.count)")
}
print("peak_rss_mib: \(peakResidentMiB())")
