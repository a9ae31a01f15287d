import Foundation
import MyworkoutCore
import MyworkoutImages
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The repository's root, from this file's path (Tests/MyworkoutImagesTests/Support/).
let repositoryRoot: String = {
  var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(4)
  return parts.joined(separator: "/")
}()

let assetsDirectory = repositoryRoot + "/Assets/images"
/// The brief's class thumbnails, beside the repository (never copied into it).
let steezyDirectory = repositoryRoot + "/../shared/data/steezy"

/// Whether the brief's thumbnails (`../shared/data/steezy`) are beside the repository: a
/// clone without them skips the tests that read them, and says why.
let steezyPresent = FileManager.default.fileExists(atPath: steezyDirectory)
let steezyMissing: Comment =
  "needs the brief's thumbnails in ../shared/data/steezy beside the repository"

/// One shipped image as Assets/images/make-images.py draws it: its size, and its 16x16
/// reference patch at the top-left as RGBA.
struct Sample: Sendable, CustomTestStringConvertible {
  let name: String
  let width: Int
  let height: Int
  let patch: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)
  let isJPEG: Bool

  var path: String { assetsDirectory + "/" + name }
  var testDescription: String { name }

  init(_ name: String, _ width: Int, _ height: Int, _ patch: (UInt8, UInt8, UInt8, UInt8)) {
    self.name = name
    self.width = width
    self.height = height
    self.patch = patch
    isJPEG = name.hasSuffix(".jpg")
  }

  /// The same table as PATCHES in make-images.py.
  static let all: [Sample] = [
    Sample("aurora.png", 240, 160, (255, 0, 0, 255)),
    Sample("stained-glass.png", 200, 150, (0, 0, 0, 0)),
    Sample("moon-grey.png", 180, 180, (200, 200, 200, 255)),
    Sample("ghost-grey-alpha.png", 120, 120, (255, 255, 255, 128)),
    Sample("leaf-alpha.png", 160, 160, (0, 255, 0, 64)),
    Sample("tide-interlaced.png", 200, 120, (0, 0, 255, 255)),
    Sample("dunes-16bit.png", 192, 128, (255, 255, 0, 255)),
    Sample("mountains.jpg", 320, 200, (255, 255, 255, 255)),
    Sample("city-night-progressive.jpg", 320, 180, (0, 255, 255, 255)),
    Sample("fog-grey.jpg", 240, 160, (64, 64, 64, 255)),
    Sample("poster-cmyk.jpg", 200, 200, (255, 0, 255, 255)),
  ]
}

/// The whole of a file, or a recorded issue and an empty array.
func fileBytes(_ path: String) -> [UInt8] {
  guard let file = fopen(path, "rb") else {
    Issue.record("cannot open \(path)")
    return []
  }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count == 0 { break }
    bytes += buffer[0..<count]
  }
  return bytes
}

/// A decoded image from RGBA tuples, row after row.
func image(width: Int, height: Int, _ pixels: [(UInt8, UInt8, UInt8, UInt8)]) -> DecodedImage {
  DecodedImage(width: width, height: height, pixels: pixels.flatMap { [$0.0, $0.1, $0.2, $0.3] })
}
