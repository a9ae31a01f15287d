/// A timer the state asks for. The runtime keeps running exactly the timers that
/// `subscriptions(_:)` returns, starting and stopping them as the state changes, so an idle app
/// runs none and wakes up zero times.
package enum Subscription: Hashable, Sendable {
  /// Every 100 ms while a request that shows a spinner runs: `.spinnerTicked`.
  case spinner
  /// Once, when this session token stops being accepted: `.sessionExpired`.
  case sessionExpiry(token: String)
  /// Once, 150 ms after the last key of a search: `.classes(.searchPauseEnded)`. A new key
  /// makes a new subscription (another query), so the pause starts again.
  case searchPause(query: String)
  /// The wall clock, while a screen keeps time (the Player): read at once when it starts and
  /// before every action, and with `every`, also on a timer (`.clockRead`) while playing. The
  /// interval changes as the state does (the time to the screen's next change): the runtime
  /// starts the timer again for each new one.
  case clock(every: Duration?)
  /// Once, 2 s after a volume key (its count): `.player(.volumeNoteEnded)`.
  case volumeNote(Int)

  package var isClock: Bool {
    if case .clock = self { return true }
    return false
  }
}

/// The timers that should run in this state. Pure, so which timers run is unit-tested.
package func subscriptions(_ state: AppState) -> Set<Subscription> {
  var wanted: Set<Subscription> = []
  if state.isBusy { wanted.insert(.spinner) }
  if case .signedIn(let signedIn) = state.root {
    wanted.insert(.sessionExpiry(token: signedIn.session.token))
  }
  if case .classes(let classes, _) = state.screen, let query = classes.pendingQuery {
    wanted.insert(.searchPause(query: query))
  }
  if let player = state.player, player.playback != .loading {
    // A video that shows and plays reports its time four times a second, and the clock is
    // read before every action: a timer at that rate would only draw the screen twice as often.
    // A slow one still reads it when the reports stop (a seek waiting on a stalled server), so
    // the time in class counts and the next report is not taken for a sleep.
    // Without one, the clock is read when the screen next changes (`nextReading`); full
    // screen's bar shares its row with the times, and is read every tick.
    if player.playback == .playing {
      let every: Duration =
        if player.video == .showing {
          PlayerState.videoTick
        } else if player.fullScreen {
          PlayerState.tick
        } else {
          .milliseconds(
            player.nextReading(barWidth: PlayerLayout.barWidth(for: state.display.size)))
        }
      wanted.insert(.clock(every: every))
    } else {
      wanted.insert(.clock(every: nil))
    }
    if let note = player.volumeNote { wanted.insert(.volumeNote(note)) }
  }
  return wanted
}
