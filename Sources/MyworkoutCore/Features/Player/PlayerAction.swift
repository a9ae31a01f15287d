/// What happens in the Player (SPEC §12). Keys act at the media time of the clock reading the
/// runtime sends just before them (`Action.clockRead`), so no key reads a clock itself.
package enum PlayerAction: Equatable, Sendable {
  /// Space: play or pause; on Finished, play from the start.
  case playPausePressed
  /// ←/→: seek this many seconds (±5).
  case seekPressed(seconds: Int)
  /// Home (start) or End (the end: Finished, nothing played).
  case seekToEndPressed(last: Bool)
  /// `0`–`9`: to 0 %–90 % of the class.
  case percentPressed(Int)
  /// A click on the progress bar: to this media time (milliseconds).
  case barClicked(milliseconds: Int)
  /// `-`/`+`.
  case speedChanged(faster: Bool)
  /// Esc: back to Classes as it was (from the full-screen picture: back to the Player).
  case backPressed
  /// `q`: back to Classes as it was, from the full-screen picture too.
  case leavePressed
  /// `m`: the picture mirrored left-right.
  case mirrorPressed
  /// `l`: loop point A, then B (loop A→B), then no loop.
  case loopPressed
  /// `,`/`.`: one frame back or forward while paused.
  case stepPressed(forward: Bool)
  /// `f`: the picture over the whole terminal, and back.
  case fullScreenPressed
  /// `s`: sound off and on.
  case soundPressed
  /// ↑/↓: volume.
  case volumePressed(up: Bool)
  /// The volume shown after ↑/↓ goes away (2 s later).
  case volumeNoteEnded(Int)
  /// What the video player reported.
  case video(VideoEvent)

  /// The class's stored progress for the person (or why it could not be read).
  case progressLoaded(Result<ClassProgress, ProgressError>)
  /// A save was carried out: what is stored now, merged with every copy's saves; or why not
  /// (the update is kept to be saved again with the next one).
  case progressSaved(Result<ClassProgress, ProgressError>, ProgressUpdate)
  /// The class's thumbnail for the picture area; nil when there is none to show.
  case pictureLoaded(HalfBlockPicture?)

  /// An answer (as opposed to a key).
  var isAnswer: Bool {
    switch self {
    case .progressLoaded, .progressSaved, .pictureLoaded, .video, .volumeNoteEnded: true
    default: false
    }
  }
}

extension PlayerAction {
  /// Whether this is for the Player of `danceClass` open for `account`: a save's answer is
  /// for its own class (a closing save's may come after the next class opened).
  func concerns(_ danceClass: DanceClass, account: String) -> Bool {
    guard case .progressSaved(_, let update) = self else { return true }
    return update.classID == danceClass.id && update.account == account
  }

  /// Whether the person did this (a key, a click, a paste), as opposed to an answer or a timer.
  package var isInput: Bool {
    !isAnswer
  }
}
