/// The Player's rules (SPEC §12): play and pause, seek, speed, the clock that advances media
/// time, and the saves that merge what was played into the person's progress.
enum PlayerReducer {
  enum Delegate: Equatable, Sendable {
    /// Esc or `q`: the parent goes back to Classes.
    case back
    /// A save failed; a one-line notice for the person.
    case notice(String)
  }

  /// A new Player for a class: its stored progress is read, and its thumbnail decoded for the
  /// picture area when it has one. `kept`: what an earlier visit's saves that failed carried,
  /// shown with the stored progress and sent with the next save.
  static func opened(
    _ danceClass: DanceClass, account: String, speed: PlaybackSpeed, display: Display,
    kept: ProgressUpdate? = nil
  ) -> (PlayerState, [Effect]) {
    var state = PlayerState(danceClass: danceClass, speed: speed, colors: display.colors)
    if let kept {
      state.unsavedPlayed = kept.played
      state.unsavedTime = kept.addedTimeInClass
      state.kept = kept.keptPosition
      // Not stored: a save while the progress is read sends it, even when it is 0.
      state.progress.lastPosition = Self.positionNotStored
    }
    var effects: [Effect] = [
      .run(.progressLoad, .loadProgress(account: account, classID: danceClass.id))
    ]
    effects += requestPicture(&state, display: display)
    if display.video {
      if danceClass.videoURL.isEmpty {
        // The source is missing (SPEC §19): said, and the clock runs as without a video.
        state.video = .failed("this class has none")
      } else {
        effects += openVideo(&state)
      }
    }
    return (state, effects)
  }

  static func reduce(
    _ state: inout PlayerState, _ action: PlayerAction, account: String, display: Display
  )
    -> Outcome<Delegate>
  {
    switch action {
    case .progressLoaded(let result):
      guard state.playback == .loading else { return .none }
      state.playback = .paused
      // Where an earlier visit's failed save left the person, or where a save that succeeded
      // while the progress was read left it; the next save then sends it (it differs from the
      // stored one).
      var kept = state.kept
      state.kept = nil
      state.savesInFlight = []
      let stored: ClassProgress
      var notice: String?
      switch result {
      case .success(let read):
        stored = read.bounded
      case .failure(let error):
        // Nothing read: from what is kept, else from 0 (never sent over a stored resume point
        // unless the person moves). A read not made while the class's saves were on their way
        // resumes where the latest of them leaves it (not at each in turn as they end).
        stored = ClassProgress()
        notice = error.message
        if let pending = error.savesOnTheirWay,
          kept.map({ ProgressUpdate.stamp(pending.changedAt, isAtLeast: $0.changedAt) }) ?? true
        {
          kept = pending
        }
      }
      state.progress = stored
      let effects = resumed(&state, at: kept?.position ?? stored.lastPosition)
      // What the next save compares with: where the class resumes (it sends nothing new when
      // nothing moves), or the stored position; none when nothing could be read.
      if notice != nil {
        state.progress.lastPosition = Self.positionNotStored
      } else if kept == nil {
        state.progress.lastPosition = state.position
      }
      // Where that position came from: an earlier visit's save, or the store (or nothing
      // read): older than any stored position, so a save of the time spent here leaves the
      // stored one (a read from a copy kept offline may be older than another device's).
      state.positionChangedAt = kept.map(\.changedAt) ?? 0
      return Outcome(effects: effects, delegate: notice.map(Delegate.notice))
    case .progressSaved(let result, let update):
      // Whether `progress` holds this save's changes: this Player sent it after the read.
      let counted =
        state.savesInFlight.firstIndex(where: { $0.isSameChange(as: update) }).map {
          state.savesInFlight.remove(at: $0)
        } != nil
      switch result {
      case .success(let stored):
        // Another copy's intervals and time arrive with the answer; ours may be ahead of it.
        state.progress.watched.formUnion(stored.watched)
        state.progress.timeInClass = max(state.progress.timeInClass, stored.bounded.timeInClass)
        // A save that succeeded while the progress is read (an earlier visit's closing save)
        // says where to resume when it is at least as recent as what is kept.
        if state.playback == .loading, keptWhileReading(&state, update) {
          state.progress.lastPosition = update.position
        }
        // Or after a read given up while it was on its way, the person not moved since:
        // resumed where it left the class. Not taken as stored (a later position of another
        // device may be): the next save sends it with its own time.
        if !counted, isUntouchedSinceRead(state, by: update) {
          let effects = resumed(&state, at: update.position)
          state.positionChangedAt = update.changedAt
          return .effects(effects)
        }
        return .none
      case .failure(let error):
        // Kept, to go with the next save: the time moves back from what counts as stored to
        // what is still to be saved (counted once on screen). A change that may have been
        // applied keeps counting its time as stored: sent again, it would count twice.
        let kept = update.kept(after: error)
        state.unsavedPlayed.formUnion(kept.played)
        if counted {
          state.progress.timeInClass = max(
            0, state.progress.timeInClass - kept.addedTimeInClass)
        }
        state.unsavedTime = ProgressBounds.addTime(state.unsavedTime, kept.addedTimeInClass)
        // Its position is not known to be stored either: the next save sends the position
        // (a seek whose save failed was never sent again).
        if state.progress.lastPosition == update.position {
          state.progress.lastPosition = Self.positionNotStored
        }
        // An earlier visit's closing save that failed while this one reads the progress.
        if state.playback == .loading, keptWhileReading(&state, update) {
          state.progress.lastPosition = Self.positionNotStored
        }
        // Or after a read given up while that save was on its way (a class's read waits for
        // its saves only so long), the person not moved since: resumed where that visit left
        // the class, and sent with the next save.
        if !counted, isUntouchedSinceRead(state, by: update) {
          let effects = resumed(&state, at: update.position)
          state.positionChangedAt = update.changedAt
          // Not stored: the next save sends it, or where the person moves from it.
          state.progress.lastPosition = Self.positionNotStored
          return Outcome(effects: effects, delegate: .notice(error.message))
        }
        return .delegate(.notice(error.message))
      }
    case .pictureLoaded(let picture):
      guard state.picture == .loading else { return .none }
      state.picture = picture.map(TilePicture.ready) ?? .failed
      return .none
    case .backPressed where state.fullScreen:
      state.fullScreen = false
      return .effects(fitVideo(&state, display: display))
    case .backPressed, .leavePressed:
      return Outcome(effects: closing(&state, account: account), delegate: .back)
    case .video(let event):
      return .effects(PlayerVideoReducer.reduce(&state, event, account: account, display: display))
    case .volumeNoteEnded(let note):
      if state.volumeNote == note { state.volumeNote = nil }
      return .none
    case .fullScreenPressed:
      guard state.video != .none else { return .none }
      state.fullScreen.toggle()
      return .effects(fitVideo(&state, display: display))
    default:
      guard state.playback != .loading else { return .none }
      return .effects(reduceKey(&state, action, account: account))
    }
  }

  private static func reduceKey(_ state: inout PlayerState, _ action: PlayerAction, account: String)
    -> [Effect]
  {
    switch action {
    case .playPausePressed:
      // Play that starts or stops: the last report's reading says nothing of what comes next.
      state.positionReadAt = nil
      switch state.playback {
      case .playing:
        return pause(&state) + save(&state, account: account)
      case .finished:
        state.position = 0
        state.playback = .playing
        state.resumeAt = nil
        state.lastSave = state.clock
        if state.videoTriedAgainOnPlay { return reopenVideo(&state) }
        if state.video == .pastEnd { return backToPictures(&state) }
        return videoCommand(state, .seek(milliseconds: 0)) + videoCommand(state, .play)
      case .paused:
        // A step's picture not come yet: an `l` that waited for it marks the one on screen.
        let marked = endStepping(&state)
        state.playback = .playing
        state.pausedFromPlay = false
        state.resumeAt = nil
        state.lastSave = state.clock
        if state.videoTriedAgainOnPlay { return marked + reopenVideo(&state) }
        return marked + putBack(&state) + videoCommand(state, .play)
      case .loading:
        return []
      }
    case .seekPressed(let seconds):
      return seek(&state, to: state.position + seconds * 1000, account: account)
    case .seekToEndPressed(let last):
      return seek(&state, to: last ? state.duration : 0, account: account)
    case .percentPressed(let tenth):
      return seek(&state, to: state.duration * min(max(tenth, 0), 9) / 10, account: account)
    case .barClicked(let milliseconds):
      return seek(&state, to: milliseconds, account: account)
    case .speedChanged(let faster):
      let before = state.speed
      state.speed = faster ? state.speed.faster : state.speed.slower
      return state.speed == before ? [] : videoCommand(state, .speed(state.speed))
    case .mirrorPressed:
      guard state.video != .none else { return [] }
      state.mirrored.toggle()
      return []
    case .loopPressed:
      if state.stepping, state.playback != .playing {
        state.loopAwaitsStep = true
        return []
      }
      return pressLoop(&state)
    case .stepPressed(let forward):
      guard state.playback != .playing, state.video == .showing,
        !(forward && state.playback == .finished),  // no frame after the last
        !standsPastTheClip(state)  // a seek past it, its picture not come yet
      else { return [] }
      if state.videoAdrift {
        // The picture where the app stands first; the next press steps from there.
        return putBack(&state)
      }
      state.stepping = true
      state.pausedFromPlay = false
      state.resumeAt = nil
      if state.playback == .finished { state.playback = .paused }
      return videoCommand(state, .step(forward: forward))
    case .soundPressed:
      guard state.video.drivesPosition else { return [] }
      state.soundOn.toggle()
      return videoCommand(state, .sound(state.soundOn))
    case .volumePressed(let up):
      guard state.video.drivesPosition else { return [] }
      state.volume = min(100, max(0, state.volume + (up ? 10 : -10)))
      state.volumeNote = (state.volumeNote ?? 0) + 1
      return videoCommand(state, .volume(state.volume))
    default:
      return []
    }
  }

  /// `Loading video…`: the class's video opened, with what the person chose for it (a new
  /// Player's speed; a stream tried again keeps its sound and volume too).
  private static func openVideo(_ state: inout PlayerState) -> [Effect] {
    state.video = .loading
    var effects: [Effect] = [.video(.open(source: state.danceClass.videoURL))]
    if state.speed != .normal { effects.append(.video(.speed(state.speed))) }
    if !state.soundOn { effects.append(.video(.sound(false))) }
    if state.volume != 100 { effects.append(.video(.volume(state.volume))) }
    return effects
  }

  /// From the clock past the video's end back to its pictures at the position: what changed
  /// meanwhile (the speed, the loop's end) is told to the player first, which the clock's
  /// Player does not tell it.
  private static func backToPictures(_ state: inout PlayerState) -> [Effect] {
    state.video = .showing
    return [
      .video(.speed(state.speed)), .video(.mark(milliseconds: state.loop.end)),
      .video(.seek(milliseconds: state.position)),
    ] + (state.playback == .playing ? [.video(.play)] : [])
  }

  /// `l` at where the class stands now: A, B or neither; the player told of B.
  private static func pressLoop(_ state: inout PlayerState) -> [Effect] {
    state.loopAwaitsStep = false
    let end = state.loop.end
    state.loop.press(at: state.positionNow)
    return state.loop.end == end ? [] : videoCommand(state, .mark(milliseconds: state.loop.end))
  }

  /// Whether the class goes on a second or more past a video that ends at `end` (ms): the
  /// video's last picture then stays and the clock plays the rest (durations are listed in
  /// whole seconds, so a clip that ends within the class's last second is the whole class).
  static func classGoesOn(_ state: PlayerState, pastVideoEnd end: Int) -> Bool {
    state.duration - end >= 1_000
  }

  /// Whether the class stands past the end of a clip shorter than it.
  static func standsPastTheClip(_ state: PlayerState) -> Bool {
    guard let clip = state.videoDuration else { return false }
    return classGoesOn(state, pastVideoEnd: min(state.duration, clip)) && state.position >= clip
  }

  /// A step is over: its picture came (the position is its time), or it will not come (a
  /// seek, play or a new try moves on first). An `l` that waited for it marks where the class
  /// stands, the picture the person saw.
  static func endStepping(_ state: inout PlayerState) -> [Effect] {
    state.stepping = false
    return state.loopAwaitsStep ? pressLoop(&state) : []
  }

  /// The stream that stopped mid-class, tried again from the position (its server may be back:
  /// before, it stayed dead for the rest of the visit). `Loading video…`, then the pictures
  /// from there, with the A–B loop and full-screen picture it had; failing before a picture,
  /// §12's clock plays on from there, and stopping again after its pictures the class stands
  /// paused again (nothing counted that nobody saw); either way the next play tries again.
  private static func reopenVideo(_ state: inout PlayerState, play: Bool = true) -> [Effect] {
    state.videoAdrift = false
    let marked = endStepping(&state)
    if let kept = state.keptForRetry {
      state.loop = kept.loop
      state.fullScreen = kept.fullScreen
      state.keptForRetry = nil
    }
    let mark: [Effect] = state.loop.end.map { [.video(.mark(milliseconds: $0))] } ?? []
    return marked + openVideo(&state) + mark + [.video(.seek(milliseconds: state.position))]
      + (play ? [.video(.play)] : [])
  }

  /// Play stops (Space, Ctrl-Z): the picture the video's player leaves on screen, said after
  /// the pause, was played (`pausedFromPlay`).
  private static func pause(_ state: inout PlayerState) -> [Effect] {
    state.playback = .paused
    state.pausedFromPlay = state.video.drivesPosition
    return videoCommand(state, .pause)
  }

  /// The video's player back at the app's position after a standstill (see `videoAdrift`).
  private static func putBack(_ state: inout PlayerState) -> [Effect] {
    guard state.videoAdrift else { return [] }
    state.videoAdrift = false
    state.positionReadAt = nil
    return videoCommand(state, .seek(milliseconds: state.position))
  }

  /// Seeking plays nothing: the position moves, and at the end the class is Finished.
  private static func seek(_ state: inout PlayerState, to target: Int, account: String) -> [Effect]
  {
    // The seek puts the video where it says.
    state.videoAdrift = false
    state.resumeAt = nil
    var effects = endStepping(&state)
    state.pausedFromPlay = false
    state.position = min(max(0, target), state.duration)
    state.positionReadAt = nil
    if state.position >= state.duration {
      if state.playback == .playing { effects += videoCommand(state, .pause) }
      state.playback = .finished
    } else if state.playback == .finished {
      state.playback = .paused
    }
    if state.streamStopped, state.playback != .finished {
      // Stopped mid-class: the video is opened again where it is sought (a file sought back
      // before its cut shows its frame there; a stream's server may be back).
      effects += reopenVideo(&state, play: state.playback == .playing)
    } else if state.video == .pastEnd {
      // Back before the video's end: its pictures again, from there.
      if state.position < (state.videoDuration ?? 0) {
        effects += backToPictures(&state)
      }
    } else {
      effects += videoCommand(state, .seek(milliseconds: state.position))
    }
    return effects + save(&state, account: account)
  }

  /// A command for the video player, when the class's video is in play.
  static func videoCommand(_ state: PlayerState, _ command: VideoCommand) -> [Effect] {
    state.video.drivesPosition ? [.video(command)] : []
  }

  /// Asks for the picture at the size the terminal and the video's aspect give (full screen:
  /// all but the last row), when that changed.
  static func fitVideo(_ state: inout PlayerState, display: Display) -> [Effect] {
    guard state.video.showsPicture || state.video == .loading, let size = state.videoSize
    else { return [] }
    let tile =
      state.fullScreen
      ? TileSize(columns: display.size.width, rows: max(0, display.size.height - 1))
      : PlayerLayout.pictureTile(for: display.size)
    let fit = VideoFit(tile: tile, videoWidth: size.width, videoHeight: size.height)
    guard fit != state.videoFit else { return [] }
    state.videoFit = fit
    return [.video(.size(width: fit.pixelWidth, height: fit.pixelHeight))]
  }

  /// The wall clock was read: media time advances while playing (at most to the end), and the
  /// time the player is open adds up. A gap of over 2 s while playing is the machine waking
  /// from sleep: play pauses where the earlier reading left it and the gap counts for nothing.
  static func clockRead(_ state: inout PlayerState, _ now: WallTime, account: String) -> [Effect] {
    guard let last = state.clock else {
      state.clock = now
      if state.playback == .playing { state.lastSave = now }
      return []
    }
    let elapsed = max(0, now.milliseconds(since: last))
    state.clock = now
    // Time in class is the Player open (SPEC §12): playing, paused, and while its progress is
    // read (a hung server's 10 s of `Loading…` are spent in the class too).
    guard state.playback == .playing else {
      state.unsavedTime = ProgressBounds.addTime(state.unsavedTime, elapsed)
      return []
    }
    guard elapsed <= PlayerState.sleepGap else {
      state.playback = .paused
      state.videoAdrift = state.video.drivesPosition
      return videoCommand(state, .pause) + save(&state, account: account)
    }
    state.unsavedTime = ProgressBounds.addTime(state.unsavedTime, elapsed)
    // With a video, its pictures move the position (`PlayerVideoReducer`); the clock counts
    // the time in class and the saves.
    if state.video.drivesPosition { return saveIfDue(&state, account: account) }
    let end = min(state.position + state.speed.media(forWall: elapsed), state.duration)
    if state.video == .pastEnd, let start = state.loop.wrap(from: state.position, to: end),
      let loopEnd = state.loop.end
    {
      // An A–B loop past the video's end goes round on the clock too (back to its pictures
      // when A is before their end).
      state.unsavedPlayed.insert(state.position..<loopEnd)
      return seek(&state, to: start, account: account)
    }
    state.unsavedPlayed.insert(state.position..<end)
    state.position = end
    if end >= state.duration {
      state.playback = .finished
      return save(&state, account: account)
    }
    return saveIfDue(&state, account: account)
  }

  /// A save while playing at least every `saveEvery` of wall time.
  static func saveIfDue(_ state: inout PlayerState, account: String) -> [Effect] {
    if let saved = state.lastSave, let now = state.clock,
      now.milliseconds(since: saved) < PlayerState.saveEvery
    {
      return []
    }
    return save(&state, account: account)
  }

  /// Ctrl-Z: play pauses and what was played is saved before the process stops.
  static func suspended(_ state: inout PlayerState, account: String) -> [Effect] {
    let effects = state.playback == .playing ? pause(&state) : []
    return effects + save(&state, account: account)
  }

  /// `fg` after Ctrl-Z: the clock starts again from `now`; the time the app was stopped is not
  /// time in class.
  static func resumed(_ state: inout PlayerState, at now: WallTime) -> [Effect] {
    state.clock = now
    return []
  }

  /// An earlier save's position, answered while the progress is read: kept (to resume at and
  /// to send) when it is at least as recent as the one kept; an unstamped one was made now.
  /// Whether it was.
  private static func keptWhileReading(_ state: inout PlayerState, _ update: ProgressUpdate)
    -> Bool
  {
    // A position "older than any" (`changed_at` 0: time spent while a read was on its way, or
    // a visit that did not move) says nothing of where the person is.
    if update.changedAt == 0 { return false }
    if let kept = state.kept,
      !ProgressUpdate.stamp(update.changedAt, isAtLeast: kept.changedAt)
    {
      return false
    }
    state.kept = update.keptPosition
    return true
  }

  /// Whether an earlier visit's save answered after the read may say where the class resumes:
  /// the Player is paused where the read left it, and that save was made later than the
  /// position shown (`positionChangedAt`: a kept save's time, or 0 for what the store had or
  /// nothing read; any move of the person clears it). The runtime reads a class after its
  /// saves, so only a read given up while they were on their way sees such answers.
  private static func isUntouchedSinceRead(_ state: PlayerState, by update: ProgressUpdate)
    -> Bool
  {
    guard state.playback == .paused, let shownSince = state.positionChangedAt,
      update.changedAt != 0
    else {
      return false
    }
    return ProgressUpdate.stamp(update.changedAt, isAtLeast: shownSince)
  }

  /// Shows the class from where the person `left` it: from 0 once finished or left in the
  /// first second (`Resume at 00:00` would tell nothing).
  private static func resumed(_ state: inout PlayerState, at left: Int) -> [Effect] {
    let resume = left >= 1_000 && left < state.duration ? left : 0
    state.position = resume
    state.resumeAt = resume > 0 ? resume : nil
    return resume > 0 ? videoCommand(state, .seek(milliseconds: resume)) : []
  }

  /// `progress.lastPosition` after a save of the position failed: no position is, so the next
  /// save sends it.
  static let positionNotStored = -1

  /// What must be saved before the player goes away (quit, log out, expiry).
  static func closing(_ state: inout PlayerState, account: String) -> [Effect] {
    let video: [Effect] = state.video == .none ? [] : [.video(.close)]
    return save(&state, account: account) + video
  }

  /// Sends what changed since the last save, as a merge, and counts it as stored. While the
  /// progress is read, what an earlier visit's failed saves left (quit, Ctrl-Z) and the time
  /// spent: with the kept position, else with 0 "older than any" (`changed_at` 0), which moves
  /// no stored position.
  static func save(_ state: inout PlayerState, account: String) -> [Effect] {
    let position: Int
    var changedAt = state.positionChangedAt
    switch state.playback {
    case .loading:
      (position, changedAt) = state.kept.map { ($0.position, $0.changedAt) } ?? (0, 0)
    case .finished:
      position = state.duration
    case .paused, .playing:
      position = state.position
    }
    guard
      !state.unsavedPlayed.isEmpty || state.unsavedTime > 0
        || position != state.progress.lastPosition
    else { return [] }
    let update = ProgressUpdate(
      account: account, classID: state.danceClass.id, position: position,
      played: state.unsavedPlayed,
      addedTimeInClass: min(state.unsavedTime, ProgressBounds.addedMilliseconds),
      changedAt: changedAt)
    state.progress.lastPosition = position
    state.progress.watched.formUnion(state.unsavedPlayed)
    state.progress.addTime(update.addedTimeInClass)
    state.unsavedPlayed = IntervalSet()
    // What one change may not carry (over a year) goes with the next.
    state.unsavedTime -= update.addedTimeInClass
    state.lastSave = state.clock
    state.savesInFlight.append(update)
    return [.recordProgress(update)]
  }

  /// The thumbnail for the picture area at the terminal's size (asked again after a resize
  /// that changes the area); a class without a thumbnail gets its pattern.
  static func requestPicture(_ state: inout PlayerState, display: Display) -> [Effect] {
    fitVideo(&state, display: display) + requestThumbnail(&state, display: display)
  }

  private static func requestThumbnail(_ state: inout PlayerState, display: Display) -> [Effect] {
    let slug = state.danceClass.thumbnailSlug
    let tile = PlayerLayout.pictureTile(for: display.size)
    guard !slug.isEmpty, tile.columns > 0, tile.rows > 0, tile != state.pictureTile else {
      return []
    }
    state.pictureTile = tile
    state.picture = .loading
    return [
      .run(.playerPicture, .classPicture(slug: slug, tile: tile, colors: state.colors))
    ]
  }
}
