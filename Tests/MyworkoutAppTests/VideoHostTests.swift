import Foundation
import MyworkoutCore
import MyworkoutMedia
import Testing

@testable import myworkout

#if canImport(Glibc)
  import Glibc
#endif

/// The app's side of the player process (SPEC §6, §19): whatever the player does, the app's keys
/// are answered and Esc leaves at once.
///
/// The limit catches a test that hangs on a player. It counts from when a test is started,
/// and these run on the main actor behind every other main-actor test: on a machine loaded by
/// other work all three waited 125 s for it in one full run, so it is 5 minutes.
@MainActor
@Suite(.timeLimit(.minutes(5))) struct VideoHostTests {
  /// The player process's words for a network or server that is away are the ones the Player
  /// tries again on the next play; a missing file and a refusal are not.
  @Test func theReasonsThatMayPassAreThePlayersWordsForAnAbsentServer() {
    let away = [
      "Connection refused", "Connection timed out", "Network is unreachable",
      "Server returned 5XX Server Error reply", "End of file",
    ].map { FailureReason.text(for: $0, networked: true) }
    #expect(Set(away) == VideoPhase.reasonsThatMayPass)
    let staying = [
      "No such file or directory", "Server returned 404 Not Found",
      "Server returned 401 Unauthorized (authorization failed)",
    ].map { FailureReason.text(for: $0, networked: true) }
    #expect(VideoPhase.reasonsThatMayPass.isDisjoint(with: staying))
  }

  /// A player that stops reading its commands (stopped in a debugger, or stuck): the commands
  /// fill the pipe, and a blocking write would freeze the app (Esc, Ctrl-C and SIGTERM
  /// unanswered: a walk-through saw exactly that behind a hung sound server). The player is
  /// given up on instead, and the Player says so and runs its clock.
  @Test func aPlayerThatStopsReadingIsGivenUpOnNotWaitedFor() throws {
    let (folder, deaf) = try Self.fakePlayer("exec sleep 600")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let host = VideoHost(executable: deaf, muted: true) { .init(source: $0, header: nil) }
    var reports: [VideoEvent] = []
    host.connect(
      VideoHost.Wiring(
        send: { actions in
          for case .player(.video(let event)) in actions { reports.append(event) }
        },
        picture: { _ in }, watch: { _, _ in }))
    try Self.openVideo(host) { reports }
    // Far more than a pipe holds (64 KiB), as a held arrow key sends over a long stall.
    for _ in 0..<20_000 where reports.isEmpty {
      host.handle(.seek(milliseconds: 1_000))
    }
    #expect(reports == [.failed(VideoHost.stoppedAnswering)])
    // Nothing more goes to it, and closing does not wait.
    host.handle(.play)
    host.handle(.close)
  }

  /// A player that floods the app with messages (a walk-through saw one send `no sound` some
  /// 150,000 times, and the app drew the screen for each and stopped answering Esc, Ctrl-C and
  /// SIGTERM): what one turn of the loop reads is bounded and handed over as one batch (one
  /// drawing), and the loop goes back to the keys and signals in between.
  @Test func aFloodFromThePlayerIsReadInBoundedBatches() throws {
    // `S`, a 4-byte length (8), `no sound`: written for ever, faster than any app draws.
    let (folder, flood) = try Self.fakePlayer(
      "while :; do printf 'S\\010\\000\\000\\000no sound'; done")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let host = VideoHost(executable: flood, muted: true) { .init(source: $0, header: nil) }
    var batches: [[VideoEvent]] = []
    var readable: (@MainActor () -> Void)?
    var descriptor: Int32 = -1
    host.connect(
      VideoHost.Wiring(
        send: { actions in
          batches.append(
            actions.compactMap { if case .player(.video(let event)) = $0 { event } else { nil } })
        },
        picture: { _ in },
        watch: { fd, handler in
          if let handler { (descriptor, readable) = (fd, handler) }
        }))
    defer { host.handle(.close) }
    try Self.openVideo(host) { batches.flatMap { $0 } }
    let read = try #require(readable, "watching the player: \(batches)")
    // Each turn as the loop takes it: once the pipe is readable.
    for turn in 1...4 {
      var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      #expect(poll(&fd, 1, 20_000) == 1, "the flood goes on")
      read()
      #expect(batches.count == turn, "one batch a turn, not one drawing a message")
    }
    #expect(batches.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 == .sound("no sound") } })
  }

  /// A stand-in for `myworkout-media`: a shell script running `body`, in a folder of its own
  /// (returned to be removed). Written through a descriptor that is closed on exec, so that a
  /// child some other test starts meanwhile does not keep it open for writing, which would make
  /// starting the script fail ("text file busy").
  static func fakePlayer(_ body: String) throws -> (folder: String, path: String) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("myworkout-fake-player-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/myworkout-media"
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    try #require(fd >= 0, "made \(path)")
    let text = Array("#!/bin/sh\n\(body)\n".utf8)
    let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    try #require(written == text.count)
    return (folder, path)
  }

  /// Opens a class's video in `host`. A start that failed is tried again a few times: the
  /// script can still be "busy" for a moment when a child another test started at the instant
  /// it was written has not yet closed its copy of the descriptor (the app's own message for
  /// that is right; the test wants the player it made). `reports` gives what the host said.
  static func openVideo(_ host: VideoHost, reports: () -> [VideoEvent]) throws {
    for _ in 0..<5 {
      host.handle(.open(source: "clip.mp4"))
      guard reports().last == .failed("the player (myworkout-media) could not start") else {
        return
      }
    }
    Issue.record("the fake player never started: \(reports())")
  }
}
