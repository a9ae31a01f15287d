@testable import MyworkoutCore

/// A 100-second class (so 10 % is 10 s) opened from Profile › Classes, its progress loaded.
enum PlayerSample {
  static let account = "auth0|ada"
  static let item = DanceClass(
    id: "c1", title: "Waacking 101", instructor: "Ada", level: .beginner, song: "Song",
    videoURL: "v", thumbnailSlug: "", duration: 100)
  static let t0 = WallTime(milliseconds: 1_800_000_000_000)

  static func at(_ milliseconds: Int) -> WallTime {
    WallTime(milliseconds: t0.milliseconds + Int64(milliseconds))
  }

  /// The Player with its stored progress read, at `t0`, at a speed.
  static func opened(
    speed: PlaybackSpeed = .normal, stored: ClassProgress = ClassProgress(), duration: Int = 100
  ) -> AppState {
    let item = DanceClass(
      id: item.id, title: item.title, instructor: item.instructor, level: item.level,
      song: item.song, videoURL: item.videoURL, thumbnailSlug: "", duration: duration)
    var player = PlayerState(danceClass: item, speed: speed)
    player.playback = .paused
    player.progress = stored
    let left = stored.lastPosition
    let resume = left >= 1_000 && left < player.duration ? left : 0
    player.position = resume
    player.progress.lastPosition = resume
    player.resumeAt = resume > 0 ? resume : nil
    player.clock = t0
    var state = AppState.signedInSample
    var list = ClassesState()
    list.load = .loaded
    state.signedIn.path = [.classes(list), .player(player)]
    return state
  }

  static func update(position: Int, played: [Range<Int>] = [], time: Int = 0) -> Effect {
    .recordProgress(progressUpdate(position: position, played: played, time: time))
  }

  /// The save `update` asks for.
  static func progressUpdate(position: Int, played: [Range<Int>] = [], time: Int = 0)
    -> ProgressUpdate
  {
    ProgressUpdate(
      account: account, classID: item.id, position: position, played: IntervalSet(played),
      addedTimeInClass: time)
  }
}

extension AppState {
  /// The Player on top, for stating expectations.
  var playerOnTop: PlayerState {
    get {
      guard case .player(let player)? = signedIn.path.last else { fatalError("no Player on top") }
      return player
    }
    set { signedIn.path[signedIn.path.count - 1] = .player(newValue) }
  }
}
