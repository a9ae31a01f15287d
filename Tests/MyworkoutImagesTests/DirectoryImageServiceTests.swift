import Clocks
import MyworkoutCore
import MyworkoutImages
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The embedded image service over a folder: what it lists, in which order, its latency on the
/// injected clock, cancellation, and its errors.
@Suite struct DirectoryImageServiceTests {
  /// Returns once something sleeps on the clock.
  func waitForSleeper(_ clock: TestClock<Duration>) async {
    for _ in 0..<100_000 {
      do {
        try await clock.checkSuspension()
      } catch {
        return
      }
      await Task.yield()
    }
    Issue.record("nothing started sleeping on the test clock")
  }

  @Test func theAssetsListSortedWithCaptionsAndSizes() async throws {
    let service = DirectoryImageService(directory: assetsDirectory, clock: ImmediateClock())
    let images = try await service.listImages()
    #expect(images.map(\.id) == Sample.all.map(\.name).sorted())
    #expect(images.count >= 8)
    let moon = try #require(images.first { $0.id == "moon-grey.png" })
    #expect(moon.caption == "moon-grey")
    #expect(moon.location == .file(assetsDirectory + "/moon-grey.png"))
    #expect(moon.size == PixelSize(width: 180, height: 180))
    for (image, sample) in zip(images, Sample.all.sorted { $0.name < $1.name }) {
      #expect(image.size == PixelSize(width: sample.width, height: sample.height))
    }
  }

  @Test func onlyPNGAndJPEGFilesAreListed() async throws {
    try await withTemporaryFolder { folder in
      let png = fileBytes(assetsDirectory + "/ghost-grey-alpha.png")
      for name in ["b.png", "A.JPG", "c.jpeg", "notes.txt", ".hidden.png", "png", "broken.png"] {
        write(name == "broken.png" ? [1, 2, 3] : png, to: folder + "/" + name)
      }
      #expect(mkdir(folder + "/folder.png", 0o700) == 0)
      let service = DirectoryImageService(directory: folder + "/", clock: ImmediateClock())
      let images = try await service.listImages()
      #expect(images.map(\.id) == ["A.JPG", "b.png", "broken.png", "c.jpeg"])
      #expect(images.map(\.caption) == ["A", "b", "broken", "c"])
      // Listed by name; what is inside is the tile's business (its size is just unknown).
      #expect(images[2].size == nil)
      #expect(images[1].size == PixelSize(width: 120, height: 120))
      #expect(try await service.bytes(of: images[1]) == png)
    }
  }

  @Test func listingTakesTheLatencyOnTheInjectedClock() async throws {
    let clock = TestClock()
    let service = DirectoryImageService(
      directory: assetsDirectory, clock: clock, latency: .milliseconds(300))
    let finished = Finished()
    let task = Task {
      defer { finished.set() }
      return try await service.listImages()
    }
    await waitForSleeper(clock)
    await clock.advance(by: .milliseconds(299))
    for _ in 0..<100 { await Task.yield() }
    #expect(!finished.isSet)
    await clock.advance(by: .milliseconds(1))
    _ = try await task.value
    #expect(finished.isSet)
  }

  @Test func listingCanBeCancelled() async {
    let clock = TestClock()
    let service = DirectoryImageService(directory: assetsDirectory, clock: clock)
    let task = Task { try await service.listImages() }
    await waitForSleeper(clock)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func aMissingFolderCannotBeListed() async {
    let service = DirectoryImageService(
      directory: assetsDirectory + "/nowhere", clock: ImmediateClock())
    await #expect(throws: ImageServiceError.self) { try await service.listImages() }
    let error = await #expect(throws: ImageServiceError.self) { try await service.listImages() }
    #expect(error?.description.contains("No such file or directory") == true)
  }

  @Test func theBytesOfAMissingFileAreAnImageError() async {
    let service = DirectoryImageService(directory: assetsDirectory, clock: ImmediateClock())
    let gone = ImageInfo(id: "gone.png", caption: "gone", location: .file("/nonexistent/gone.png"))
    await #expect(throws: ImageError.self) { try await service.bytes(of: gone) }
    let remote = ImageInfo(id: "1", caption: "Alejandro", location: .url("http://127.0.0.1/1"))
    await #expect(throws: ImageError.self) { try await service.bytes(of: remote) }
  }
}
