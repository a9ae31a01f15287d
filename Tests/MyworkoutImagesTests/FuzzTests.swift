import MyworkoutCore
import MyworkoutImages
import TestProcesses
import Testing

/// Truncated and bit-flipped versions of every sample (fixed seed, so a failure repeats) go
/// through the whole tile pipeline: each either gives a picture or an `ImageError`, and none
/// takes long. A crash or a hang in the wrappers would stop or time out this test.
@Suite(.timeLimit(.minutes(5))) struct FuzzTests {
  static let variantsPerSample = 40
  static let samples: [String] =
    Sample.all.map(\.path)
    + (steezyPresent ? (1...3).map { steezyDirectory + "/class-thumbnail-\($0).jpg" } : [])

  /// Half the variants are cut at a random length, half have 1 to 8 random bits flipped
  /// (half of those within the first 600 bytes, where the headers and tables are).
  static func variants(of bytes: [UInt8], using random: inout SplitMix64) -> [[UInt8]] {
    (0..<variantsPerSample).map { n in
      if n % 2 == 0 { return Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random))) }
      var damaged = bytes
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        let limit = n % 4 == 1 ? min(600, bytes.count) : bytes.count
        damaged[Int.random(in: 0..<limit, using: &random)] ^=
          1 << UInt8.random(in: 0..<8, using: &random)
      }
      return damaged
    }
  }

  @Test func damagedSamplesNeverCrashOrHang() {
    var random = SplitMix64(seed: 0x1D3A_5EED)
    let clock = ContinuousClock()
    let tile = TileSize(columns: 38, rows: 9)
    var decoded = 0
    var refused = 0
    for path in Self.samples {
      let bytes = fileBytes(path)
      for (n, variant) in Self.variants(of: bytes, using: &random).enumerated() {
        let started = clock.now
        do throws(ImageError) {
          let picture = try HalfBlockPicture.decoding(bytes: variant, tile: tile, colors: .xterm256)
          #expect(picture.cells.count == picture.columns * picture.rows)
          #expect(picture.columns <= tile.columns && picture.rows <= tile.rows)
          decoded += 1
        } catch {
          #expect(!error.description.isEmpty)
          refused += 1
        }
        let elapsed = clock.now - started
        #expect(elapsed < .seconds(5), "\(path) variant \(n) took \(elapsed)")
      }
    }
    #expect(decoded + refused == Self.samples.count * Self.variantsPerSample)
    // Both outcomes occur: cuts near the end and flips in ignorable places still decode.
    #expect(decoded > 0 && refused > 0, "decoded \(decoded), refused \(refused)")
  }
}
