/// The Player (SPEC §12): a class played on the injected clock. Media time advances at speed ×
/// wall time while playing; what was played, where the person stands and how long the player
/// was open are kept as data and saved as merges (`ProgressUpdate`).
package struct PlayerState: Equatable, Sendable {
  package enum Playback: Equatable, Sendable {
    /// The stored progress is being read (a moment: progress is local or one request away).
    case loading
    case paused
    case playing
    /// At the end; Space plays from the start.
    case finished
  }

  /// Playing reads the clock this often (the screen changes at most 4 times a second).
  package static let tick: Duration = .milliseconds(tickMilliseconds)
  package static let tickMilliseconds = 250
  /// How often the clock is read while a video shows and plays (its reports read it more often).
  package static let videoTick: Duration = .seconds(1)
  /// A gap between two readings longer than this while playing means the machine slept: play
  /// pauses at the earlier reading and the gap counts for nothing.
  package static let sleepGap = 2_000
  /// While playing, a save at least this often (milliseconds of wall time), so a kill loses
  /// less than 5 s even when a tick comes late.
  package static let saveEvery = 4_000

  package var danceClass: DanceClass
  package var playback: Playback = .loading
  /// Media time in milliseconds, as of `clock` (with a video, as of its last report).
  package var position = 0 {
    didSet { if position != oldValue { positionChangedAt = nil } }
  }
  /// When the person was at `position`, if not when it is saved: the time of the earlier
  /// visit's save a kept position came from, or 0 ("before any stored position") for the 0 a
  /// failed read starts from, so that saving it never puts back a point where the person is
  /// not. Nil once the position moves.
  package var positionChangedAt: Int64?
  /// The reading at which a video's report last moved `position` while playing (nil once
  /// something else moved it): see `positionNow`.
  package var positionReadAt: WallTime?
  package var speed: PlaybackSpeed
  /// The last reading of the wall clock; nil until the first one after opening (or resuming
  /// from Ctrl-Z), which only sets the base.
  package var clock: WallTime?
  /// Where the person left off, shown as `Resume at 01:05` until they play or seek.
  package var resumeAt: Int?
  /// What is stored, merged with every save sent since (position, intervals, time in class).
  package var progress = ClassProgress()
  /// Media time played since the last save.
  package var unsavedPlayed = IntervalSet()
  /// Wall time (ms) the player was open since the last save.
  package var unsavedTime = 0
  /// Where an earlier visit's failed save left the person (its intervals and time are in
  /// `unsavedPlayed` and `unsavedTime`), or a save that succeeded while the progress is read
  /// (it may be later than what the read finds): saved while the progress is read, resumed
  /// from after.
  package var kept: KeptPosition?
  /// This Player's saves not answered yet whose changes `progress` holds: a failure takes its
  /// time back out of `progress`. Emptied when the progress is read (the read replaces what
  /// they were counted in); an answer to a save not listed here (an earlier visit's) never
  /// takes anything out.
  package var savesInFlight: [ProgressUpdate] = []
  /// The reading at the last save while playing.
  package var lastSave: WallTime?
  /// The class's thumbnail for the picture area (nil: not asked for; a pattern is drawn).
  package var picture: TilePicture?
  /// The tile the picture was asked for (a resize asks again for a new size).
  package var pictureTile: TileSize?
  /// The colours pictures are made in (the terminal's).
  package var colors: PictureColors
  /// The class's video (SPEC §19).
  package var video: VideoPhase = .none
  /// The video failed after it had shown pictures (a stream's server gone or its connection
  /// lost, a file cut short), and maybe again when tried again: Space tries it again from the
  /// position (the server may be back; a file plays from a position before its cut).
  package var streamStoppedMidClass = false

  /// A stream that stopped mid-class stands failed: Space tries it again.
  package var streamStopped: Bool {
    guard streamStoppedMidClass, case .failed = video else { return false }
    return true
  }
  /// The video could not be opened for a reason that may pass (no connection, no answer, a
  /// 5xx: `VideoPhase.reasonsThatMayPass`): the clock plays over the thumbnail, and the next
  /// Space that plays tries the video again from the position.
  package var openFailedForNow: Bool {
    guard !streamStoppedMidClass, case .failed(let reason) = video else { return false }
    return VideoPhase.reasonsThatMayPass.contains(reason)
  }

  /// Space's play opens the video again: a stream stopped mid-class, or one that could not be
  /// opened for now.
  var videoTriedAgainOnPlay: Bool { streamStopped || openFailedForNow }
  /// The video's picture size (its aspect) and length, once it opened.
  package var videoSize: PixelSize?
  package var videoDuration: Int?
  /// The picture's place and the pixels asked for (sent again when it changes).
  package var videoFit: VideoFit?
  /// nil while sound plays; else what the state line says (`no sound`, `sound off`).
  package var soundNote: String?
  /// Sound wanted (`s`).
  package var soundOn = true
  package var volume = 100
  /// The volume is shown on the state line (for 2 s after ↑/↓); counts the presses.
  package var volumeNote: Int?
  package var mirrored = false
  package var fullScreen = false
  package var loop = LoopMarks()
  /// The A–B loop and full-screen picture a stream had when it stopped mid-class (the clock's
  /// Player has neither): Space's try brings them back.
  package var keptForRetry: KeptForRetry?

  /// What a stream that stopped keeps for its next try.
  package struct KeptForRetry: Equatable, Sendable {
    package var loop: LoopMarks
    package var fullScreen: Bool

    package init(loop: LoopMarks, fullScreen: Bool) {
      self.loop = loop
      self.fullScreen = fullScreen
    }
  }
  /// A frame step was asked for: the next picture shown sets the position.
  package var stepping = false
  /// `l` was pressed while a step's picture was on its way (keys typed faster than pictures
  /// come): it marks where that picture stands, not where the class stood before the steps (a
  /// walk-through's `..........l` set A at 00:00).
  package var loopAwaitsStep = false
  /// Paused from play, with no step or seek since: pictures the video's player still shows
  /// further on were due before its pause (a slow source's come late) and count as played.
  package var pausedFromPlay = false
  /// The clock said the app stood still while playing (a sleep, a stop from outside) and the
  /// video's player may have run on meanwhile: its reports are not believed, and what moves
  /// next (play, a seek, a step) first puts it back where the app stands.
  package var videoAdrift = false

  package init(
    danceClass: DanceClass, speed: PlaybackSpeed = .normal, colors: PictureColors = .xterm256
  ) {
    self.danceClass = danceClass
    self.speed = speed
    self.colors = colors
  }

  /// Where play is at the moment of the clock's last reading. A video playing reports its time
  /// four times a second, so this is `position` and the media time since that report (at most
  /// half a second of wall time: reports that stop coming are a stall, not play). A loop mark
  /// set from `position` alone lay up to a quarter second before the picture on screen.
  package var positionNow: Int {
    guard playback == .playing, video == .showing, let read = positionReadAt, let clock else {
      return position
    }
    let elapsed = min(max(0, clock.milliseconds(since: read)), 500)
    return min(position + speed.media(forWall: elapsed), duration)
  }

  /// The class's length in media milliseconds: a class without a positive duration plays as
  /// 10:00 (ANSWERS.md says why).
  package var duration: Int {
    danceClass.duration > 0
      ? danceClass.durationMilliseconds : DanceClass.defaultDuration * 1000
  }

  /// Everything known to be played: stored, sent, and played since the last save.
  package var watched: IntervalSet { progress.watched.union(unsavedPlayed) }

  /// `Watched 25%`: the union of what was played over the duration, rounded down.
  package var watchedPercent: Int { watched.watchedPercent(duration: duration) }

  /// `Time in class`, in milliseconds: stored and sent, plus the time since the last save.
  package var timeInClass: Int { ProgressBounds.addTime(progress.timeInClass, unsavedTime) }

  /// The requests running for this screen.
  var running: Set<EffectID> {
    var ids: Set<EffectID> = []
    if playback == .loading { ids.insert(.progressLoad) }
    if picture == .loading { ids.insert(.playerPicture) }
    return ids
  }
}

extension PlayerState {
  /// While playing without a video: the wall milliseconds from the last clock reading to the
  /// next one worth making — when the screen next changes (a second of the times row or of the
  /// time in class, an eighth of a cell of a bar `barWidth` cells wide, a percent watched, the
  /// end) or a save is due. Changes less than a tick after the first are read with it, at the
  /// last of them, and readings are at least a tick apart: nothing shows more than a tick late,
  /// the app wakes at most four times a second, and a class at 1× wakes it about twice (a
  /// timer every tick woke it four times for two changes).
  package func nextReading(barWidth: Int) -> Int {
    let tick = PlayerState.tickMilliseconds
    // Media milliseconds to each change.
    var media = [1_000 - position % 1_000, duration - position]
    if barWidth > 0, duration > 0 {
      let eighths = Int64(barWidth) * 8
      let now = Int64(position) * eighths / Int64(duration)
      if now < eighths {
        // The first position past the next eighth's start, rounded up.
        let next = ((now + 1) * Int64(duration) + eighths - 1) / eighths
        media.append(Int(next) - position)
      }
    }
    let watched = self.watched
    let percent = watched.watchedPercent(duration: duration)
    if percent < 100, duration > 0 {
      // Played from here: what is watched already adds nothing until it is passed (a later
      // watched part only makes this reading early).
      let needed = ((percent + 1) * duration + 99) / 100 - watched.length(within: duration)
      let passing = watched.ranges.first { $0.contains(position) }.map { $0.upperBound - position }
      media.append((passing ?? 0) + needed)
    }
    var wall = media.filter { $0 > 0 }.map(speed.wall(forMedia:))
    wall.append(1_000 - timeInClass % 1_000)
    if let saved = lastSave, let now = clock {
      wall.append(PlayerState.saveEvery - now.milliseconds(since: saved))
    }
    let due = wall.filter { $0 > 0 }
    guard let first = due.min() else { return tick }
    let together = due.filter { $0 <= first + tick }.max() ?? first
    return max(tick, together)
  }
}

/// A position an earlier visit's save left, with when the person was there (the save's
/// `changedAt`): a save sending it says so, so that it never wins over a later one.
package struct KeptPosition: Hashable, Sendable {
  package var position: Int
  package var changedAt: Int64?

  package init(position: Int, changedAt: Int64?) {
    self.position = position
    self.changedAt = changedAt
  }
}
