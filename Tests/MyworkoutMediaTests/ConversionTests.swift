import CMedia
import Testing

/// The decoded picture scaled and turned into RGB24 (`mw_media_convert`), pixel by pixel, at
/// widths that are and are not a multiple of four (the copy from the scaler's RGBA goes four
/// pixels at a time, the rest one by one).
@Suite struct ConversionTests {
  typealias Source = SeekDecodingTests.Source

  /// A grey ramp without loss (FFV1): each column a lighter grey than the one on its left, so a
  /// byte taken from a neighbour shows as a pixel whose channels differ or a step that goes down.
  @Test(arguments: [30, 28, 16, 13, 5, 4, 3, 1])
  func aGreyRampKeepsEveryPixelInPlace(width: Int) async throws {
    let clip = try await Clips.make(
      "grey-ramp.mkv",
      [
        "-f", "lavfi", "-i", "color=c=black:s=30x20:r=1,format=gray,geq=lum='16+X*7'", "-t", "1",
        "-c:v", "ffv1",
      ])
    let source = try Source(clip)
    #expect(source.nextPicture() != nil)
    let height = 20
    var rgb = [UInt8](repeating: 0xAA, count: width * height * 3 + 3)
    let converted = rgb.withUnsafeMutableBufferPointer {
      mw_media_convert(source.media, Int32(width), Int32(height), $0.baseAddress!)
    }
    #expect(converted == 0)
    #expect(rgb.suffix(3) == [0xAA, 0xAA, 0xAA], "nothing written past the picture")
    for y in 0..<height {
      var left = -1
      for x in 0..<width {
        let at = (y * width + x) * 3
        let (r, g, b) = (Int(rgb[at]), Int(rgb[at + 1]), Int(rgb[at + 2]))
        #expect(r == g && g == b, "a grey pixel at (\(x), \(y)): \(r) \(g) \(b)")
        #expect(r > left, "lighter to the right at (\(x), \(y)): \(r) after \(left)")
        left = r
        if y > 0 { #expect(r == Int(rgb[at - width * 3]), "the same down column \(x)") }
      }
    }
  }

  /// Orange (255, 128, 0) in 4:4:4 stays orange at every pixel: the channels in their order.
  @Test(arguments: [30, 13])
  func aSolidColourKeepsItsChannelsInOrder(width: Int) async throws {
    let clip = try await Clips.make(
      "orange.mkv",
      [
        "-f", "lavfi", "-i", "color=c=0xFF8000:s=30x20:r=1", "-t", "1", "-pix_fmt", "yuv444p",
        "-c:v", "ffv1",
      ])
    let source = try Source(clip)
    #expect(source.nextPicture() != nil)
    var rgb = [UInt8](repeating: 0, count: width * 20 * 3)
    let converted = rgb.withUnsafeMutableBufferPointer {
      mw_media_convert(source.media, Int32(width), 20, $0.baseAddress!)
    }
    #expect(converted == 0)
    for pixel in 0..<width * 20 {
      let (r, g, b) = (Int(rgb[3 * pixel]), Int(rgb[3 * pixel + 1]), Int(rgb[3 * pixel + 2]))
      #expect(
        abs(r - 255) <= 3 && abs(g - 128) <= 3 && b <= 3, "pixel \(pixel): \(r) \(g) \(b)")
    }
  }
}
