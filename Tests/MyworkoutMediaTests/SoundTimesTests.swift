import CMedia
import Testing

/// The media time CMedia gives each piece of sound is what the Player reports as heard, so the
/// pictures follow it: it must add up exactly over a whole class, at every speed. (Each AAC
/// frame's 21.33 ms counted as 21 once put the pictures 1.6 % behind the sound: 96 ms after
/// 7 s, measured by the benchmark's flash-and-beep clip.)
@Suite struct SoundTimesTests {
  /// The media time at which the last piece of sound ends, reading the whole clip at `speed`.
  static func endOfSound(_ clip: String, speed: Int32) throws -> Int64 {
    var reason = [CChar](repeating: 0, count: 256)
    let media = try #require(mw_media_open(clip, nil, 5_000, &reason, Int32(reason.count)))
    defer { mw_media_close(media) }
    #expect(mw_media_set_tempo(media, speed) == 0)
    var end: Int64 = 0
    var pts: Int64 = 0
    var samples: UnsafePointer<Int16>?
    var count: Int32 = 0
    while true {
      let kind = mw_media_read(media, &pts, &samples, &count, &reason, Int32(reason.count))
      if kind == Int32(MW_READ_END) || kind == Int32(MW_READ_ERROR) { break }
      if kind == Int32(MW_READ_AUDIO) {
        // Output samples at 48 kHz stand for `speed` hundredths as much media time.
        end = pts + Int64(count) * 1000 * Int64(speed) / 100 / 48_000
      }
    }
    return end
  }

  @Test(arguments: [100, 50, 150])
  func theSoundsTimesAddUpToTheClipsLength(speed: Int32) throws {
    // The colour clip: 4 s of AAC (1,024 samples a frame) at 48 kHz.
    let end = try Self.endOfSound(try Clips.colourPerSecond(), speed: speed)
    #expect(abs(end - 4_000) <= 25, "the sound ends at \(end) ms of 4,000 at \(speed)%")
  }
}
