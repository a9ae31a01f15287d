import CMedia
import Testing

/// The decoding wrapper's seeks, read picture by picture (no player process, no timing): after a
/// seek the first picture is the one on screen at its time, whether the seek went back to a
/// keyframe or decoded on from where decoding stood.
@Suite struct SeekDecodingTests {
  /// An opened clip and the times of the pictures read from it.
  final class Source {
    let media: OpaquePointer
    private var reason = [CChar](repeating: 0, count: 256)

    init(_ path: String) throws {
      media = try #require(mw_media_open(path, nil, 5_000, &reason, Int32(reason.count)))
    }

    deinit { mw_media_close(media) }

    /// The next picture's time (sound is passed over), nil at the end.
    func nextPicture() -> Int64? {
      var pts: Int64 = 0
      var samples: UnsafePointer<Int16>?
      var count: Int32 = 0
      while true {
        switch mw_media_read(media, &pts, &samples, &count, &reason, Int32(reason.count)) {
        case Int32(MW_READ_VIDEO): return pts
        case Int32(MW_READ_AUDIO), Int32(MW_READ_SKIPPED): continue
        default: return nil
        }
      }
    }

    /// Reads pictures until one at `milliseconds` or later; its time.
    func read(through milliseconds: Int64) -> Int64? {
      while let pts = nextPicture() {
        if pts >= milliseconds { return pts }
      }
      return nil
    }

    func seek(_ milliseconds: Int64) { mw_media_seek(media, milliseconds) }
  }

  /// Pictures a second apart: decoding stands at 6 s, the keyframe before 6.5 s was read, so the
  /// seek decodes on; the next picture decoded is 7 s, past the time, and the one on screen at
  /// 6.5 s (6 s) was given already. It must come again (from the keyframe), not 7 s.
  @Test func decodingOnPastAStillStretchGivesThePictureOnScreenAgain() async throws {
    let source = try Source(try await Clips.stillSeconds())
    #expect(source.read(through: 6_000) == 6_000)
    source.seek(6_500)
    #expect(source.nextPicture() == 6_000)
    #expect(source.nextPicture() == 7_000)
    source.seek(12_250)
    #expect(source.nextPicture() == 12_000)
    #expect(source.nextPicture() == 13_000)
  }

  /// 24 pictures a second, a keyframe every two seconds: ahead within the keyframe's reach
  /// (decoded on) and behind it (sought), each time the picture on screen at the time.
  @Test func eachSeekGivesThePictureOnScreenAtItsTime() async throws {
    let source = try Source(try await Clips.moving())
    #expect(source.read(through: 4_000) == 4_000)
    for target: Int64 in [5_500, 5_542, 5_900, 3_000, 9_990, 0, 2_021] {
      source.seek(target)
      let shown = try #require(source.nextPicture(), "a picture at \(target)")
      #expect(shown <= target && target - shown < 42, "at \(target): \(shown)")
      let next = try #require(source.nextPicture() ?? (target > 9_900 ? 10_000 : nil))
      #expect(next > target, "after \(target): \(next)")
    }
  }
}
