/// The media clock of a playing video (SPEC §19): what media time it is now. It runs at the
/// speed from an anchor (a media time at a moment on the monotonic clock); while sound plays,
/// the sound's own position re-anchors it after every write, so the sound is the master clock
/// and the pictures follow it (as ffplay and mpv do). Without sound it runs on the wall clock.
/// Pure: times come in as arguments (nanoseconds of a monotonic clock), so tests drive it.
package struct MediaClock: Equatable, Sendable {
  /// Whether media time advances.
  package private(set) var running = false
  /// Hundredths: 100 is 1×.
  package private(set) var speed = 100
  /// Media time (microseconds) at `anchorTime`.
  private var anchorMedia: Int64 = 0
  /// Monotonic nanoseconds.
  private var anchorTime: Int64 = 0
  /// After a play with sound: the clock stands until the sound device is seen taking sound, as
  /// mpv waits for its audio to start; else the pictures would run ahead of a device slow to
  /// start and then go back to it. Taking sound: a report that moved on from the one before and
  /// came `soundStartGap` or more after it (a write that waited for the device). Writes that
  /// only fill the stream's buffer come back at once, and PulseAudio says a latency of 0 until
  /// it has timing from a stream that plays, so their reports move on without anything heard.
  package private(set) var waitingForSound = false
  private var lastHeard: Int64?
  private var lastHeardAt: Int64 = 0
  private var waitingSince: Int64 = 0
  /// A write that returns this long (ns) after the one before waited for the device.
  package static let soundStartGap: Int64 = 5_000_000
  /// How long (ns) the clock waits for the sound at most before it runs on the wall clock.
  package static let soundStartLimit: Int64 = 2_500_000_000

  package init() {}

  /// Media milliseconds at `now`.
  package func media(at now: Int64) -> Int64 {
    micros(at: now) / 1000
  }

  private func micros(at now: Int64) -> Int64 {
    guard running, !waitingForSound else { return anchorMedia }
    let elapsed = max(0, now - anchorTime)
    return anchorMedia + elapsed / 1000 * Int64(speed) / 100
  }

  /// Starts (or goes on) from where it stands; with `awaitingSound`, once the sound is heard
  /// moving (or after `soundStartLimit`, see `stopWaiting`).
  package mutating func play(at now: Int64, awaitingSound: Bool = false) {
    anchorMedia = micros(at: now)
    anchorTime = now
    running = true
    waitingForSound = awaitingSound
    lastHeard = nil
    waitingSince = now
  }

  /// Stops where it stands.
  package mutating func pause(at now: Int64) {
    anchorMedia = micros(at: now)
    anchorTime = now
    running = false
    waitingForSound = false
  }

  /// Runs on without the sound when it has been waited for `limit` (a device that takes
  /// nothing, a sound track that has ended; 0: the device is gone): whether it stopped waiting
  /// now.
  package mutating func stopWaiting(at now: Int64, after limit: Int64 = soundStartLimit) -> Bool {
    guard waitingForSound, now - waitingSince >= limit else { return false }
    waitingForSound = false
    anchorTime = now
    return true
  }

  /// Moves to a media time (a seek, a picture shown while paused), running or not.
  package mutating func jump(to milliseconds: Int64, at now: Int64) {
    anchorMedia = milliseconds * 1000
    anchorTime = now
  }

  /// The process stood still from `stoppedAt` to `now` (stopped from outside, SIGSTOP): media
  /// time does not move for that while, as the sound's clock does not (a stream that ran dry
  /// goes on from where it was). Else the time would be skipped over, and counted as watched.
  package mutating func standstill(from stoppedAt: Int64, to now: Int64) {
    guard running, now > stoppedAt else { return }
    anchorMedia = micros(at: stoppedAt)
    anchorTime = now
  }

  /// A new speed from now on.
  package mutating func setSpeed(_ hundredths: Int, at now: Int64) {
    anchorMedia = micros(at: now)
    anchorTime = now
    speed = max(1, hundredths)
  }

  /// How far (µs) the sound may be from the clock before the clock jumps to it.
  package static let snapMicros: Int64 = 40_000

  /// The sound says `milliseconds` is being heard at `now`: while running, the clock follows
  /// it. Within `snapMicros` it is pulled an eighth of the way each report (the sound server's
  /// latency reports jitter by tens of milliseconds, 50 times a second: followed exactly, they
  /// would push the clock past frames and drop them); further off (a seek, a stall, sound that
  /// starts late), it jumps there at once. So it stays within ±40 ms of the sound.
  package mutating func heard(_ milliseconds: Int64, at now: Int64) {
    guard running else { return }
    if waitingForSound {
      defer {
        lastHeard = milliseconds
        lastHeardAt = now
      }
      guard let last = lastHeard, milliseconds > last, now - lastHeardAt >= Self.soundStartGap
      else { return }
      // The device takes sound: the clock runs from what it says.
      waitingForSound = false
      anchorMedia = max(0, milliseconds) * 1000
      anchorTime = now
      return
    }
    let sound = max(0, milliseconds) * 1000
    let current = micros(at: now)
    let difference = sound - current
    anchorMedia = abs(difference) > Self.snapMicros ? sound : current + difference / 8
    anchorTime = now
  }
}

/// Which picture is due (SPEC §19): a frame is shown when its time comes on the media clock; a
/// frame whose successor is already due is dropped; a frame that is late by more than two
/// frames is dropped before it is even scaled (the decoder is behind and must catch up).
package enum FrameSchedule {
  package enum Decision: Equatable, Sendable {
    case show
    case drop
    /// Not yet: due after this many wall nanoseconds.
    case wait(nanoseconds: Int64)
  }

  /// - Parameters:
  ///   - pts: the frame's media time (ms); `next`: the following frame's, when decoded.
  ///   - clock: media ms now; `speed` in hundredths.
  package static func decide(pts: Int64, next: Int64?, clock: Int64, speed: Int) -> Decision {
    if let next, next <= clock { return .drop }
    if pts <= clock { return .show }
    // Nanoseconds, saturated: a time years ahead (a loop's B in a class listed far longer than
    // its clip) overflowed, and the video's player ended on it.
    let (scaled, overflow) = (pts - clock).multipliedReportingOverflow(by: 100_000_000)
    return .wait(nanoseconds: overflow ? .max : scaled / Int64(max(1, speed)))
  }

  /// Whether a freshly decoded frame is too late to be worth scaling.
  package static func tooLate(pts: Int64, clock: Int64, frameMilliseconds: Int) -> Bool {
    pts + 2 * Int64(frameMilliseconds) < clock
  }
}
