import MyworkoutCore
import MyworkoutImages
import Testing

/// Each image is decoded once per tile size and colours, also when asked for many times at
/// once; failures are kept; the memory bound drops the least recently used.
@Suite struct ImageCacheTests {
  let service = CountingService([
    "leaf.png": fileBytes(assetsDirectory + "/leaf-alpha.png"),
    "city.jpg": fileBytes(assetsDirectory + "/city-night-progressive.jpg"),
    "junk.png": Array("not really a PNG".utf8),
  ])
  let tile = TileSize(columns: 20, rows: 5)

  @Test func aSecondRequestComesFromTheCache() async throws {
    let cache = ImageCache(service: service)
    let first = try await cache.picture(
      for: CountingService.info("leaf.png"), tile: tile, colors: .xterm256
    ).get()
    let second = try await cache.picture(
      for: CountingService.info("leaf.png"), tile: tile, colors: .xterm256
    ).get()
    #expect(first == second)
    #expect(first.columns == 10 && first.rows == 5)
    #expect(await cache.decodeCount == 1)
    #expect(service.reads(of: "leaf.png") == 1)
    let key = ImageCache.Key(imageID: "leaf.png", tile: tile, colors: .xterm256)
    #expect(try await cache.cached(key)?.get() == first)
  }

  @Test func eachSizeAndColourKindIsItsOwnEntry() async {
    let cache = ImageCache(service: service)
    let leaf = CountingService.info("leaf.png")
    _ = await cache.picture(for: leaf, tile: tile, colors: .xterm256)
    _ = await cache.picture(for: leaf, tile: TileSize(columns: 30, rows: 8), colors: .xterm256)
    _ = await cache.picture(for: leaf, tile: tile, colors: .shades)
    _ = await cache.picture(for: leaf, tile: tile, colors: .xterm256)
    #expect(await cache.decodeCount == 3)
  }

  @Test func requestsAtOnceShareOneDecode() async {
    let cache = ImageCache(service: service)
    let city = CountingService.info("city.jpg")
    let tile = tile
    let pictures = await withTaskGroup(of: ImageCache.Outcome.self) { group in
      for _ in 0..<12 {
        group.addTask { await cache.picture(for: city, tile: tile, colors: .basic8) }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(pictures.count == 12)
    #expect(Set(pictures.map { try? $0.get() }).count == 1)
    #expect(await cache.decodeCount == 1)
    #expect(service.reads(of: "city.jpg") == 1)
  }

  @Test func aDecodingFailureIsKeptAndOthersAreUnaffected() async throws {
    let cache = ImageCache(service: service)
    let junk = await cache.picture(
      for: CountingService.info("junk.png"), tile: tile, colors: .xterm256)
    #expect(junk == .failure(.notAnImage))
    _ = await cache.picture(for: CountingService.info("junk.png"), tile: tile, colors: .xterm256)
    #expect(service.reads(of: "junk.png") == 1)
    let leaf = try await cache.picture(
      for: CountingService.info("leaf.png"), tile: tile, colors: .xterm256
    ).get()
    #expect(leaf.rows == 5)
  }

  @Test func aFetchFailureIsNotKept() async {
    let cache = ImageCache(service: service)
    for _ in 0..<2 {
      let missing = await cache.picture(
        for: CountingService.info("gone.png"), tile: tile, colors: .xterm256)
      #expect(missing == .failure(.unreadable("gone.png")))
    }
    #expect(service.reads(of: "gone.png") == 2)
  }

  @Test func theMemoryBoundDropsTheLeastRecentlyUsed() async {
    // Room for one of these pictures (about 400 and 530 bytes): a second evicts the first.
    let cache = ImageCache(service: service, byteLimit: 600)
    let leaf = CountingService.info("leaf.png")
    let city = CountingService.info("city.jpg")
    _ = await cache.picture(for: leaf, tile: tile, colors: .xterm256)
    _ = await cache.picture(for: city, tile: tile, colors: .xterm256)
    #expect(await cache.bytesUsed <= 600)
    #expect(
      await cache.cached(ImageCache.Key(imageID: "leaf.png", tile: tile, colors: .xterm256)) == nil)
    _ = await cache.picture(for: leaf, tile: tile, colors: .xterm256)
    #expect(await cache.decodeCount == 3)
    #expect(service.reads(of: "leaf.png") == 2)
  }
}
