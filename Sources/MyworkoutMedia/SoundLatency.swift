/// How much of the sound written is still to be heard (µs), for the sound clock (SPEC §19).
///
/// ALSA says so exactly. PulseAudio, after a flush, says 0 for the first few hundred
/// milliseconds a stream plays (its timing is stale, and the time it guesses is held at what was
/// written), then for a few writes a figure that grows by each write as if no time passed
/// (1.8, 21.8, 41.8 ms, where 74 ms followed and held). So for a second from the moment the
/// device starts taking sound (a write that had to wait for it, `MediaClock.soundStartGap`
/// after the one before), the latency is at least the estimate: everything written since the
/// flush less the wall time since then. After that second the server's figure stands (the
/// estimate would drift with the device's clock); a 0 is still replaced by the estimate.
/// Pure: times come in as arguments (nanoseconds of a monotonic clock).
package struct SoundLatency: Sendable {
  /// Wall microseconds of sound written since the flush.
  private var written: Int64 = 0
  private var lastWriteAt: Int64?
  /// When the device started taking sound.
  private var startedAt: Int64?
  /// How long (ns) after the start the estimate holds the server's figure up.
  package static let settling: Int64 = 1_000_000_000

  package init() {}

  /// The device's queue was emptied: nothing written, nothing playing.
  package mutating func flushed() {
    written = 0
    lastWriteAt = nil
    startedAt = nil
  }

  /// `microseconds` of sound (wall time, whatever the speed) were written and the write
  /// returned at `now`; the server said `reported` µs. Returns the latency to take, in µs.
  package mutating func wrote(microseconds: Int64, reported: Int64, at now: Int64) -> Int64 {
    written += microseconds
    if startedAt == nil, let last = lastWriteAt, now - last >= MediaClock.soundStartGap {
      startedAt = now
    }
    lastWriteAt = now
    let estimate = max(0, written - (startedAt.map { (now - $0) / 1000 } ?? 0))
    if let startedAt, now - startedAt >= Self.settling {
      return reported > 0 ? reported : estimate
    }
    return max(reported, estimate)
  }
}
