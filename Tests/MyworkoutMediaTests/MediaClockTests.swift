import Testing

@testable import MyworkoutMedia

/// The media clock and frame scheduling (SPEC §19) on a test clock: nanoseconds passed in.
@Suite struct MediaClockTests {
  static let second: Int64 = 1_000_000_000

  @Test func theWallClockRunsAtTheSpeedOnlyWhilePlaying() {
    var clock = MediaClock()
    #expect(clock.media(at: 5 * Self.second) == 0, "paused: time stands")
    clock.play(at: 0)
    #expect(clock.media(at: Self.second) == 1_000)
    clock.setSpeed(200, at: Self.second)
    #expect(clock.media(at: 2 * Self.second) == 3_000, "2× from the change on")
    clock.pause(at: 2 * Self.second)
    #expect(clock.media(at: 10 * Self.second) == 3_000)
    clock.setSpeed(50, at: 10 * Self.second)
    clock.play(at: 10 * Self.second)
    #expect(clock.media(at: 12 * Self.second) == 4_000, "0.5×")
  }

  /// The process stood still (stopped from outside) from one moment to another: media time did
  /// not move for it, playing at whatever speed, and a paused clock stays where it was.
  @Test func aStandstillMovesNoMediaTime() {
    var clock = MediaClock()
    clock.setSpeed(150, at: 0)
    clock.play(at: 0)
    clock.standstill(from: 2 * Self.second, to: 9 * Self.second)
    #expect(clock.media(at: 9 * Self.second) == 3_000, "where it stood at 2 s")
    #expect(clock.media(at: 10 * Self.second) == 4_500, "and on at 1.5× after")
    clock.pause(at: 10 * Self.second)
    clock.standstill(from: 11 * Self.second, to: 20 * Self.second)
    #expect(clock.media(at: 20 * Self.second) == 4_500)
    clock.play(at: 20 * Self.second)
    #expect(clock.media(at: 21 * Self.second) == 6_000, "a paused clock plays on as before")
  }

  @Test func aSeekMovesTheClockRunningOrNot() {
    var clock = MediaClock()
    clock.jump(to: 60_000, at: 0)
    #expect(clock.media(at: Self.second) == 60_000)
    clock.play(at: Self.second)
    clock.jump(to: 10_000, at: 2 * Self.second)
    #expect(clock.media(at: 3 * Self.second) == 11_000)
  }

  @Test func theSoundIsTheMasterWhileItPlays() {
    var clock = MediaClock()
    clock.play(at: 0)
    // The wall says 1,000 ms; the sound device says 900 ms are heard (further than 40 ms): the
    // sound wins at once, and the clock runs on from there until the next report.
    clock.heard(900, at: Self.second)
    #expect(clock.media(at: Self.second) == 900)
    #expect(clock.media(at: Self.second + Self.second / 2) == 1_400)
    // Closer than 40 ms: pulled an eighth of the way per report, towards the sound.
    clock.heard(1_420, at: Self.second + Self.second / 2)
    #expect(clock.media(at: Self.second + Self.second / 2) == 1_402)
    // Reports while paused (a write that finished after the pause) change nothing.
    clock.pause(at: 2 * Self.second)
    let paused = clock.media(at: 2 * Self.second)
    clock.heard(5_000, at: 2 * Self.second)
    #expect(clock.media(at: 3 * Self.second) == paused)
  }

  /// A sound server whose reports jitter (±30 ms, 50 reports a second, as PulseAudio's null sink
  /// gives them) moves the clock smoothly: at 24 frames a second none is dropped, and the clock
  /// stays within 40 ms of the sound's mean; a sound that is steadily 30 ms behind is followed.
  @Test func aJitteringSoundNeitherDropsFramesNorLosesTheClock() {
    var clock = MediaClock()
    clock.play(at: 0)
    let report = Self.second / 50
    var lastPTS: Int64 = -1
    var shown = 0
    var frame: Int64 = 0
    var seed: UInt64 = 29
    for index in 1...(50 * 4) {
      let now = Int64(index) * report
      let truth = now / 1_000_000 - 30  // the sound is 30 ms behind the wall, steadily
      // -30…30 ms, a fixed pseudo-random sequence (so a failure replays).
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let jitter = Int64(seed >> 33) % 61 - 30
      clock.heard(truth + jitter, at: now)
      let media = clock.media(at: now)
      #expect(abs(media - truth) <= 40, "at report \(index): \(media) vs \(truth)")
      // Every frame due by now, in order: is any skipped because its successor is already due?
      while frame * 1000 / 24 <= media {
        let pts = frame * 1000 / 24
        let next = (frame + 1) * 1000 / 24
        if FrameSchedule.decide(pts: pts, next: next, clock: media, speed: 100) == .show {
          #expect(pts > lastPTS)
          lastPTS = pts
          shown += 1
        }
        frame += 1
      }
    }
    #expect(shown >= frame - 2, "\(shown) of \(frame) frames shown")
  }

  /// A device slow to take the first sound (a PulseAudio null sink: 1.3–1.9 s) holds the
  /// pictures instead of letting them run ahead and then go back.
  @Test func withSoundTheClockWaitsUntilTheSoundIsHeardMoving() {
    var clock = MediaClock()
    clock.jump(to: 2_000, at: 0)
    clock.play(at: 0, awaitingSound: true)
    #expect(clock.media(at: Self.second) == 2_000, "no sound heard yet")
    clock.heard(1_990, at: Self.second)  // written, not yet taken
    clock.heard(1_990, at: Self.second + 1)
    #expect(clock.media(at: 2 * Self.second) == 2_000)
    #expect(clock.waitingForSound)
    clock.heard(2_010, at: 2 * Self.second)  // the device took some
    #expect(!clock.waitingForSound)
    #expect(clock.media(at: 2 * Self.second + Self.second / 2) == 2_510)
    // A device that never takes any: after the limit the wall clock runs it.
    var stuck = MediaClock()
    stuck.play(at: 0, awaitingSound: true)
    let early = stuck.stopWaiting(at: MediaClock.soundStartLimit - 1)
    #expect(!early)
    let late = stuck.stopWaiting(at: MediaClock.soundStartLimit)
    #expect(late)
    #expect(stuck.media(at: MediaClock.soundStartLimit + Self.second) == 1_000)
    // A device that is gone: the wall clock runs it from then on, whatever the limit.
    var gone = MediaClock()
    gone.play(at: 0, awaitingSound: true)
    let now = gone.stopWaiting(at: 5, after: 0)
    #expect(now)
    #expect(gone.media(at: 5 + Self.second) == 1_000)
    // A pause while waiting ends the wait; a play without sound never waits.
    stuck.play(at: 0, awaitingSound: true)
    stuck.pause(at: 1)
    #expect(!stuck.waitingForSound)
    var muted = MediaClock()
    muted.play(at: 0)
    #expect(muted.media(at: Self.second) == 1_000)
  }

  /// PulseAudio says a latency of 0 until it has timing from a stream that plays, so what is
  /// "heard" grows with every write even while the writes only fill the stream's buffer. Seen on
  /// a null sink: three writes at once, the fourth 922 ms later; the pictures ran those 922 ms
  /// on the wall clock and then stood a second to wait for the sound. Only a write that had to
  /// wait for the device (a report some milliseconds after the one before) starts the clock.
  @Test func writesThatOnlyFillTheBufferDoNotStartTheClock() {
    let millisecond: Int64 = 1_000_000
    var clock = MediaClock()
    clock.play(at: 0, awaitingSound: true)
    clock.heard(13, at: 0)
    clock.heard(33, at: millisecond / 10)
    clock.heard(53, at: millisecond / 5)
    #expect(clock.waitingForSound, "three writes into the buffer at once")
    #expect(clock.media(at: 900 * millisecond) == 0)
    clock.heard(73, at: 922 * millisecond)  // the device took some: this write waited
    #expect(!clock.waitingForSound)
    #expect(clock.media(at: 942 * millisecond) == 93)
  }

  @Test func aFrameIsShownWhenItsTimeComesAndDroppedWhenItsSuccessorIsDue() {
    #expect(FrameSchedule.decide(pts: 1_000, next: 1_041, clock: 1_000, speed: 100) == .show)
    #expect(FrameSchedule.decide(pts: 1_000, next: 1_041, clock: 1_050, speed: 100) == .drop)
    #expect(
      FrameSchedule.decide(pts: 1_000, next: nil, clock: 990, speed: 100)
        == .wait(nanoseconds: 10_000_000))
    #expect(
      FrameSchedule.decide(pts: 1_000, next: nil, clock: 990, speed: 200)
        == .wait(nanoseconds: 5_000_000), "at 2× ten media ms are five wall ms")
    // A time years ahead (a loop's B in a class listed at 999,999,999 s, past its 4-minute
    // clip): the wait saturates. A walk-through's `5 l → l` there ended the video's player on
    // an overflow.
    #expect(
      FrameSchedule.decide(pts: 500_000_000_000, next: nil, clock: 240_000, speed: 50)
        == .wait(nanoseconds: .max))
    #expect(FrameSchedule.tooLate(pts: 1_000, clock: 1_100, frameMilliseconds: 40))
    #expect(!FrameSchedule.tooLate(pts: 1_000, clock: 1_050, frameMilliseconds: 40))
  }
}

@Suite struct MediaMessagesTests {
  @Test func everyCommandReadsBackAsItself() {
    let commands: [MediaCommand] = [
      .header("Authorization: Bearer a.b.c"),
      .open(source: "/tmp/a b.mp4", timeoutMilliseconds: 10_000),
      .size(width: 100, height: 28), .play, .pause, .seek(milliseconds: 65_000), .speed(75),
      .sound(true), .sound(false), .volume(80), .step(-1), .step(1), .mark(4_000), .mark(nil),
    ]
    for command in commands {
      #expect(MediaCommand(line: Substring(command.line)) == command)
    }
    #expect(
      MediaCommand(line: "open 10 a\nplay") == .open(source: "a\nplay", timeoutMilliseconds: 10))
    #expect(MediaCommand.open(source: "a\nplay", timeoutMilliseconds: 10).line == "open 10 aplay")
    #expect(MediaCommand(line: "seek soon") == nil)
    #expect(MediaCommand(line: "mark soon") == nil)
    #expect(MediaCommand(line: "rm -rf") == nil)
  }

  @Test func eventsArriveWholeHoweverTheBytesAreSplit() {
    let events: [MediaEvent] = [
      .ready(
        durationMilliseconds: 240_000, width: 320, height: 180, frameMilliseconds: 41,
        hasSound: true),
      .frame(MediaFrame(milliseconds: 41, width: 2, height: 2, rgb: Array(0..<12))),
      .time(milliseconds: 250), .buffering(true), .ended, .failed("file not found"),
      .sound(nil), .sound("no sound"), .stepped(48),
    ]
    let bytes = events.flatMap(\.bytes)
    for piece in [1, 3, 7, 1000] {
      var reader = MediaEventReader()
      var read: [MediaEvent] = []
      var offset = 0
      while offset < bytes.count {
        read += reader.append(bytes[offset..<min(bytes.count, offset + piece)])
        offset += piece
      }
      #expect(read == events, "in pieces of \(piece)")
      #expect(!reader.damaged)
    }
  }

  @Test func aFramesPixelsTravelAsTheBodyOfItsMessage() {
    let pixels = (0..<48).map { UInt8($0) }
    let frame = MediaEvent.frame(MediaFrame(milliseconds: 83, width: 4, height: 4, rgb: pixels))
    let (head, body) = frame.parts
    #expect(body == pixels)
    #expect(head.count == 5 + 24)
    #expect(head + body == frame.bytes)
    let time = MediaEvent.time(milliseconds: 250)
    #expect(time.parts.body.isEmpty)
    #expect(time.parts.head == time.bytes)
  }

  @Test func bytesThatAreNotThePlayersAreSaidToBe() {
    var reader = MediaEventReader()
    _ = reader.append(Array("hello, terminal".utf8))
    #expect(reader.damaged)
    var short = MediaEventReader()
    // A frame whose pixels do not match its size.
    var frame = MediaEvent.frame(MediaFrame(milliseconds: 0, width: 4, height: 4, rgb: [1, 2, 3]))
      .bytes
    frame[1] = UInt8(frame.count - 5)
    _ = short.append(frame)
    #expect(short.damaged)
  }
}
