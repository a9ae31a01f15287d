import MyworkoutCore

/// The Player's keys (SPEC §12): Space plays and pauses, ←/→ seek 5 s, Home/End go to the
/// start and the end, `0`–`9` to 0 %–90 %, `-`/`+` change the speed, Esc or `q` go back to
/// Classes. A click on the bar seeks there (`PlayerView.action`).
enum PlayerKeys {
  static func map(_ state: PlayerState) -> KeyMap {
    var bindings = [
      KeyBinding(
        [.character(" ")], Hint(keys: "Space", action: "play/pause"), .player(.playPausePressed),
        help: Hint(keys: "Space", action: "play/pause (on Finished: play from the start)")),
      KeyBinding(
        [.left], Hint(keys: "←/→", action: "5s"), .player(.seekPressed(seconds: -5)),
        help: Hint(keys: "←/→", action: "seek 5 s back/forward")),
      KeyBinding([.right], .player(.seekPressed(seconds: 5))),
      KeyBinding(
        [.home], .player(.seekToEndPressed(last: false)),
        help: Hint(keys: "Home/End", action: "start/end")),
      KeyBinding([.end], .player(.seekToEndPressed(last: true))),
      KeyBinding(
        [.character("-")], Hint(keys: "-/+", action: "speed", isEssential: false),
        .player(.speedChanged(faster: false)),
        help: Hint(keys: "-/+", action: "speed 0.5×, 0.75×, 1×, 1.25×, 1.5×, 2×")),
      KeyBinding([.character("+"), .character("=")], .player(.speedChanged(faster: true))),
      KeyBinding(
        [.escape], Hint(keys: "Esc", action: "back"), .player(.backPressed),
        help: Hint(keys: "Esc/q", action: "back to Classes")),
      KeyBinding([.character("q")], .player(.leavePressed)),
    ]
    // The picture's keys while there is one (past a clip's end too: its last picture stays and
    // the class goes on, so it can be mirrored and looped over on the clock; a walk-through's
    // `f` could not leave full view there). Steps, sound and volume only while it plays.
    let video = state.video.drivesPosition
    let picture = video || state.video == .pastEnd
    if picture {
      bindings += [
        KeyBinding(
          [.character("m")], Hint(keys: "m", action: "mirror", isEssential: false),
          .player(.mirrorPressed), help: Hint(keys: "m", action: "mirror the picture")),
        KeyBinding(
          [.character("l")], Hint(keys: "l", action: "loop", isEssential: false),
          .player(.loopPressed),
          help: Hint(keys: "l", action: "loop: set A, set B and loop, clear")),
      ]
    }
    if video {
      bindings += [
        KeyBinding(
          [.character(",")], .player(.stepPressed(forward: false)),
          help: Hint(keys: ",/.", action: "one frame back/forward (paused)")),
        KeyBinding([.character(".")], .player(.stepPressed(forward: true))),
      ]
    }
    if picture {
      bindings.append(
        KeyBinding(
          [.character("f")], Hint(keys: "f", action: "full screen", isEssential: false),
          .player(.fullScreenPressed),
          help: Hint(keys: "f", action: "picture over the whole terminal")))
    }
    if video {
      bindings += [
        KeyBinding(
          [.character("s")], .player(.soundPressed), help: Hint(keys: "s", action: "sound off/on")),
        KeyBinding(
          [.up], .player(.volumePressed(up: true)), help: Hint(keys: "↑/↓", action: "volume")),
        KeyBinding([.down], .player(.volumePressed(up: false))),
      ]
    }
    for digit in 0...9 {
      bindings.append(
        KeyBinding(
          [.character(Character(String(digit)))], .player(.percentPressed(digit)),
          help: digit == 0 ? Hint(keys: "0–9", action: "go to 0%–90%") : nil))
    }
    bindings.append(
      KeyBinding(
        [], .player(.barClicked(milliseconds: 0)),
        help: Hint(keys: "click", action: "on the bar: go there")))
    return KeyMap(bindings)
  }
}
