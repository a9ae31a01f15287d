import Foundation
import MyworkoutMedia
import Testing

/// The player sends what changed in a picture (`MediaPatch`), and the app's reader lays it over
/// the picture before it: what the app holds is always the picture the player has.
@Suite struct MediaPatchTests {
  /// A seeded stream of numbers (SplitMix64). Every failure names its seed;
  /// `MYWORKOUT_PATCH_SEED=N` replays it.
  struct Numbers {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(max(1, bound)))
    }
  }

  /// Random pictures of odd and even sizes, changed nowhere, in one pixel, in rectangles or
  /// everywhere: the patch turns the old into the new, through the wire in random pieces too.
  @Test func aPatchTurnsThePictureBeforeIntoTheNewOne() {
    let seed =
      ProcessInfo.processInfo.environment["MYWORKOUT_PATCH_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
    var numbers = Numbers(state: seed)
    for _ in 0..<300 {
      let width = 1 + numbers.next(40)
      let height = 1 + numbers.next(30)
      let old = (0..<width * height * 3).map { _ in UInt8(numbers.next(4)) }
      var new = old
      switch numbers.next(4) {
      case 0: break
      case 1: new[numbers.next(new.count)] &+= 1
      case 2:
        for _ in 0..<1 + numbers.next(3) {
          let (x0, y0) = (numbers.next(width), numbers.next(height))
          for y in y0..<min(height, y0 + 1 + numbers.next(6)) {
            for x in x0..<min(width, x0 + 1 + numbers.next(9)) {
              new[(y * width + x) * 3 + numbers.next(3)] &+= UInt8(1 + numbers.next(200))
            }
          }
        }
      default: new = new.map { $0 &+ 1 }
      }
      let patch = MediaPatch.between(old, new, width: width, height: height, milliseconds: 40)
      var patched = old
      #expect(patch.apply(to: &patched), "seed \(seed)")
      #expect(patched == new, "seed \(seed): \(width)x\(height)")
      if old == new { #expect(patch.spans.isEmpty && patch.pixels.isEmpty, "seed \(seed)") }

      // Through the wire, after the whole old picture, in pieces.
      let bytes =
        MediaEvent.frame(MediaFrame(milliseconds: 0, width: width, height: height, rgb: old))
        .bytes + MediaEvent.patch(patch).bytes
      var reader = MediaEventReader()
      var events: [MediaEvent] = []
      var at = 0
      while at < bytes.count {
        let piece = 1 + numbers.next(bytes.count - at)
        events += reader.append(bytes[at..<(at + piece)])
        at += piece
      }
      #expect(!reader.damaged, "seed \(seed)")
      #expect(
        events
          == [
            .frame(MediaFrame(milliseconds: 0, width: width, height: height, rgb: old)),
            .frame(
              MediaFrame(
                milliseconds: 40, width: width, height: height, rgb: new, changes: patch.spans)),
          ], "seed \(seed): \(width)x\(height)")
    }
  }

  /// A stream of pictures as the player sends them (whole at first and at a new size, then
  /// patches, now and then a whole one again), read back in random pieces: every picture the
  /// reader returns is the one sent, patch after patch (each laid over memory it reuses).
  @Test func aStreamOfPatchesGivesEveryPictureSent() {
    let seed =
      ProcessInfo.processInfo.environment["MYWORKOUT_PATCH_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
    var numbers = Numbers(state: seed)
    var reader = MediaEventReader()
    var held: [MediaEvent] = []  // the app holds the last two pictures a while
    for size in 0..<20 {
      let (width, height) = (1 + numbers.next(30), 1 + numbers.next(20))
      var picture = (0..<width * height * 3).map { _ in UInt8(numbers.next(3)) }
      var bytes = MediaEvent.frame(
        MediaFrame(milliseconds: 0, width: width, height: height, rgb: picture)
      ).bytes
      var sent = [picture]
      for step in 1..<12 {
        var next = picture
        for _ in 0..<numbers.next(6) { next[numbers.next(next.count)] &+= 1 }
        if numbers.next(8) == 0 {
          bytes +=
            MediaEvent.frame(
              MediaFrame(milliseconds: step, width: width, height: height, rgb: next)
            ).bytes
        } else {
          bytes +=
            MediaEvent.patch(
              MediaPatch.between(picture, next, width: width, height: height, milliseconds: step)
            ).bytes
        }
        picture = next
        sent.append(next)
      }
      var received: [[UInt8]] = []
      var at = 0
      while at < bytes.count {
        let piece = 1 + numbers.next(min(bytes.count - at, 300))
        for event in reader.append(bytes[at..<(at + piece)]) {
          guard case .frame(let frame) = event else { continue }
          received.append(frame.rgb)
          held = Array((held + [event]).suffix(2))
        }
        at += piece
      }
      #expect(!reader.damaged, "seed \(seed)")
      #expect(received == sent, "seed \(seed), size \(size): \(width)x\(height)")
      #expect(held.count <= 2)
    }
  }

  /// A dancer's band sends only its changed run: one pixel changed in a 400x112 picture is one
  /// span of one pixel in its band (two rows).
  @Test func onlyTheChangedRunOfABandIsSent() {
    let old = [UInt8](repeating: 9, count: 400 * 112 * 3)
    var new = old
    new[(51 * 400 + 123) * 3 + 1] = 200
    let patch = MediaPatch.between(old, new, width: 400, height: 112, milliseconds: 0)
    #expect(patch.spans == [MediaPatch.Span(band: 25, from: 123, to: 124)])
    #expect(patch.pixels == [9, 9, 9, 9, 200, 9])
  }

  /// A patch the reader's picture cannot take: the stream is not the player's (the player is
  /// then ended and the failure said), and nothing wrong is shown.
  @Test func aPatchThatDoesNotFitDamagesTheStream() {
    let picture = MediaFrame(
      milliseconds: 0, width: 4, height: 3, rgb: [UInt8](repeating: 1, count: 36))
    let fits = MediaPatch(
      milliseconds: 40, width: 4, height: 3, spans: [.init(band: 1, from: 1, to: 3)],
      pixels: [UInt8](repeating: 7, count: 6))
    var cases: [(String, [MediaEvent])] = [
      ("before any picture", [.patch(fits)]),
      (
        "another size",
        [
          .frame(picture),
          .patch(
            MediaPatch(
              milliseconds: 40, width: 3, height: 4, spans: fits.spans, pixels: fits.pixels)),
        ]
      ),
    ]
    for (name, spans, pixels) in [
      ("past the right edge", [MediaPatch.Span(band: 1, from: 3, to: 5)], 6),
      ("past the last band", [MediaPatch.Span(band: 2, from: 0, to: 1)], 3),
      ("empty", [MediaPatch.Span(band: 0, from: 2, to: 2)], 0),
      ("bands out of order", [.init(band: 1, from: 0, to: 1), .init(band: 0, from: 0, to: 1)], 9),
      ("pixels missing", [MediaPatch.Span(band: 0, from: 0, to: 2)], 11),
    ] {
      cases.append(
        (
          name,
          [
            .frame(picture),
            .patch(
              MediaPatch(
                milliseconds: 40, width: 4, height: 3, spans: spans,
                pixels: [UInt8](repeating: 7, count: pixels))),
          ]
        ))
    }
    for (name, events) in cases {
      var reader = MediaEventReader()
      let read = reader.append(events.flatMap(\.bytes))
      #expect(reader.damaged, "\(name)")
      #expect(read.count <= 1, "\(name): \(read.count) events")
    }
    // The patch that fits, for contrast.
    var reader = MediaEventReader()
    let read = reader.append([MediaEvent.frame(picture), .patch(fits)].flatMap(\.bytes))
    #expect(!reader.damaged)
    var expected = picture.rgb
    for offset in 27..<33 { expected[offset] = 7 }
    #expect(
      read.last
        == .frame(
          MediaFrame(milliseconds: 40, width: 4, height: 3, rgb: expected, changes: fits.spans)))
  }
}
