import Foundation
import MyworkoutCore
import Testing

@testable import myworkout

#if canImport(Glibc)
  import Glibc
#endif

/// The app's side of the player process (SPEC §6, §19): whatever the player does, the app's keys
/// are answered and Esc leaves at once.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct VideoHostTests {
  /// A player that stops reading its commands (stopped in a debugger, or stuck): the commands
  /// fill the pipe, and a blocking write would freeze the app (Esc, Ctrl-C and SIGTERM
  /// unanswered: a walk-through saw exactly that behind a hung sound server). The player is
  /// given up on instead, and the Player says so and runs its clock.
  @Test func aPlayerThatStopsReadingIsGivenUpOnNotWaitedFor() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("myworkout-deaf-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let deaf = folder.appendingPathComponent("myworkout-media").path
    try "#!/bin/sh\nexec sleep 600\n".write(toFile: deaf, atomically: true, encoding: .utf8)
    chmod(deaf, 0o755)
    let host = VideoHost(executable: deaf, muted: true) { .init(source: $0, header: nil) }
    var reports: [VideoEvent] = []
    host.connect(
      VideoHost.Wiring(
        send: { actions in
          for case .player(.video(let event)) in actions { reports.append(event) }
        },
        picture: { _ in }, watch: { _, _ in }))
    host.handle(.open(source: "clip.mp4"))
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
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("myworkout-flood-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let flood = folder.appendingPathComponent("myworkout-media").path
    // `S`, a 4-byte length (8), `no sound`: written for ever, faster than any app draws.
    try "#!/bin/sh\nwhile :; do printf 'S\\010\\000\\000\\000no sound'; done\n"
      .write(toFile: flood, atomically: true, encoding: .utf8)
    chmod(flood, 0o755)
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
    host.handle(.open(source: "clip.mp4"))
    let read = try #require(readable)
    // Each turn as the loop takes it: once the pipe is readable.
    for turn in 1...4 {
      var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      #expect(poll(&fd, 1, 20_000) == 1, "the flood goes on")
      read()
      #expect(batches.count == turn, "one batch a turn, not one drawing a message")
    }
    #expect(batches.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 == .sound("no sound") } })
  }
}
