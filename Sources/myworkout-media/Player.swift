import CEventLoop
import CMedia
import MyworkoutMedia

#if canImport(Glibc)
  import Glibc
#endif

/// The player: a decoding thread fills a few frames and two seconds of sound ahead; a sound
/// thread feeds the sound server and reports what is heard (the master clock); the main thread
/// reads commands and sends each picture when its time comes, sleeping in `poll` in between
/// (never busy, and not at all while paused).
final class Player: @unchecked Sendable {
  private struct Frame {
    var generation: Int
    var pts: Int64
    var width: Int
    var height: Int
    var rgb: [UInt8]
    /// The source's display size for this picture (`width`x`height` is what it was scaled to).
    var shape: Shape
  }

  /// A picture's display size in the source.
  private struct Shape: Equatable {
    var width: Int
    var height: Int
  }

  private struct Chunk {
    var generation: Int
    var pts: Int64
    var samples: [Int16]
    /// Media milliseconds the chunk covers (its length times the speed).
    var length: Int64
  }

  /// Half a second of pictures (at 24 a second; 1.3 MiB at 200x60) and two seconds of sound
  /// are decoded ahead: the sound is what a stream's stall must not cut. Times `refill`.
  private static let frameBase = 12
  private static let soundBase = 96_000
  /// How much more than that is gathered ahead: doubled at each wait for the source (to 8:
  /// four seconds of pictures, 10 MiB at 200x60), so that a stream slower than its video waits
  /// longer and less often, and the class plays in stretches a person can follow. The sound's
  /// queue stays at least a second ahead of the pictures' half (the wait's end).
  private var refill = 1
  private var frameCapacity: Int { Self.frameBase * refill }
  private var soundCapacity: Int { Self.soundBase * max(1, refill / 4) }
  /// Once the queues are full the decoder rests until half the pictures or a quarter of the
  /// sound is used: it wakes a few times a second, not at every picture and every write of sound.
  private var frameLow: Int { frameCapacity / 2 }
  private var soundLow: Int { soundCapacity * 3 / 4 }
  /// Media time is reported this often while playing.
  private static let timeEvery: Int64 = 250_000_000

  private let monitor = Monitor()
  private let wake = mw_wake_create()
  private let muted: Bool

  // Guarded by `monitor`.
  /// Changes at every seek: what was decoded before it is dropped.
  private var generation = 0
  private var pendingSeek: Int64?
  private var pendingTempo: Int?
  private var width = 0
  private var height = 0
  private var frames: [Frame] = []
  private var chunks: [Chunk] = []
  private var queuedSound = 0
  /// The sound handed to the device lately (the newest last, half a second at most): at a pause,
  /// what of it was not heard yet goes back to the queue.
  private var written: [Chunk] = []
  private var decodedAll = false
  /// The decoder filled the queues and waits for them to go down to their low marks.
  private var resting = false
  private var failure: String?
  private var info: mw_media_info?
  private var readySent = false
  private var clock = MediaClock()
  private var playing = false
  /// The next frame is shown as soon as it is decoded (after opening, a seek, a step), and the
  /// clock waits for it.
  private var showNext = false
  /// Since when (monotonic ns) a seek's frame has been waited for, from a network source.
  private var seekWaitSince: Int64?
  /// `buffering` was said for the wait (see `seekBufferingAfter`).
  private var seekBuffering = false
  /// A seek's frame from the network not there after this long (ns): the state line says
  /// `Buffering…` (a local seek far from a keyframe takes up to about 350 ms).
  private static let seekBufferingAfter: Int64 = 600_000_000
  /// The source is a URL (its bytes can be late).
  private var networked = false
  private var stepping = false
  /// Steps forward asked for and not yet shown (`.` pressed faster than pictures come): each
  /// counts, and a step back takes one back.
  private var stepsAhead = 0
  /// Step commands received, and the count last said (`MediaEvent.stepped`): once no picture
  /// is still to come for them, the app hears they have all landed (an `l` typed after a burst
  /// of `.` marks where the last one stands, not the first).
  private var stepsAsked = 0
  private var stepsSaid = 0
  private var buffering = false
  private var lastShown: Int64 = 0
  /// The media time the picture on screen stands for: its own, or a seek's time when the
  /// picture on screen there began before it (a still stretch).
  private var shownAt: Int64 = 0
  /// Where a restart is taking the picture, until its frame is shown: the position a new size
  /// or a step back starts from then (the last frame shown is from before the seek).
  private var target: Int64?
  private var lastTime: Int64 = 0
  /// The end of the A–B loop (`mark`, media ms): its time is said the moment play reaches it.
  private var mark: Int64?
  /// Play stands before `mark` and has not reached it since it last landed there (a seek, a
  /// step, the mark given): reaching it is said once. A seek over it is not play reaching it, and
  /// the sound's clock, pulled back a few milliseconds by the sound after B was said, does not
  /// say it again.
  private var beforeMark = false
  private var tempo = 100
  private var soundOn: Bool
  private var sound: OpaquePointer?
  private var volume = 100
  private var flushSound = false
  private var quitting = false
  private var opened = false
  private var header = ""
  private var endedSent = false
  /// `--mute`'s `no sound` was said (once, at the start).
  private var mutedSaid = false
  /// Where the sound decoded since the last restart ends (media ms), kept or not.
  private var soundEnd: Int64 = 0
  /// A file whose pictures and sound end more than this (ms) before its length is cut short.
  private static let cutShortBy: Int64 = 2_000
  private static let cutShort = "the file is cut short"

  /// A signalfd that reads SIGCONT (-1: none).
  private let continued: Int32
  /// When the showing thread last woke (monotonic ns): while playing, at least once a frame.
  private var lastAwake: Int64 = 0

  init(muted: Bool, continued: Int32 = -1) {
    self.muted = muted
    self.continued = continued
    soundOn = !muted
  }

  /// Reads commands and shows pictures until standard input closes.
  func run() -> Never {
    var input: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    _ = fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK)
    while true {
      var fds = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        pollfd(fd: continued, events: Int16(POLLIN), revents: 0),
      ]
      let timeout = monitor.locked { nextTimeout() }
      if poll(&fds, continued >= 0 ? 3 : 2, timeout) < 0, errno != EINTR { finish() }
      if fds[2].revents != 0 { wentOn() }
      if fds[0].revents != 0 {
        while true {
          let count = read(STDIN_FILENO, &buffer, buffer.count)
          if count == 0 { finish() }
          if count < 0 { break }
          input += buffer[0..<count]
        }
        while let end = input.firstIndex(of: 10) {
          let line = String(decoding: input[..<end], as: UTF8.self)
          input.removeSubrange(...end)
          if let command = MediaCommand(line: Substring(line)) { handle(command) }
        }
      }
      if fds[1].revents != 0 {
        var value: UInt64 = 0
        _ = read(wake, &value, 8)
      }
      send(monitor.locked { present() })
    }
  }

  /// SIGCONT: the process may have stood stopped since it last woke (SIGSTOP from outside; the
  /// app's own Ctrl-Z leaves the player running, in a process group of its own). Media time does
  /// not move for the standstill: the picture goes on from where it stood, and no report says a
  /// time nobody saw. (With sound, the sound's reports then keep the clock, as always.)
  private func wentOn() {
    var information = signalfd_siginfo()
    while read(continued, &information, MemoryLayout<signalfd_siginfo>.size) > 0 {}
    let now = monotonicNow()
    monitor.locked { clock.standstill(from: lastAwake, to: now) }
  }

  private func finish() -> Never {
    monitor.locked { quitting = true }
    _exit(0)
  }

  // MARK: Commands

  private func handle(_ command: MediaCommand) {
    let now = monotonicNow()
    var soundEvent: MediaEvent?
    monitor.locked {
      switch command {
      case .header(let text):
        header = text.isEmpty ? "" : text + "\r\n"
      case .open(let source, let timeout):
        guard !opened else { return }
        opened = true
        showNext = true
        networked = FailureReason.isNetworked(source)
        let header = self.header
        startThread { [self] in decode(source: source, header: header, timeout: timeout) }
        if soundOn { startSound() }
      case .size(let newWidth, let newHeight):
        guard newWidth != width || newHeight != height else { return }
        width = max(0, min(newWidth, 4096))
        height = max(0, min(newHeight, 4096))
        restart(at: target ?? shownAt, show: true, now: now)
      case .play:
        guard !playing else { return }
        playing = true
        endedSent = false
        if !showNext { clock.play(at: now, awaitingSound: soundLeads) }
      case .pause:
        guard playing else { return }
        playing = false
        clock.pause(at: now)
        // What was decoded stays queued: play goes on from here without decoding again (a
        // long stretch from a keyframe, for some videos). The sound in the device is dropped
        // and what of it was not heard yet is queued again, so play resumes with it.
        if sound != nil {
          requeueUnheard(from: clock.media(at: now))
          flushSound = true
          monitor.wakeAll()
        }
      case .seek(let milliseconds):
        restart(at: Int64(max(0, milliseconds)), show: true, now: now)
      case .speed(let hundredths):
        let position = clock.media(at: now)
        tempo = min(max(hundredths, 25), 10_000)
        pendingTempo = tempo
        clock.setSpeed(tempo, at: now)
        restart(at: position, show: true, now: now)
      case .sound(let on):
        guard !muted else {
          soundEvent = .sound("no sound")
          return
        }
        // No device to turn off: the reason there is none stays what is said.
        if !on, sound == nil, let missing = soundMissing {
          soundEvent = .sound(Self.noSound(missing))
          return
        }
        soundOn = on
        if on {
          if sound != nil {
            soundEvent = .sound(nil)
            restart(at: clock.media(at: now), show: true, now: now)
          } else {
            // Said (and played from here) once the device opens, on the sound's thread.
            announceSound = true
            startSound()
          }
        } else {
          flushSound = true
          soundEvent = .sound("sound off")
        }
      case .volume(let percent):
        volume = min(max(percent, 0), 100)
      case .mark(let milliseconds):
        mark = milliseconds.map { Int64(max(0, $0)) }
        beforeMark = mark.map { clock.media(at: now) < $0 } ?? false
      case .step(let frames):
        stepsAsked += 1
        guard !playing, info != nil else { return }
        let frame = Int64(info.map { max(2, Int($0.frame_ms)) } ?? 40)
        if frames > 0, let target {
          // A seek or a step back on its way: the frame after the one it will show.
          restart(at: target + frame, show: true, now: now)
        } else if frames > 0 {
          showNext = true
          stepping = true
          stepsAhead += 1
        } else if stepping, stepsAhead > 0 {
          // A step forward still on its way is taken back.
          stepsAhead -= 1
        } else {
          // The frame before: half a frame back from the one shown (frame times are whole
          // milliseconds: 1 ms back can land on the end of the frame before, which is then
          // skipped, and the same frame shows again), a whole frame back from a step that is
          // still on its way.
          let back = target.map { $0 - frame } ?? (lastShown - frame / 2)
          restart(at: max(0, back), show: true, now: now)
        }
      }
      monitor.wakeAll()
    }
    if let soundEvent { send([soundEvent]) }
  }

  /// Keeps `chunk` among the sound written lately (half a second of it, the newest last).
  private func keepWritten(_ chunk: Chunk) {
    written.append(chunk)
    var kept: Int64 = 0
    var first = written.count
    while first > 0, kept < 500 {
      first -= 1
      kept += written[first].length
    }
    if first > 0 { written.removeFirst(first) }
  }

  /// Puts the sound written after `position` (media ms) back at the front of the queue, the
  /// chunk that holds `position` cut there.
  private func requeueUnheard(from position: Int64) {
    var unheard: [Chunk] = []
    for var chunk in written where chunk.generation == generation {
      guard chunk.pts + chunk.length > position else { continue }
      if chunk.pts < position, chunk.length > 0 {
        let frames = chunk.samples.count / 2
        let skip = min(frames, Int((position - chunk.pts) * Int64(frames) / chunk.length))
        chunk.samples.removeFirst(skip * 2)
        chunk.length -= position - chunk.pts
        chunk.pts = position
      }
      unheard.append(chunk)
    }
    written.removeAll()
    chunks = unheard + chunks
    queuedSound += unheard.reduce(0) { $0 + $1.samples.count / 2 }
  }

  /// Decoding goes back to `position` (a seek, a pause, a new speed or size): what was decoded
  /// is dropped and the sound queued is flushed; with `show`, the frame there is shown at once
  /// and the clock waits for it.
  private func restart(at position: Int64, show: Bool, now: Int64) {
    generation += 1
    // At (or past) the end the last frame is the one to show.
    if let info, info.duration_ms > 0 {
      pendingSeek = min(position, max(0, info.duration_ms - Int64(info.frame_ms)))
    } else {
      pendingSeek = position
    }
    frames.removeAll()
    chunks.removeAll()
    written.removeAll()
    queuedSound = 0
    soundEnd = 0
    decodedAll = false
    flushSound = true
    // Buffering when the seek came: said over once its frame is shown.
    if buffering { seekBuffering = true }
    buffering = false
    endedSent = false
    beforeMark = mark.map { position < $0 } ?? false
    clock.pause(at: now)
    clock.jump(to: position, at: now)
    if show {
      showNext = true
      stepping = false
      stepsAhead = 0
      target = pendingSeek
      if networked && seekWaitSince == nil { seekWaitSince = now }
    }
  }

  /// Starts the sound's thread, which opens the stream (the lock held). The opening is not
  /// done here: a sound server that takes the connection and never answers holds it up for a
  /// minute, and the commands must go on meanwhile. While it opens, the sound is kept and a play
  /// waits for it (at most `MediaClock.soundStartLimit`).
  private func startSound() {
    guard sound == nil, !soundOpening, soundOn else { return }
    soundOpening = true
    startThread { [self] in play() }
  }

  /// Opens the stream (on the sound's thread, the lock not held): whether it opened. When none
  /// can be, the state line says why and the clock is the wall's.
  private func openSound() -> Bool {
    var reason = [CChar](repeating: 0, count: 256)
    let stream = mw_sound_open("Myworkout GO", &reason, Int32(reason.count))
    let now = monotonicNow()
    monitor.locked {
      soundOpening = false
      if let stream {
        soundMissing = nil
        sound = stream
        if announceSound {
          announceSound = false
          soundToSay = .sound(nil)
          restart(at: clock.media(at: now), show: true, now: now)
        }
        monitor.wakeAll()
      } else {
        withoutSound(because: Self.text(reason), at: now)
      }
    }
    signalWake()
    return stream != nil
  }

  /// No sound for `reason` (the lock held): the state line says so, what was kept for it goes,
  /// and the pictures run on the wall clock. `s` tries the device again.
  private func withoutSound(because reason: String, at now: Int64) {
    sound = nil
    soundOn = false
    announceSound = false
    soundMissing = reason
    soundToSay = .sound(Self.noSound(reason))
    _ = clock.stopWaiting(at: now, after: 0)
    chunks.removeAll()
    written.removeAll()
    queuedSound = 0
    monitor.wakeAll()
  }

  /// The sound's thread is opening the stream.
  private var soundOpening = false
  /// `s` turned the sound on with no stream open: `.sound(nil)` once it opens.
  private var announceSound = false
  /// What the sound's thread has to say on the state line (a device that failed, or opened for
  /// `s`): sent with the next events.
  private var soundToSay: MediaEvent?
  /// Why the last try to open the sound failed (nil once a stream is open).
  private var soundMissing: String?

  /// The state line's words for a sound device that could not be opened for `reason`.
  private static func noSound(_ reason: String) -> String {
    reason.isEmpty ? "no sound" : "no sound: \(reason)"
  }

  // MARK: Showing

  /// What to wait for in `poll` (the lock held): the next frame's time while playing; forever
  /// while paused.
  private func nextTimeout() -> Int32 {
    if failure != nil && !readySent { return 0 }
    if info != nil && !readySent { return 0 }
    let now = monotonicNow()
    // A seek's wait is timed once the source is open: while it opens, the app says `Loading
    // video…`, and the wait could not end here (a walk-through saw this loop spin).
    if readySent, showNext, !seekBuffering, let since = seekWaitSince {
      return Self.pollMilliseconds(since + Self.seekBufferingAfter - now)
    }
    guard playing, !buffering, !showNext else { return -1 }
    var wait = Self.timeEvery - (now - lastTime)
    if let head = frames.first {
      let media = clock.media(at: now)
      if case .wait(let nanoseconds) = FrameSchedule.decide(
        pts: head.pts, next: nil, clock: media, speed: clock.speed)
      {
        wait = min(wait, nanoseconds)
      } else {
        wait = 0
      }
    } else if !decodedAll {
      wait = min(wait, 50_000_000)
    } else {
      wait = min(wait, Int64(info.map { Int($0.frame_ms) } ?? 40) * 1_000_000)
    }
    if let mark, beforeMark,
      case .wait(let nanoseconds) = FrameSchedule.decide(
        pts: mark, next: nil, clock: clock.media(at: now), speed: clock.speed)
    {
      wait = min(wait, nanoseconds)
    }
    return Self.pollMilliseconds(wait)
  }

  /// A wait in nanoseconds as `poll`'s timeout: whole milliseconds rounded up, none below 0,
  /// clamped to `Int32` (a wait years long, for a loop's B far past the clip, overflowed).
  private static func pollMilliseconds(_ nanoseconds: Int64) -> Int32 {
    Int32(clamping: max(0, nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 > 0 ? 1 : 0)))
  }

  /// The source failed for good (`reason`): play stops where it stands, and it is said once.
  private func stopForGood(_ reason: String, at now: Int64, into events: inout [MediaEvent]) {
    endedSent = true
    playing = false
    clock.pause(at: now)
    events.append(.failed(reason))
  }

  /// The frame a seek, a step or the open waited for is shown (or there is none to show): the
  /// wait is over, and a `Buffering…` said for it too.
  private func shownNext(into events: inout [MediaEvent]) {
    showNext = false
    stepping = false
    stepsAhead = 0
    target = nil
    seekWaitSince = nil
    if seekBuffering {
      seekBuffering = false
      events.append(.buffering(false))
    }
  }

  /// The events due now (the lock held), and the steps asked for said landed once no picture
  /// is still to come for them.
  private func present() -> [MediaEvent] {
    var events = presentPictures()
    if !showNext, stepsSaid != stepsAsked {
      stepsSaid = stepsAsked
      events.append(.stepped(stepsAsked))
    }
    return events
  }

  private func presentPictures() -> [MediaEvent] {
    var events: [MediaEvent] = []
    let now = monotonicNow()
    lastAwake = now
    if let soundToSay {
      events.append(soundToSay)
      self.soundToSay = nil
    }
    if muted && !mutedSaid {
      mutedSaid = true
      events.append(.sound("no sound"))
    }
    if !readySent, let failure {
      readySent = true
      events.append(.failed(failure))
      return events
    }
    guard let info else { return events }
    if !readySent {
      readySent = true
      let shape = Shape(width: Int(info.width), height: Int(info.height))
      saidShape = shape
      events.append(Self.ready(info, shape))
    }
    if let failure, !endedSent {
      // The stream stopped for good mid-way: what was shown stays.
      stopForGood(failure, at: now, into: &events)
      return events
    }
    if showNext {
      if stepping {
        frames.removeAll { $0.pts <= lastShown }
        monitor.wake(.decoder)
        // Every step but the last passes a picture over; with too few decoded yet, wait.
        while stepsAhead > 1, frames.count > 1 {
          frames.removeFirst()
          stepsAhead -= 1
        }
        if stepsAhead > 1, !decodedAll { return events }
        if stepsAhead == 0 {
          // Each step forward was taken back: the picture shown is said again.
          shownNext(into: &events)
          if let sent { events.append(frameEvent(sent)) }
          return events
        }
      }
      if let head = frames.first {
        frames.removeFirst()
        // The picture on screen at a seek's time may start well before it (a still stretch
        // with no pictures): the clock goes on from the time asked for.
        let sought = target ?? head.pts
        shownNext(into: &events)
        lastShown = head.pts
        shownAt = max(head.pts, sought)
        beforeMark = mark.map { shownAt < $0 } ?? false
        clock.jump(to: shownAt, at: now)
        if playing { clock.play(at: now, awaitingSound: soundLeads) }
        monitor.wakeAll()
        sayShape(of: head, info, into: &events)
        events.append(frameEvent(head))
      } else if decodedAll {
        let sought = target
        shownNext(into: &events)
        if let sought, info.duration_ms - sought > Self.cutShortBy {
          // Nothing at all from the seek's time on, well before the length the file gives: a
          // file cut short (a walk-through's seek past the cut showed nothing, or said `no
          // connection` for a file on its own disk).
          failure = Self.cutShort
          stopForGood(Self.cutShort, at: now, into: &events)
          return events
        }
      } else if !seekBuffering, let since = seekWaitSince, now - since >= Self.seekBufferingAfter {
        seekBuffering = true
        events.append(.buffering(true))
      }
      return events
    }
    if buffering {
      if frames.count >= frameCapacity / 2 || decodedAll {
        buffering = false
        clock.play(at: now, awaitingSound: soundLeads)
        monitor.wakeAll()
        events.append(.buffering(false))
      }
      return events
    }
    guard playing else { return events }
    // Held for the sound too long (a device that takes none): the wall clock runs it. The
    // time events every quarter second bring us here while it waits.
    _ = clock.stopWaiting(at: now)
    let media = clock.media(at: now)
    while let head = frames.first {
      let next = frames.count > 1 ? frames[1].pts : nil
      let decision = FrameSchedule.decide(pts: head.pts, next: next, clock: media, speed: tempo)
      if decision == .drop {
        frames.removeFirst()
        continue
      }
      if decision == .show {
        frames.removeFirst()
        lastShown = head.pts
        shownAt = head.pts
        sayShape(of: head, info, into: &events)
        events.append(frameEvent(head))
      }
      break
    }
    if frames.count <= frameLow { monitor.wake(.decoder) }
    let frameLength = Int64(info.frame_ms)
    // The end: the last picture's frame and the sound (which may go on past it) both over.
    if frames.isEmpty && decodedAll && media >= max(lastShown + frameLength, soundEnd)
      && !endedSent
    {
      endedSent = true
      playing = false
      clock.pause(at: now)
      // Pictures and sound both ending well before the length the file gives (a download cut
      // short): not the class's end (a walk-through saw a truncated file finish the class).
      let reached = max(lastShown + frameLength, soundEnd)
      events.append(
        info.duration_ms - reached > Self.cutShortBy ? .failed(Self.cutShort) : .ended)
    } else if frames.isEmpty && !decodedAll && soundEnd <= media + 200
      && (media > shownAt + 2 * frameLength + 200
        || (soundLeads && !clock.waitingForSound && chunks.isEmpty))
    {
      // No picture due, and no sound decoded ahead either: the source ran dry. (Sound ahead
      // with no picture is a still stretch: the picture stays, the sound plays.) On the wall
      // clock the pictures fall behind it; the sound's clock stands when the sound runs out,
      // so with sound it is the sound that says so (before, a walk-through's slow stream crept
      // at half speed under `▶ Playing`, the clock stopping and starting with what came).
      buffering = true
      refill = min(8, refill * 2)
      monitor.wake(.decoder)
      clock.pause(at: now)
      events.append(.buffering(true))
    }
    let time = clock.media(at: now)
    var reachedMark = false
    if let mark, beforeMark, time >= mark {
      reachedMark = true
      beforeMark = false
    }
    // Not after the end just said: the app may have looped back to A on it (a loop whose B is
    // the end), and a time at the end would be B reached a second time.
    if playing, now - lastTime >= Self.timeEvery || reachedMark {
      lastTime = now
      events.append(.time(milliseconds: Int(time)))
    }
    return events
  }

  /// The display size the app was told last (by `ready`).
  private var saidShape: Shape?

  private static func ready(_ info: mw_media_info, _ shape: Shape) -> MediaEvent {
    .ready(
      durationMilliseconds: Int(info.duration_ms), width: shape.width, height: shape.height,
      frameMilliseconds: Int(info.frame_ms), hasSound: info.has_audio != 0)
  }

  /// Says `ready` again, with the new size, before the first picture whose display size is not
  /// the one said (the pictures changed size mid-way): the app fits the picture to it and asks
  /// for that size, and the pictures are decoded again at it from there.
  private func sayShape(of frame: Frame, _ info: mw_media_info, into events: inout [MediaEvent]) {
    guard frame.shape != saidShape else { return }
    saidShape = frame.shape
    events.append(Self.ready(info, frame.shape))
  }

  /// The picture sent last (the app holds it): the next one of its size goes as a patch.
  private var sent: Frame?

  /// A picture to send: what changed since the one sent before it, or the whole picture when
  /// it is the first, of another size, or changed nearly everywhere (the patch's table and
  /// the copy into it would cost more than they save).
  private func frameEvent(_ frame: Frame) -> MediaEvent {
    defer { sent = frame }
    if let sent, sent.width == frame.width, sent.height == frame.height,
      sent.rgb.count == frame.rgb.count, frame.rgb.count == frame.width * frame.height * 3
    {
      let patch = MediaPatch.between(
        sent.rgb, frame.rgb, width: frame.width, height: frame.height,
        milliseconds: Int(frame.pts))
      if patch.pixels.count < frame.rgb.count / 2 { return .patch(patch) }
    }
    return .frame(
      MediaFrame(
        milliseconds: Int(frame.pts), width: frame.width, height: frame.height, rgb: frame.rgb))
  }

  /// Writes what a turn says in one system call (most often a picture's patch and the time),
  /// so the app wakes once; a whole picture's pixels are written from where they are.
  private func send(_ events: [MediaEvent]) {
    var pending: [UInt8] = []
    for event in events {
      let (head, body) = event.parts
      pending += head
      if body.count > 65_536 {
        writeAll(pending, body)
        pending = []
      } else {
        pending += body
      }
    }
    if !pending.isEmpty { writeAll(pending, []) }
  }

  /// `head` and `body` in one system call (as many as it takes).
  private func writeAll(_ head: [UInt8], _ body: [UInt8]) {
    var offset = 0
    let total = head.count + body.count
    while offset < total {
      let written = head.withUnsafeBytes { head in
        body.withUnsafeBytes { body in
          var pieces = [iovec]()
          if offset < head.count {
            pieces.append(
              iovec(
                iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress! + offset),
                iov_len: head.count - offset))
          }
          let bodyOffset = max(0, offset - head.count)
          if bodyOffset < body.count {
            pieces.append(
              iovec(
                iov_base: UnsafeMutableRawPointer(mutating: body.baseAddress! + bodyOffset),
                iov_len: body.count - bodyOffset))
          }
          return writev(STDOUT_FILENO, pieces, Int32(pieces.count))
        }
      }
      if written < 0 {
        if errno == EINTR { continue }
        _exit(0)
      }
      offset += written
    }
  }

  private func signalWake() {
    var one: UInt64 = 1
    _ = write(wake, &one, 8)
  }

  // MARK: Decoding (its own thread)

  private func decode(source: String, header: String, timeout: Int) {
    let networked = FailureReason.isNetworked(source)
    if let problem = FailureReason.localProblem(source) {
      monitor.locked { failure = problem }
      signalWake()
      return
    }
    var reason = [CChar](repeating: 0, count: 512)
    let open = { [muted] (reason: inout [CChar]) in
      mw_media_open(source, header, Int32(timeout), muted ? 0 : 1, &reason, Int32(reason.count))
    }
    guard var media = open(&reason) else {
      monitor.locked { failure = FailureReason.text(for: Self.text(reason), networked: networked) }
      signalWake()
      return
    }
    // Whether anything was read since the source opened: a stream that reads only forward
    // (a server without byte ranges) is opened again for a seek it cannot make from there.
    var readSinceOpen = false
    var details = mw_media_info()
    mw_media_info_get(media, &details)
    monitor.locked { info = details }
    signalWake()
    let frameLength = Int(details.frame_ms)
    while true {
      let (seek, tempoChange, size, mine, late, showing) = monitor.locked {
        () -> (Int64?, Int?, (Int, Int), Int, Int64?, Bool) in
        while !quitting && pendingSeek == nil && pendingTempo == nil && decoderRests() {
          monitor.wait(.decoder)
        }
        let seek = pendingSeek
        let tempoChange = pendingTempo
        pendingSeek = nil
        pendingTempo = nil
        let now = monotonicNow()
        let late: Int64? = playing && !showNext && !buffering ? clock.media(at: now) : nil
        return (seek, tempoChange, (width, height), generation, late, showNext)
      }
      if let seek, readSinceOpen, mw_media_can_seek(media, seek) == 0 {
        // A walk-through's seek back on such a stream said `No video: the stream stopped (no
        // connection)`, though the server answered every request.
        mw_media_close(media)
        guard let again = open(&reason) else {
          let text = FailureReason.text(for: Self.text(reason), networked: networked)
          monitor.locked { failure = "the stream stopped (\(text))" }
          signalWake()
          return
        }
        media = again
        readSinceOpen = false
        let speed = monitor.locked { tempo }
        if speed != 100 { mw_media_set_tempo(media, Int32(speed)) }
      }
      if let tempoChange { mw_media_set_tempo(media, Int32(tempoChange)) }
      if let seek { mw_media_seek(media, seek) }
      var pts: Int64 = 0
      var samples: UnsafePointer<Int16>?
      var count: Int32 = 0
      let kind = mw_media_read(media, &pts, &samples, &count, &reason, Int32(reason.count))
      readSinceOpen = true
      // Muted, no sound is decoded: where it would end is what was read of it.
      let soundRead = muted ? mw_media_sound_read(media) : -1
      switch kind {
      case Int32(MW_READ_VIDEO):
        if !showing, let late,
          FrameSchedule.tooLate(pts: pts, clock: late, frameMilliseconds: frameLength)
        {
          continue
        }
        // No room for a picture (a small terminal): the frame still keeps the time, empty.
        let (width, height) = size.0 > 0 && size.1 > 0 ? size : (0, 0)
        // Every byte is written by the conversion: not filled first.
        var converted = true
        let rgb = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
          guard let base = buffer.baseAddress, width > 0 else { return }
          converted = mw_media_convert(media, Int32(width), Int32(height), base) == 0
          count = converted ? buffer.count : 0
        }
        if !converted { continue }
        var shape: (width: Int32, height: Int32) = (0, 0)
        mw_media_picture_size(media, &shape.width, &shape.height)
        let frame = Frame(
          generation: mine, pts: pts, width: width, height: height, rgb: rgb,
          shape: Shape(width: Int(shape.width), height: Int(shape.height)))
        let wakeUp = monitor.locked { () -> Bool in
          guard mine == generation else { return false }
          frames.append(frame)
          soundEnd = max(soundEnd, soundRead)
          // The showing thread waits for the next frame's time; only these change what it
          // waits for: a frame to show at once, the first in an empty queue, enough to end
          // buffering.
          return showNext || (playing && frames.count == 1)
            || (buffering && frames.count >= frameCapacity / 2)
        }
        if wakeUp { signalWake() }
      case Int32(MW_READ_AUDIO):
        guard let samples, count > 0 else { continue }
        let copy = Array(UnsafeBufferPointer(start: samples, count: Int(count) * 2))
        monitor.locked {
          // Without sound the pictures follow the wall clock and the sound is not kept.
          guard mine == generation else { return }
          let length = Int64(count) * 1000 * Int64(tempo) / 100 / 48_000
          soundEnd = max(soundEnd, pts + length)
          guard soundKept else { return }
          chunks.append(Chunk(generation: mine, pts: pts, samples: copy, length: length))
          queuedSound += Int(count)
          if chunks.count == 1 { monitor.wake(.sound) }
        }
      case Int32(MW_READ_SKIPPED):
        continue
      case Int32(MW_READ_END):
        monitor.locked {
          guard mine == generation else { return }
          decodedAll = true
          soundEnd = max(soundEnd, soundRead)
        }
        signalWake()
      default:
        let text = Self.text(reason)
        monitor.locked {
          // A file on this machine that cannot be read on from here is cut short (or damaged
          // there); only a stream has a connection to lose.
          failure =
            networked
            ? "the stream stopped (\(FailureReason.text(for: text, networked: networked)))"
            : Self.cutShort
        }
        signalWake()
        return
      }
    }
  }

  /// Whether the decoder waits (the lock held): everything decoded, or the queues full and,
  /// since they were, neither down to its low mark. Sound counts only while it is kept.
  private func decoderRests() -> Bool {
    if decodedAll { return true }
    // A picture awaited (a seek's, a step's) and none decoded: the sound, which a pause does not
    // play, must not stop the decoder before the picture comes (a still stretch: a step forward
    // out of it waited for ever). Up to 16 times the sound's usual queue.
    // Buffering too: the sound is not taken while the pictures are awaited, so a full sound
    // queue would hold the decoder for good (a sound server stopped for a while filled it: the
    // class stood on `Buffering…` after the server went on).
    let awaited = (showNext && frames.isEmpty) || buffering
    // Sound off (`s`): what was queued for it is not played, and must not stop the decoder (the
    // pictures ran out and the class stood on `Buffering…` until the next seek).
    let soundFull =
      soundKept && queuedSound >= (awaited ? soundCapacity * 16 : soundCapacity)
    if frames.count >= frameCapacity || soundFull {
      resting = true
      return true
    }
    guard resting else { return false }
    if frames.count <= frameLow || (soundKept && queuedSound <= soundLow) || (awaited && !soundFull)
    {
      resting = false
    }
    return resting
  }

  /// A C string in a buffer the C side filled.
  private static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  // MARK: Sound (its own thread)

  private func play() {
    guard openSound() else { return }
    var lastGeneration = -1
    var unheard = SoundLatency()
    // When the stream, idle since a pause (or sound off), is let go of.
    var restDue: Int64?
    while true {
      var restNow = false
      let taken = monitor.locked { () -> (Chunk?, Bool, Int, Int, Int, OpaquePointer?, Bool)? in
        while !quitting && !flushSound
          && !(soundOn && playing && !buffering && !showNext && !chunks.isEmpty)
        {
          guard let due = restDue else {
            monitor.wait(.sound)
            continue
          }
          if monotonicNow() >= due {
            restNow = true
            break
          }
          monitor.wait(.sound, until: due)
        }
        if quitting { return nil }
        let flush = flushSound
        flushSound = false
        var chunk: Chunk?
        if soundOn && playing && !buffering && !showNext && !chunks.isEmpty {
          let next: Chunk = chunks.removeFirst()
          chunk = next
          queuedSound -= next.samples.count / 2
          // Kept (before it is written) for a pause that comes while it is being written.
          keepWritten(next)
          if queuedSound <= soundLow { monitor.wake(.decoder) }
        }
        return (chunk, flush, generation, volume, tempo, sound, playing && soundOn)
      }
      guard let (chunk, flush, current, volume, speed, stream, wanted) = taken, let stream else {
        return
      }
      if restNow {
        // Paused (or sound off): the sound rests until there is sound to play again (an open
        // stream's client thread would wake a few times a second). A sound server's stream is
        // corked at once (kept: play goes on without a new stream's wait for its sink);
        // ALSA's device is closed after `restAfter`.
        restDue = nil
        mw_sound_rest(stream)
      }
      if flush || current != lastGeneration {
        mw_sound_flush(stream)
        unheard.flushed()
        lastGeneration = current
        // A pause of a moment (a move practised, then play) goes on at once on the open device.
        if chunk == nil && !wanted && restDue == nil {
          restDue = monotonicNow() + (mw_sound_rest_keeps(stream) != 0 ? 0 : Self.restAfter)
        }
      }
      if chunk != nil { restDue = nil }
      guard var chunk, chunk.generation == current else { continue }
      if volume < 100 {
        for index in chunk.samples.indices {
          chunk.samples[index] = Int16(Int(chunk.samples[index]) * volume / 100)
        }
      }
      // In pieces of at most 20 ms: the clock learns when the device starts taking sound, and
      // what it hears, to within a piece, whatever the codec's frame (1024 samples at 8 kHz
      // are 128 ms: a walk-through measured the pictures that far behind for the first second).
      let frames = chunk.samples.count / 2
      var done = 0
      while done < frames {
        let end = min(frames, done + Self.soundPiece)
        let written = chunk.samples[(done * 2)..<(end * 2)].withUnsafeBytes {
          mw_sound_write(stream, $0.baseAddress, $0.count)
        }
        guard written == 0 else {
          lost(stream)
          return
        }
        let now = monotonicNow()
        let latency = unheard.wrote(
          microseconds: Int64(end - done) * 1_000_000 / 48_000,
          reported: mw_sound_latency_us(stream), at: now)
        let heard =
          chunk.pts + chunk.length * Int64(end) / Int64(frames) - latency / 1000 * Int64(speed)
          / 100
        let (started, goOn) = monitor.locked { () -> (Bool, Bool) in
          guard current == generation && playing && !buffering && !showNext else {
            return (false, false)
          }
          let waiting = clock.waitingForSound
          clock.heard(heard, at: now)
          return (waiting && !clock.waitingForSound, !flushSound)
        }
        // The pictures were held for the sound: they go on now.
        if started { signalWake() }
        // A pause, a seek, sound off: the rest of the chunk is not for now.
        guard goOn else { break }
        done = end
      }
    }
  }

  /// How long (ns) a paused ALSA device stays open before it is closed.
  private static let restAfter: Int64 = 2_000_000_000

  /// Sound frames (48 kHz) written at a time: 20 ms.
  private static let soundPiece = 960

  /// The sound server or device stopped taking sound (a server that ended, a card unplugged):
  /// the state line says so and the pictures go on, on the wall clock. `s` tries it again.
  private func lost(_ stream: OpaquePointer) {
    monitor.locked { withoutSound(because: Self.soundStopped, at: monotonicNow()) }
    signalWake()
    mw_sound_close(stream)
  }

  /// Why there is no sound after the device stopped taking it.
  static let soundStopped = "the sound device stopped"

  /// Whether a play waits for the sound to be heard (the lock held): sound on, a device, a
  /// sound track with sound still to come.
  private var soundLeads: Bool {
    soundKept && (info?.has_audio ?? 0) != 0 && !(decodedAll && chunks.isEmpty)
  }

  /// Whether decoded sound is kept (the lock held): sound on and a stream open or opening.
  private var soundKept: Bool {
    soundOn && (sound != nil || soundOpening)
  }
}
