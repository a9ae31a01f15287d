import MyworkoutCore

/// Finds the perceptually nearest palette colour (by distance in OKLab) for each pixel colour,
/// remembering answers: a picture has thousands of pixels but far fewer distinct colours. Lives
/// in the view so that pictures (MyworkoutImages) and a lesson's coloured text use the same one.
///
/// For `xterm256` only indices 16–255 are candidates: 0–15 are the system colours that themes
/// (Solarized, Dracula, light schemes) redefine, so their real colour is unknown, while the cube
/// and the ramp are fixed by convention. `basic8` has no choice but 0–7, at xterm's defaults.
package struct ColorQuantizer: Sendable {
  private let candidates: Candidates
  private var remembered: [UInt32: UInt8] = [:]

  package init(_ colors: PictureColors) {
    candidates = colors == .basic8 ? Candidates.basic8 : Candidates.xterm256
  }

  /// Among the palette entries `indices` (a video on a 16-colour terminal: 0–15 at xterm's
  /// defaults, the nearest a terminal whose theme keeps them has).
  package init(indices: ClosedRange<UInt8>) {
    candidates = Candidates(indices)
  }

  /// The palette index nearest to `color`.
  package mutating func index(for color: RGB) -> UInt8 {
    let key = UInt32(color.r) << 16 | UInt32(color.g) << 8 | UInt32(color.b)
    if let index = remembered[key] { return index }
    let index = candidates.nearest(to: OKLab(color))
    remembered[key] = index
    return index
  }

  /// Palette indices with their OKLab coordinates in flat arrays, for a tight search loop.
  private struct Candidates: Sendable {
    let indices: [UInt8]
    let l: [Float]
    let a: [Float]
    let b: [Float]

    init(_ indices: ClosedRange<UInt8>) {
      self.indices = Array(indices)
      let labs = indices.map { OKLab(XtermPalette.rgb($0)) }
      l = labs.map(\.l)
      a = labs.map(\.a)
      b = labs.map(\.b)
    }

    func nearest(to color: OKLab) -> UInt8 {
      var best = 0
      var bestDistance = Float.infinity
      for i in indices.indices {
        let dl = l[i] - color.l
        let da = a[i] - color.a
        let db = b[i] - color.b
        let distance = dl * dl + da * da + db * db
        if distance < bestDistance {
          bestDistance = distance
          best = i
        }
      }
      return indices[best]
    }

    static let xterm256 = Candidates(16...255)
    static let basic8 = Candidates(0...7)
  }
}
