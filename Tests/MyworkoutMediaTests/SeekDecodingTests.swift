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

    /// Without `sound`, the sound track is read but not decoded (the player's `--mute`).
    init(_ path: String, sound: Bool = true) throws {
      media = try #require(
        mw_media_open(path, nil, 5_000, sound ? 1 : 0, &reason, Int32(reason.count)))
    }

    deinit { mw_media_close(media) }

    /// The next picture's time (sound is passed over), nil at the end.
    func nextPicture() -> Int64? {
      while true {
        switch next() {
        case .picture(let pts): return pts
        case .sound: continue
        case nil: return nil
        }
      }
    }

    enum Read: Equatable {
      case picture(Int64)
      /// Sound from `at` (media ms), `frames` 48 kHz frames of it.
      case sound(at: Int64, frames: Int)
    }

    /// The next picture or sound; nil at the end.
    func next() -> Read? {
      var pts: Int64 = 0
      var samples: UnsafePointer<Int16>?
      var count: Int32 = 0
      while true {
        switch mw_media_read(media, &pts, &samples, &count, &reason, Int32(reason.count)) {
        case Int32(MW_READ_VIDEO): return .picture(pts)
        case Int32(MW_READ_AUDIO): return .sound(at: pts, frames: Int(count))
        case Int32(MW_READ_SKIPPED): continue
        default: return nil
        }
      }
    }

    var packetsRead: Int64 { mw_media_packets_read(media) }

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

  /// Two minutes of MPEG-TS, a keyframe every 2 s: a seek near the end lands a keyframe or two
  /// before its time. Before, its landing was judged by the first picture packet only (a
  /// keyframe in one case of 50), every try missed, and the seek read from the file's first
  /// byte: 2,500 packets here, minutes for a broadcast.
  @Test func aSeekInALongMPEGTSFileReadsOnlyNearItsTime() async throws {
    let source = try Source(try await Clips.make("long.ts", Clips.longPicture))
    #expect(source.nextPicture() == 0)
    for target: Int64 in [100_020, 61_000, 119_500, 3_000] {
      let before = source.packetsRead
      source.seek(target)
      let shown = try #require(source.nextPicture(), "a picture at \(target)")
      #expect(shown <= target && target - shown < 40, "at \(target): \(shown)")
      #expect(source.packetsRead - before < 400, "packets read for \(target)")
    }
  }

  /// The same in Matroska, whose index (its cues) is read at its first seek: before that the
  /// index held only the keyframes read, so a first seek far ahead decoded on from the start.
  @Test func aFirstSeekFarAheadInMatroskaGoesToItsKeyframe() async throws {
    let long = try await Clips.make("long.ts", Clips.longPicture)
    let source = try Source(try await Clips.make("long.mkv", ["-i", long, "-c", "copy"]))
    #expect(source.nextPicture() == 0)
    let before = source.packetsRead
    source.seek(100_020)
    let shown = try #require(source.nextPicture())
    #expect(shown <= 100_020 && 100_020 - shown < 40, "\(shown)")
    #expect(source.packetsRead - before < 400)
  }

  /// Muted, the sound is not decoded (a sixth of the player process's CPU on the shipped clip):
  /// only pictures come, the same ones, and the sound track's end is still known from what was
  /// read of it (a class's sound may go on past its last picture).
  @Test func withoutSoundOnlyTheSameEveryPictureComes() async throws {
    let clip = try await Clips.make("short-picture.mp4", Clips.shortPicture)
    let heard = try Source(clip)
    let muted = try Source(clip, sound: false)
    var pictures: [Int64] = []
    var sounds = 0
    while let read = heard.next() {
      if case .picture(let pts) = read { pictures.append(pts) } else { sounds += 1 }
    }
    #expect(sounds > 0 && pictures.count == 250)
    var mutedPictures: [Int64] = []
    while let read = muted.next() {
      guard case .picture(let pts) = read else {
        Issue.record("sound decoded without sound: \(read)")
        break
      }
      mutedPictures.append(pts)
    }
    #expect(mutedPictures == pictures)
    let end = mw_media_sound_read(muted.media)
    #expect(abs(end - 11_500) <= 30, "the sound track read to \(end) ms of 11,500")
  }

  /// Muted, a seek into a still stretch gives the picture on screen there once the sound track
  /// is read a second past the time, as with sound decoded.
  @Test func withoutSoundASeekIntoAStillStretchGivesItsPicture() async throws {
    let source = try Source(try await Clips.gap(), sound: false)
    #expect(source.nextPicture() == 0)
    source.seek(7_000)
    #expect(source.next() == .picture(5_960))
    #expect(mw_media_sound_read(source.media) <= 8_500)
    #expect(source.nextPicture() == 11_040)
  }

  /// A still stretch with sound (no picture from 6 s to 11 s): a seek into it gives the picture
  /// on screen there (5.96 s) once the sound is a second past the time, not after the whole
  /// stretch's sound (a player waiting for the picture with its sound queue full stood still).
  @Test func aSeekIntoAStillStretchGivesItsPictureBeforeMuchSound() async throws {
    let source = try Source(try await Clips.gap())
    #expect(source.nextPicture() == 0)
    source.seek(7_000)
    var sound = 0
    var picture: Int64?
    while picture == nil, let read = source.next() {
      switch read {
      case .picture(let pts): picture = pts
      case .sound(_, let frames): sound += frames
      }
    }
    #expect(picture == 5_960)
    #expect(sound <= 48_000 * 3 / 2, "\(sound) frames of sound before the picture")
  }

  /// Sound muxed a second ahead of the pictures: decoding on after sound past the seek's time
  /// was read would start the sound late (it was given before the seek): the seek goes to the
  /// keyframe instead, and the sound starts at the time.
  @Test func aSeekAheadGivesTheSoundFromItsTime() async throws {
    let source = try Source(try await Clips.make("preloaded.mp4", Clips.soundAhead))
    #expect(source.read(through: 4_000) == 4_000)
    source.seek(4_300)
    var firstSound: Int64?
    while firstSound == nil, let read = source.next() {
      if case .sound(let at, _) = read { firstSound = at }
    }
    let at = try #require(firstSound)
    #expect(at <= 4_300 + 30, "the sound starts at \(at)")
  }

  /// Decoding on to a time past the last picture (the sound goes on 1.5 s longer): the last
  /// picture (9.96 s), given before the seek, is given again from its keyframe.
  @Test func decodingOnPastTheLastPictureGivesItAgain() async throws {
    let source = try Source(try await Clips.make("short-picture.mp4", Clips.shortPicture))
    #expect(source.read(through: 9_960) == 9_960)
    source.seek(10_900)
    #expect(source.nextPicture() == 9_960)
  }

  /// Times from a start that is not a whole millisecond (1.4006 s) and from a clock that
  /// wrapped (a start of -4.3 s): the pictures at 0, 40, 80 … ms, each seek exact.
  @Test(arguments: [("offset.ts", "0.0006"), ("wrapped.ts", "95438")])
  func timesCountFromAnyStart(_ name: String, _ offset: String) async throws {
    let source = try Source(
      try await Clips.make(name, Clips.tenSecondsOfPictures + ["-output_ts_offset", offset]))
    var times: [Int64] = []
    while times.count < 50, let pts = source.nextPicture() { times.append(pts) }
    #expect(times == (0..<50).map { Int64($0) * 40 }, "\(times.prefix(5))…")
    for target: Int64 in [8_000, 3_020, 9_959] {
      source.seek(target)
      let shown = try #require(source.nextPicture())
      #expect(shown == target / 40 * 40, "at \(target): \(shown)")
    }
  }
}
