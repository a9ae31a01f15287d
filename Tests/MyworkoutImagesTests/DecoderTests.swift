import MyworkoutCore
import MyworkoutImages
import Testing

/// Every shipped image and the brief's thumbnails decode at their known size, with the right
/// colours for each kind of file (palette, grey, grey+alpha, alpha, interlaced, 16-bit,
/// baseline, progressive, greyscale and CMYK JPEG).
@Suite struct DecoderTests {
  @Test(arguments: Sample.all)
  func eachShippedImageDecodesAtItsSize(sample: Sample) throws {
    let image = try ImageDecoder.decode(path: sample.path)
    #expect(image.width == sample.width)
    #expect(image.height == sample.height)
    #expect(image.sourceSize == PixelSize(width: sample.width, height: sample.height))
    #expect(image.pixels.count == sample.width * sample.height * 4)
  }

  @Test(arguments: Sample.all)
  func theReferencePatchHasItsColour(sample: Sample) throws {
    let image = try ImageDecoder.decode(path: sample.path)
    let pixel = image.rgba(x: 8, y: 8)
    // PNG is lossless; JPEG's compression moves a flat patch's colour by a few levels.
    let tolerance = sample.isJPEG ? 8 : 0
    let expected = sample.patch
    for (got, want) in [
      (pixel.r, expected.r), (pixel.g, expected.g), (pixel.b, expected.b), (pixel.a, expected.a),
    ] {
      #expect(abs(Int(got) - Int(want)) <= tolerance, "\(sample.name): \(pixel) vs \(expected)")
    }
  }

  @Test func greyImagesComeOutWithEqualChannels() throws {
    for name in ["moon-grey.png", "fog-grey.jpg", "ghost-grey-alpha.png"] {
      let image = try ImageDecoder.decode(path: assetsDirectory + "/" + name)
      for y in stride(from: 0, to: image.height, by: 7) {
        for x in stride(from: 0, to: image.width, by: 7) {
          let pixel = image.rgba(x: x, y: y)
          #expect(pixel.r == pixel.g && pixel.g == pixel.b, "\(name) at \(x),\(y): \(pixel)")
        }
      }
    }
  }

  @Test func opaqueKindsAreFullyOpaque() throws {
    for name in ["aurora.png", "moon-grey.png", "tide-interlaced.png", "dunes-16bit.png"] {
      let image = try ImageDecoder.decode(path: assetsDirectory + "/" + name)
      #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
    }
  }

  @Test func transparencyIsKeptForEachKind() throws {
    // The palette's transparent entry, grey+alpha and RGBA each leave some pixels see-through.
    for name in ["stained-glass.png", "ghost-grey-alpha.png", "leaf-alpha.png"] {
      let image = try ImageDecoder.decode(path: assetsDirectory + "/" + name)
      let alphas = Set(stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] })
      #expect(alphas.contains(0) && alphas.contains(255), "\(name): \(alphas.sorted())")
    }
  }

  @Test(.enabled(if: steezyPresent, steezyMissing), arguments: 1...3)
  func theBriefsThumbnailsDecode(number: Int) throws {
    let image = try ImageDecoder.decode(
      path: steezyDirectory + "/class-thumbnail-\(number).jpg")
    #expect(image.size == PixelSize(width: 1200, height: 675))
  }

  /// The 1200x675 thumbnail: the largest reduction that still covers the box on one axis
  /// (38x18: 1/8 gives 150x85; 200x100: 1/4 gives 300x169; 1000x600: none is enough).
  @Test(
    .enabled(if: steezyPresent, steezyMissing),
    arguments: [
      (PixelSize(width: 38, height: 18), PixelSize(width: 150, height: 85)),
      (PixelSize(width: 150, height: 10), PixelSize(width: 150, height: 85)),
      (PixelSize(width: 200, height: 100), PixelSize(width: 300, height: 169)),
      (PixelSize(width: 500, height: 300), PixelSize(width: 600, height: 338)),
      (PixelSize(width: 1000, height: 600), PixelSize(width: 1200, height: 675)),
      (PixelSize(width: 4000, height: 3000), PixelSize(width: 1200, height: 675)),
    ])
  func aJPEGIsDecodedAtReducedScaleWhenThatIsEnough(box: PixelSize, decoded: PixelSize) throws {
    let image = try ImageDecoder.decode(
      path: steezyDirectory + "/class-thumbnail-1.jpg", fittingAtLeast: box)
    #expect(image.size == decoded)
    #expect(image.sourceSize == PixelSize(width: 1200, height: 675))
    // Fitting the reduced image into the box never enlarges it (up to the even rounding).
    if image.size != image.sourceSize {
      let fitted = TileSize(columns: box.width, rows: box.height / 2).fitted(image.sourceSize)
      #expect(image.width >= fitted.width && image.height >= fitted.height - 1)
    }
  }

  @Test func aPNGIsAlwaysDecodedAtFullSize() throws {
    let image = try ImageDecoder.decode(
      path: assetsDirectory + "/aurora.png", fittingAtLeast: PixelSize(width: 10, height: 10))
    #expect(image.size == PixelSize(width: 240, height: 160))
  }

  @Test func theHeaderGivesFormatAndSizeWithoutDecoding() throws {
    let png = try ImageDecoder.header(bytes: fileBytes(assetsDirectory + "/tide-interlaced.png"))
    #expect(png == ImageHeader(format: .png, size: PixelSize(width: 200, height: 120)))
    let jpeg = try ImageDecoder.header(bytes: fileBytes(assetsDirectory + "/poster-cmyk.jpg"))
    #expect(jpeg == ImageHeader(format: .jpeg, size: PixelSize(width: 200, height: 200)))
  }
}
