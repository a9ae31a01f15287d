import CMedia
import Testing

/// The media time CMedia gives each piece of sound is what the Player reports as heard, so the
/// pictures follow it: it must add up exactly over a whole class, at every speed. (Each AAC
/// frame's 21.33 ms counted as 21 once put the pictures 1.6 % behind the sound: 96 ms after
/// 7 s, measured by the benchmark's flash-and-beep clip.)
@Suite struct SoundTimesTests {
  /// The media time at which the last piece of sound ends, reading the whole clip at `speed`.
  static func endOfSound(_ clip: String, speed: Int32) throws -> Int64 {
    try sound(clip, speed: speed).end
  }

  /// The media time at which the last piece of sound ends and the sound itself (48 kHz stereo,
  /// interleaved), reading the whole clip at `speed`.
  static func sound(_ clip: String, speed: Int32) throws -> (end: Int64, samples: [Int16]) {
    var reason = [CChar](repeating: 0, count: 256)
    let media = try #require(mw_media_open(clip, nil, 5_000, 1, &reason, Int32(reason.count)))
    defer { mw_media_close(media) }
    #expect(mw_media_set_tempo(media, speed) == 0)
    var end: Int64 = 0
    var heard: [Int16] = []
    var pts: Int64 = 0
    var samples: UnsafePointer<Int16>?
    var count: Int32 = 0
    while true {
      let kind = mw_media_read(media, &pts, &samples, &count, &reason, Int32(reason.count))
      if kind == Int32(MW_READ_END) || kind == Int32(MW_READ_ERROR) { break }
      if kind == Int32(MW_READ_AUDIO) {
        // Output samples at 48 kHz stand for `speed` hundredths as much media time.
        end = pts + Int64(count) * 1000 * Int64(speed) / 100 / 48_000
        if let samples { heard += UnsafeBufferPointer(start: samples, count: Int(count) * 2) }
      }
    }
    return (end, heard)
  }

  @Test(arguments: [100, 50, 150])
  func theSoundsTimesAddUpToTheClipsLength(speed: Int32) async throws {
    // The colour clip: 4 s of AAC (1,024 samples a frame) at 48 kHz.
    let end = try Self.endOfSound(try await Clips.colourPerSecond(), speed: speed)
    #expect(abs(end - 4_000) <= 25, "the sound ends at \(end) ms of 4,000 at \(speed)%")
  }

  /// At 1x the sound goes through libswresample (libavfilter is opened only for other speeds):
  /// a mono 44.1 kHz track comes out 48 kHz stereo, all of it, at its times.
  @Test(arguments: [100, 50])
  func aMonoCDTrackComesOutWhole(speed: Int32) async throws {
    let (end, samples) = try Self.sound(try await Clips.monoCD(), speed: speed)
    #expect(abs(end - 4_000) <= 25, "the sound ends at \(end) ms of 4,000 at \(speed)%")
    // Both channels carry the tone, at its pitch; the whole of it (4 s at 48 kHz, stretched).
    let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
    let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
    for channel in [left, right] {
      let pitch = try #require(SoundTests.frequency(Array(channel.prefix(48_000))))
      #expect(abs(pitch - 440) < 10, "\(pitch) Hz")
    }
    let expected = 4 * 48_000 * 100 / Int(speed)
    #expect(abs(left.count - expected) < 48_000 / 20, "\(left.count) of \(expected) samples")
  }
}
