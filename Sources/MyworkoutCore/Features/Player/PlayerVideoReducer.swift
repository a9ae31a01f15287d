/// What the video player's reports do to the Player (SPEC §19): the pictures shown move the
/// position, and only media time actually played counts as watched (a seek, a loop's jump back
/// and buffering play nothing).
enum PlayerVideoReducer {
  /// A report further ahead of the position than this (media ms at 1×) is not play (it is from
  /// before a seek).
  static let playedGap = 2_500

  /// A first picture this close after the start (media ms) is the start's, and play from
  /// there counts from the start.
  static let firstPictureSlack = 100

  /// `playedGap` at the class's speed: the reports come about every quarter second of wall
  /// time, which at 10× is 2.5 s of media.
  static func playedGap(at speed: PlaybackSpeed) -> Int {
    playedGap * max(100, speed.hundredths) / 100
  }

  static func reduce(
    _ state: inout PlayerState, _ event: VideoEvent, account: String, display: Display
  ) -> [Effect] {
    guard state.video.drivesPosition else { return [] }
    if state.videoAdrift {
      switch event {
      case .shown, .time, .ended:
        // From a player that ran on while the app stood still: not what was seen.
        return []
      default: break
      }
    }
    switch event {
    case .ready(let duration, let width, let height, _):
      state.videoSize = PixelSize(width: width, height: height)
      state.videoDuration = duration > 0 ? duration : nil
      return PlayerReducer.fitVideo(&state, display: display)
    case .shown(let milliseconds):
      if state.video == .loading { state.video = .showing }
      if state.playback != .playing, !state.stepping, PlayerReducer.standsPastTheClip(state) {
        // Paused past the clip's end (a class opened again where it was left, a seek there):
        // its last picture, past its end as in play (a walk-through's `,` there jumped from
        // 00:08 back to a 5-s clip's 00:04).
        return toPastEnd(&state, end: state.videoDuration ?? state.position)
      }
      if state.stepping, state.playback != .playing {
        // A step's picture (one of a burst's, perhaps): the position follows it; the steps
        // end when the player says they all landed (`stepsLanded`).
        state.position = min(max(0, milliseconds), state.duration)
        return PlayerReducer.save(&state, account: account)
      }
      if state.playback == .paused, !state.pausedFromPlay, state.position == 0,
        milliseconds <= firstPictureSlack
      {
        // The first picture of a source whose pictures start a few ms in (WebM with Opus: 7 ms)
        // stands for the start: moved to it, the class's first milliseconds could never count
        // as watched (a walk-through's class, played through from 00:00, read `Watched 99%`).
        return []
      }
      if state.playback == .paused, milliseconds > state.position {
        // Paused, a picture further on: the later steps of a burst (the first one's picture
        // ended `stepping`), across a still stretch too. The times row follows the picture;
        // nothing was played. (A seek's picture may begin before the seek's time: not moved
        // back.) Just after a pause from play, though, it is a picture that was due before the
        // player's pause and came late (a slow source): that stretch was played (a walk-through
        // saw a hole of 0.2 s in the watched time at every pause).
        // Saved at once: the position kept is the picture left on screen (the video host says
        // it as it pauses; the time is said only every quarter second while playing).
        let target = min(milliseconds, state.duration)
        let played = state.pausedFromPlay && target - state.position <= playedGap(at: state.speed)
        if played { state.unsavedPlayed.insert(state.position..<target) }
        state.position = target
        return played ? PlayerReducer.save(&state, account: account) : []
      }
      return played(&state, to: milliseconds, account: account)
    case .time(let milliseconds):
      return played(&state, to: milliseconds, account: account)
    case .stepsLanded:
      // Every step asked for has its picture on screen: an `l` typed meanwhile marks where
      // the last one stands (a walk-through's `l` after 48 `.` in one burst marked the first).
      guard state.stepping else { return [] }
      return PlayerReducer.endStepping(&state)
    case .buffering(let on):
      state.video = on ? .buffering : .showing
      return []
    case .ended:
      state.video = state.video == .loading ? .failed("the video is empty") : .showing
      // Empty: §12's clock plays on over the thumbnail, as for any video that fails.
      if case .failed = state.video { return [] }
      // Where the video ends: its length; not known, the class's end when play is within a
      // report of it, else where its last picture was (a still picture: one frame).
      let end =
        state.videoDuration.map { min(state.duration, $0) }
        ?? (state.duration - state.position <= playedGap(at: state.speed)
          ? state.duration : state.position)
      // The class is listed longer than its clip: past the clip's end, the clock plays on.
      let classGoesOn = PlayerReducer.classGoesOn(state, pastVideoEnd: end)
      guard state.playback == .playing else {
        // The end reported while playing, come after a pause (the player says it only while
        // it plays): past the clip's end in a class that goes on, as in play; nothing counted.
        return classGoesOn && state.position >= end ? toPastEnd(&state, end: end) : []
      }
      // The last pictures' time up to the end was played.
      if end >= state.position, end - state.position <= playedGap(at: state.speed) {
        state.unsavedPlayed.insert(state.position..<end)
        // Durations are listed in whole seconds (SPEC §11): a clip that ends within the
        // class's last second is the whole class, played to its end (a walk-through watched a
        // 59.934-s clip listed as 60 s through and read `Watched 99%`).
        if state.duration > end, !classGoesOn {
          state.unsavedPlayed.insert(end..<state.duration)
        }
      }
      if let start = state.loop.wrap(
        from: state.position, to: classGoesOn ? min(state.duration, end + 1_000) : state.duration),
        start < end
      {
        // A loop whose B is the end (or the last picture, whose report the end can overtake):
        // play reached B. The player stopped at its end: it plays on from A (an A past the
        // video's end, in a class listed longer than its clip, would end it again at once).
        // A B further on, past the clip's end, is reached on the clock.
        state.position = start
        state.positionReadAt = nil
        return [.video(.seek(milliseconds: start)), .video(.play)]
      }
      if classGoesOn {
        // The last picture stays, and the clock plays the rest of the class from the clip's
        // end (or from where a seek past it stands).
        let stepped = toPastEnd(&state, end: end)
        state.position = max(state.position, end)
        state.positionReadAt = nil
        return stepped + PlayerReducer.save(&state, account: account)
      }
      state.position = state.duration
      state.playback = .finished
      return PlayerReducer.save(&state, account: account)
    case .failed(let reason):
      // A video that stops mid-class (its server gone for good, a file cut short) pauses the
      // class where its last picture was: the clock playing on would count as watched what
      // nobody saw (a walk-through saw 2 % become 38 %). Space tries it again from the
      // position (PlayerReducer.reopenVideo) as often as it stops, and a try that fails is
      // still mid-class: a stream's server may be back, and a file plays again from a
      // position sought back before its cut (a walk-through's seek back to 00:24 played the
      // thumbnail on the clock for the rest of the visit).
      // A file that fails again after it stopped mid-class (its try, when play stands past its
      // cut or where it is damaged; or play that reached the cut again from a try that opened)
      // leaves the clock playing on over the thumbnail (SPEC §19): a file will not mend. Two
      // walk-throughs' classes stood paused for good, Space after Space: one sought past a
      // cut, one whose every Space reopened the file, played the pictures left before its cut
      // and paused there again. A stream's try that fails before its first picture (its server
      // still away, or refusing) does the same, as SPEC §19 says after `No video`, and the next
      // Space that plays tries it again: a walk-through's class stood paused Space after Space
      // with its server down. A stream's try that showed pictures and stopped again pauses at
      // its last one, as the first stop did.
      // A player process that stopped is not the file's fault: after pictures, that pauses.
      let fileFailed =
        !DanceClass.isWebAddress(state.danceClass.videoURL) && reason != VideoPhase.playerStopped
      let clockPlaysOn =
        state.streamStoppedMidClass && (fileFailed || state.video == .loading)
      let midClass = state.video != .loading || state.streamStoppedMidClass
      let stopped = state.playback == .playing && midClass && !clockPlaysOn
      state.streamStoppedMidClass = midClass
      state.video = .failed(reason)
      state.videoFit = nil
      // What only a video has (pressed while it loaded) goes with it: the clock's Player
      // shows neither, and `f` and `l` no longer reach them. A stream that will be tried again
      // keeps them for its try (one that could not be opened for now too: a walk-through's
      // loop, set while a try loaded, went without a word when the try failed).
      if state.streamStoppedMidClass || state.openFailedForNow,
        state.loop != LoopMarks() || state.fullScreen
      {
        state.keptForRetry = PlayerState.KeptForRetry(
          loop: state.loop, fullScreen: state.fullScreen)
      }
      state.fullScreen = false
      state.loop = LoopMarks()
      state.loopAwaitsStep = false
      guard stopped else { return [] }
      state.playback = .paused
      return PlayerReducer.save(&state, account: account)
    case .sound(let note):
      state.soundNote = note
      // Sound plays only without a note: with none (off, or no device), `s` asks for it.
      state.soundOn = note == nil
      return []
    }
  }

  /// Past the clip's end: its last picture stays and the clock plays the rest of the class.
  /// Where the video ends is kept (a video of unknown length: here), and a step that waited
  /// for a picture is over (none will come).
  private static func toPastEnd(_ state: inout PlayerState, end: Int) -> [Effect] {
    state.video = .pastEnd
    state.videoDuration = state.videoDuration ?? end
    return PlayerReducer.endStepping(&state)
  }

  /// Media time reached `milliseconds` while playing: what lies between counts as watched (when
  /// it is near enough to be play, not a seek's leftover), and a loop's end jumps back to A.
  private static func played(_ state: inout PlayerState, to milliseconds: Int, account: String)
    -> [Effect]
  {
    if state.video == .loading { state.video = .showing }
    let target = min(max(0, milliseconds), state.duration)
    guard state.playback == .playing || state.playback == .paused, target >= state.position,
      target - state.position <= playedGap(at: state.speed)
    else { return [] }
    let previous = state.position
    // Play from within the first `firstPictureSlack` ms counts from the start: a source whose
    // first picture is a few ms in has nothing before it to play (stepped back onto it, the
    // position stands at its 7 ms, and a class played through from there read 99 %).
    state.unsavedPlayed.insert((previous <= firstPictureSlack ? 0 : previous)..<target)
    state.position = target
    state.positionReadAt = state.playback == .playing ? state.clock : nil
    if state.playback == .playing, let start = state.loop.wrap(from: previous, to: target) {
      state.position = start
      // Until the player's next report, play stands at A (its seek may take a while).
      state.positionReadAt = nil
      return [.video(.seek(milliseconds: start))]
    }
    if state.playback == .playing, target >= state.duration, state.duration > 0 {
      // A clip longer than the class the catalog lists: the class ends at its end (the
      // watched % divides by it), and so does the video.
      state.playback = .finished
      return [.video(.pause)] + PlayerReducer.save(&state, account: account)
    }
    return []
  }
}
