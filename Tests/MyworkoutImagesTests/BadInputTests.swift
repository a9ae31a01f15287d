import Foundation
import MyworkoutCore
import MyworkoutImages
import Synchronization
import Testing

/// Damaged, truncated, empty, non-image, unreadable and oversized input each give their
/// `ImageError`, never a crash; oversized images are refused from the header alone.
@Suite struct BadInputTests {
  func decode(_ bytes: [UInt8], maxPixels: Int = ImageDecoder.maxPixels) -> ImageError? {
    do {
      _ = try ImageDecoder.decode(bytes: bytes, maxPixels: maxPixels)
      return nil
    } catch {
      return error
    }
  }

  @Test func emptyBytes() {
    #expect(decode([]) == .empty)
  }

  @Test func textIsNotAnImage() {
    #expect(decode(Array("just some text, not a picture\n".utf8)) == .notAnImage)
    #expect(decode([0x89, 0x50]) == .notAnImage)
  }

  @Test func aPNGCutShortIsTruncated() {
    let bytes = fileBytes(assetsDirectory + "/aurora.png")
    for length in [8, 20, 33, 100, bytes.count / 2, bytes.count - 13] {
      guard case .truncated = decode(Array(bytes.prefix(length))) else {
        Issue.record("\(length) bytes: \(String(describing: decode(Array(bytes.prefix(length)))))")
        continue
      }
    }
  }

  @Test func aJPEGCutShortIsTruncated() {
    for name in ["mountains.jpg", "city-night-progressive.jpg"] {
      let bytes = fileBytes(assetsDirectory + "/" + name)
      for length in [3, 100, bytes.count / 2, bytes.count - 300] {
        let error = decode(Array(bytes.prefix(length)))
        guard case .truncated = error else {
          Issue.record("\(name) cut to \(length) bytes: \(String(describing: error))")
          continue
        }
      }
    }
  }

  @Test func aPNGWithAFlippedBitIsDamaged() {
    var bytes = fileBytes(assetsDirectory + "/aurora.png")
    bytes[bytes.count / 2] ^= 0x10  // inside the image data: its CRC no longer matches
    guard case .damaged(let reason) = decode(bytes) else {
      Issue.record("\(String(describing: decode(bytes)))")
      return
    }
    #expect(reason.hasPrefix("PNG: "))
  }

  @Test func aJPEGWithoutImageDataIsDamagedOrTruncated() {
    let error = decode([0xFF, 0xD8, 0xFF, 0xD9])  // start and end markers, nothing between
    #expect(error != nil)
  }

  @Test func anOversizedPNGHeaderIsRefusedBeforeDecoding() {
    // Nothing follows the header: decoding would have reported a truncated file instead.
    let bytes = CraftedFiles.pngHeader(width: 10_000, height: 10_000)
    #expect(decode(bytes) == .tooLarge(width: 10_000, height: 10_000))
    #expect(ImageError.tooLarge(width: 10_000, height: 10_000).description.contains("40"))
  }

  @Test func fortyMegapixelsExactlyIsAllowedOneColumnMoreIsNot() {
    guard case .truncated = decode(CraftedFiles.pngHeader(width: 8000, height: 5000)) else {
      Issue.record("40,000,000 pixels should pass the limit and then find no image data")
      return
    }
    #expect(
      decode(CraftedFiles.pngHeader(width: 8001, height: 5000))
        == .tooLarge(width: 8001, height: 5000))
  }

  @Test func anOversizedJPEGHeaderIsRefusedBeforeDecoding() {
    for name in ["mountains.jpg", "city-night-progressive.jpg"] {
      let bytes = CraftedFiles.jpeg(
        fileBytes(assetsDirectory + "/" + name), claiming: 10_000, 10_000)
      #expect(decode(bytes) == .tooLarge(width: 10_000, height: 10_000), "\(name)")
    }
  }

  @Test func theLimitCanBeLowered() {
    let bytes = fileBytes(assetsDirectory + "/aurora.png")
    #expect(decode(bytes, maxPixels: 240 * 160 - 1) == .tooLarge(width: 240, height: 160))
    #expect(decode(bytes, maxPixels: 240 * 160) == nil)
  }

  @Test func unreadablePaths() {
    for path in [assetsDirectory + "/no-such-file.png", assetsDirectory] {
      #expect(throws: ImageError.self) { try ImageDecoder.decode(path: path) }
      do {
        _ = try ImageDecoder.decode(path: path)
      } catch {
        guard case .unreadable = error else {
          Issue.record("\(path): \(error)")
          continue
        }
      }
    }
  }

  @Test func aScriptIsNotAnImage() {
    #expect(throws: ImageError.notAnImage) {
      try ImageDecoder.decode(path: assetsDirectory + "/make-images.py")
    }
  }

  @Test func everyErrorShowsTheSameTileMessage() {
    #expect(ImageError.tileMessage == "Can't show this image")
  }
}

/// A FIFO where an image (or a class's thumbnail) should be is refused at once. A walk-through
/// put one in `--images-dir` and named one as a thumbnail: opening it waited for a writer for
/// ever, each time holding one of the two drawing threads, and every picture after that stayed
/// `Loading…` for the rest of the session.
@Suite struct FIFOTests {
  @Test func aFIFOIsUnreadableWithoutWaitingForAWriter() async throws {
    try await withTemporaryFolder { folder in
      let path = folder + "/fifo.jpg"
      try #require(mkfifo(path, 0o600) == 0)
      let result = Mutex<Result<[UInt8], ImageError>?>(nil)
      let reader = Thread {
        let read = Result { () throws(ImageError) in try FileBytes.read(path, limit: 1 << 20) }
        result.withLock { $0 = read }
      }
      reader.start()
      let deadline = ContinuousClock.now + .seconds(5)
      while result.withLock({ $0 == nil }), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }
      let waited = result.withLock { $0 == nil }
      #expect(!waited, "the read waited for a writer")
      if waited {
        // A writer comes and goes: the read ends (the test does not hang).
        let writer = open(path, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        return
      }
      guard case .failure(.unreadable(let reason)) = result.withLock({ $0 }) else {
        Issue.record("\(String(describing: result.withLock { $0 }))")
        return
      }
      #expect(reason.contains("not a file"), "\(reason)")
    }
  }
}
