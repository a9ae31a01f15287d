import MyworkoutCore
import MyworkoutView

/// Resizes a decoded image by area averaging: each output pixel is the mean of the source area
/// it covers, partly covered source pixels weighted by the part covered. Transparent pixels are
/// first composited over a background colour (alpha is then gone). Means are taken on the sRGB
/// byte values, as most image tools do; the result is an opaque picture.
package enum AreaScaler {
  /// The picture at `size` (each side at least 1), as one `RGB` per pixel, row after row.
  package static func scale(
    _ image: DecodedImage, to size: PixelSize, over background: RGB = .black
  ) -> [RGB] {
    image.withPixels { scale($0, to: size, over: background) }
  }

  static func scale(_ image: RGBAPixels, to size: PixelSize, over background: RGB) -> [RGB] {
    let width = max(1, size.width)
    let height = max(1, size.height)
    guard image.width > 0, image.height > 0 else {
      return Array(repeating: background, count: width * height)
    }
    let columns = spans(source: image.width, target: width)
    let rows = spans(source: image.height, target: height)
    let horizontal = averageRows(image, columns: columns, background: background)
    var result: [RGB] = []
    result.reserveCapacity(width * height)
    var sums = [Float](repeating: 0, count: width * 3)
    for span in rows {
      for i in sums.indices { sums[i] = 0 }
      for (sourceRow, weight) in span.parts {
        let base = sourceRow * width * 3
        for i in sums.indices { sums[i] += horizontal[base + i] * weight }
      }
      for x in 0..<width {
        result.append(
          RGB(
            byte(sums[x * 3] / span.total), byte(sums[x * 3 + 1] / span.total),
            byte(sums[x * 3 + 2] / span.total)))
      }
    }
    return result
  }

  /// Which source pixels one output pixel covers along an axis, each with the length covered.
  struct Span {
    var parts: [(index: Int, weight: Float)]
    var total: Float
  }

  static func spans(source: Int, target: Int) -> [Span] {
    let step = Double(source) / Double(target)
    return (0..<target).map { i in
      let start = Double(i) * step
      let end = min(Double(source), Double(i + 1) * step)
      var parts: [(index: Int, weight: Float)] = []
      var index = Int(start)
      while Double(index) < end, index < source {
        let covered = min(end, Double(index + 1)) - max(start, Double(index))
        if covered > 1e-9 { parts.append((index, Float(covered))) }
        index += 1
      }
      return Span(parts: parts, total: Float(end - start))
    }
  }

  /// Every source row averaged horizontally: `image.height` rows of `columns.count` x 3 floats,
  /// each pixel composited over the background first.
  private static func averageRows(_ image: RGBAPixels, columns: [Span], background: RGB)
    -> [Float]
  {
    let backdrop = [Float(background.r), Float(background.g), Float(background.b)]
    var out = [Float](repeating: 0, count: image.height * columns.count * 3)
    let pixels = image.bytes
    var o = 0
    for y in 0..<image.height {
      let row = y * image.width * 4
      for span in columns {
        var sums: (Float, Float, Float) = (0, 0, 0)
        for (x, weight) in span.parts {
          let p = row + x * 4
          let alpha = Float(pixels[p + 3]) / 255
          let w = weight * alpha
          let rest = weight * (1 - alpha)
          sums.0 += Float(pixels[p]) * w + backdrop[0] * rest
          sums.1 += Float(pixels[p + 1]) * w + backdrop[1] * rest
          sums.2 += Float(pixels[p + 2]) * w + backdrop[2] * rest
        }
        out[o] = sums.0 / span.total
        out[o + 1] = sums.1 / span.total
        out[o + 2] = sums.2 / span.total
        o += 3
      }
    }
    return out
  }

  private static func byte(_ value: Float) -> UInt8 {
    UInt8(max(0, min(255, value.rounded())))
  }
}
