import CEventLoop
import CMedia
import MyworkoutMedia

#if canImport(Glibc)
  import Glibc
#endif

// myworkout-media: the Player's video and sound (SPEC §19), in a process of its own so that the
// app's start path carries none of FFmpeg and a source that crashes a decoder cannot take the
// app (or the person's progress) with it. Commands arrive as lines on standard input
// (`MediaCommand`); pictures and states leave as messages on standard output (`MediaEvent`).
// It ends when its standard input closes (the app left the Player, or ended).

signal(SIGPIPE, SIG_IGN)
// The app killed (even with -9) takes its player with it. The signal comes when the *thread*
// that started the player ends, so the app starts it from its main thread (VideoHost), and the
// tests from a thread that lives as long as the player (MediaProcess).
if mw_die_with_parent() != 0 { exit(0) }
let muted = CommandLine.arguments.contains("--mute")
// SIGCONT, read in the main loop (blocked before any thread starts, so every thread has it
// blocked): a player stopped from outside goes on from where it stood (Player.continued).
let continued = [SIGCONT].withUnsafeBufferPointer {
  mw_block_signals_into_fd($0.baseAddress, Int32($0.count))
}
let player = Player(muted: muted, continued: continued)
player.run()
