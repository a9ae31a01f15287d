#if canImport(Glibc)
  import Glibc
#endif

/// What changed in a picture since the one sent before it (of the same size): for each band of
/// two pixel rows that changed, its pixels from the first that differs to the last. A dancer
/// over a still background changes a tenth of the picture's bytes a frame (measured on the
/// shipped clip at 200x60: 11.8 KB of 134 KB), so the player sends that, and the app lays it
/// over the picture it holds.
package struct MediaPatch: Equatable, Sendable {
  /// Pixels `from..<to` of the rows of band `band` (rows `2 * band` and `2 * band + 1`, or the
  /// first alone at an odd height's last band).
  package struct Span: Equatable, Sendable {
    package var band: Int
    package var from: Int
    package var to: Int

    package init(band: Int, from: Int, to: Int) {
      self.band = band
      self.from = from
      self.to = to
    }
  }

  package var milliseconds: Int
  package var width: Int
  package var height: Int
  package var spans: [Span]
  /// The spans' pixels (RGB24), in order: each span's first row, then its second.
  package var pixels: [UInt8]

  package init(milliseconds: Int, width: Int, height: Int, spans: [Span], pixels: [UInt8]) {
    self.milliseconds = milliseconds
    self.width = width
    self.height = height
    self.spans = spans
    self.pixels = pixels
  }

  /// The rows of `band` in a picture `height` rows high.
  static func rows(of band: Int, height: Int) -> Range<Int> {
    (2 * band)..<min(height, 2 * band + 2)
  }

  /// What turns `old` into `new` (both `width`x`height` RGB24 pictures).
  package static func between(
    _ old: [UInt8], _ new: [UInt8], width: Int, height: Int, milliseconds: Int
  ) -> MediaPatch {
    precondition(old.count == width * height * 3 && new.count == old.count)
    var spans: [Span] = []
    var pixels: [UInt8] = []
    let rowBytes = width * 3
    old.withUnsafeBytes { old in
      new.withUnsafeBytes { new in
        for band in 0..<(height + 1) / 2 {
          let rows = rows(of: band, height: height)
          let start = rows.lowerBound * rowBytes
          guard
            memcmp(old.baseAddress! + start, new.baseAddress! + start, rows.count * rowBytes) != 0
          else { continue }
          var first = rowBytes
          var last = -1
          for row in rows {
            let offset = row * rowBytes
            guard let (low, high) = differing(old, new, at: offset, count: rowBytes) else {
              continue
            }
            first = min(first, low)
            last = max(last, high)
          }
          let span = Span(band: band, from: first / 3, to: last / 3 + 1)
          spans.append(span)
          for row in rows {
            let offset = row * rowBytes
            pixels.append(contentsOf: new[(offset + span.from * 3)..<(offset + span.to * 3)])
          }
        }
      }
    }
    return MediaPatch(
      milliseconds: milliseconds, width: width, height: height, spans: spans, pixels: pixels)
  }

  /// The first and last bytes of `count` at `offset` that differ between the two; nil when none
  /// does. Eight bytes at a time from each end.
  private static func differing(
    _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, at offset: Int, count: Int
  ) -> (Int, Int)? {
    var low = 0
    while low + 8 <= count,
      a.loadUnaligned(fromByteOffset: offset + low, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: offset + low, as: UInt64.self)
    {
      low += 8
    }
    while low < count, a[offset + low] == b[offset + low] { low += 1 }
    guard low < count else { return nil }
    var high = count
    while high - 8 > low,
      a.loadUnaligned(fromByteOffset: offset + high - 8, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: offset + high - 8, as: UInt64.self)
    {
      high -= 8
    }
    while a[offset + high - 1] == b[offset + high - 1] { high -= 1 }
    return (low, high - 1)
  }

  /// Lays the patch over `picture` (a `width`x`height` RGB24 picture); false, leaving it as it
  /// was, when the patch does not fit it (another size, a span outside it, pixels missing).
  package func apply(to picture: inout [UInt8]) -> Bool {
    guard width >= 0, height >= 0, picture.count == width * height * 3 else { return false }
    var needed = 0
    var band = -1
    for span in spans {
      // In order, each band once, inside the picture.
      guard span.band > band, span.band < (height + 1) / 2, span.from >= 0, span.from < span.to,
        span.to <= width
      else { return false }
      band = span.band
      needed += Self.rows(of: span.band, height: height).count * (span.to - span.from) * 3
    }
    guard needed == pixels.count else { return false }
    let rowBytes = width * 3
    var next = 0
    picture.withUnsafeMutableBytes { picture in
      pixels.withUnsafeBytes { pixels in
        for span in spans {
          let count = (span.to - span.from) * 3
          for row in Self.rows(of: span.band, height: height) {
            (picture.baseAddress! + row * rowBytes + span.from * 3).copyMemory(
              from: pixels.baseAddress! + next, byteCount: count)
            next += count
          }
        }
      }
    }
    return true
  }
}
