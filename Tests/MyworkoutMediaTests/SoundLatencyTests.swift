import Testing

@testable import MyworkoutMedia

/// What of the sound written is still to be heard, when the sound server does not say it well
/// (SPEC §19: the sound is the master clock, within ±40 ms).
@Suite struct SoundLatencyTests {
  private static let millisecond: Int64 = 1_000_000

  /// Recorded from PulseAudio (a private daemon, a null sink kept awake), 20 ms writes after a
  /// flush: 0 for the first 250 ms the stream played, then 1.8, 21.8, 41.8, 54.9 ms, then about
  /// 74 ms from there on. Taken at its word, the clock ran 75 ms ahead of the sound, then jumped
  /// 50 ms further, then stood still 90 ms to let the sound catch up.
  @Test func whatPulseAudioSaysWhileItsTimingIsStaleIsNotTaken() {
    var latency = SoundLatency()
    latency.flushed()
    // Three writes fill the buffer at once: nothing has been heard yet.
    #expect(latency.wrote(microseconds: 13_500, reported: 0, at: 0) == 13_500)
    #expect(latency.wrote(microseconds: 20_000, reported: 0, at: Self.millisecond / 10) == 33_500)
    #expect(latency.wrote(microseconds: 20_000, reported: 0, at: Self.millisecond / 5) == 53_500)
    // The fourth waited 16 ms for the device: it plays from then on.
    let started = 16 * Self.millisecond
    #expect(latency.wrote(microseconds: 20_000, reported: 0, at: started) == 73_500)
    var now = started
    for _ in 1...12 {
      now += 20 * Self.millisecond
      #expect(latency.wrote(microseconds: 20_000, reported: 0, at: now) == 73_500)
    }
    for stale in [1_800, 21_800, 41_800, 54_861] as [Int64] {
      now += 20 * Self.millisecond
      #expect(latency.wrote(microseconds: 20_000, reported: stale, at: now) == 73_500)
    }
    now += 20 * Self.millisecond
    #expect(latency.wrote(microseconds: 20_000, reported: 74_667, at: now) == 74_667)
    // A second after the start, what the server says stands, lower or not.
    now = started + SoundLatency.settling
    #expect(latency.wrote(microseconds: 20_000, reported: 64_000, at: now) == 64_000)
  }

  @Test func aWriterThatStallsHasNothingWaitingAndAFlushStartsAgain() {
    var latency = SoundLatency()
    latency.flushed()
    _ = latency.wrote(microseconds: 20_000, reported: 0, at: 0)
    _ = latency.wrote(microseconds: 20_000, reported: 0, at: 20 * Self.millisecond)
    // Played out longer than was written: nothing is waiting.
    #expect(latency.wrote(microseconds: 20_000, reported: 0, at: 900 * Self.millisecond) == 0)
    latency.flushed()
    #expect(latency.wrote(microseconds: 20_000, reported: 0, at: 901 * Self.millisecond) == 20_000)
    // ALSA's figure is exact, and above the estimate: it stands.
    #expect(
      latency.wrote(microseconds: 20_000, reported: 61_000, at: 902 * Self.millisecond) == 61_000)
  }
}
