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
        send: { action in
          if case .player(.video(let event)) = action { reports.append(event) }
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
}
