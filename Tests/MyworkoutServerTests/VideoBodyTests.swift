import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import MyworkoutServer

/// A video's bytes as the server sends them: the range whole, or, when the file ends before
/// the range does (cut while it was being sent; a walk-through saw the answer stall for ever),
/// an error that closes the connection instead of a short body that never finishes.
@Suite struct VideoBodyTests {
  struct Collected: ResponseBodyWriter {
    final class Box: @unchecked Sendable {
      var bytes: [UInt8] = []
      var finished = false
    }
    let box: Box
    /// Done once, as the first chunk is written.
    var first: (@Sendable () -> Void)? = nil
    mutating func write(_ buffer: ByteBuffer) async throws {
      if box.bytes.isEmpty { first?() }
      box.bytes += buffer.readableBytesView
    }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws { box.finished = true }
  }

  /// A folder holding `v.mp4` of `count` bytes, found as the route finds it.
  static func found(_ count: Int) throws -> (folder: String, file: VideoFile, bytes: [UInt8]) {
    let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    let folder = NSTemporaryDirectory() + "video-body-\(getpid())-\(Int.random(in: 0..<1_000_000))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/v.mp4"))
    return (folder, try VideoFile.find("v.mp4", in: folder), bytes)
  }

  static func remove(_ folder: String) { try? FileManager.default.removeItem(atPath: folder) }

  @Test func aRangeIsSentWholeAndFinished() async throws {
    let (folder, file, bytes) = try Self.found(300_000)
    defer { Self.remove(folder) }
    let box = Collected.Box()
    try await file.body(range: 1_000...299_999).write(Collected(box: box))
    #expect(box.bytes == Array(bytes[1_000...]))
    #expect(box.finished)
  }

  @Test func aFileCutShortEndsTheAnswerWithAnError() async throws {
    // Found with 300,000 bytes; cut to 200,000 once its first chunk is on its way.
    let (folder, file, bytes) = try Self.found(300_000)
    defer { Self.remove(folder) }
    let box = Collected.Box()
    let writer = Collected(box: box) { #expect(truncate(file.path, 200_000) == 0) }
    await #expect(throws: VideoFile.Cut.self) {
      try await file.body(range: 0...299_999).write(writer)
    }
    #expect(box.bytes == Array(bytes[..<200_000]), "what there was, then the error")
    #expect(!box.finished)
  }

  /// A link put where the file was found (to a file outside the folder) is not followed: a
  /// walk-through that swapped one in and out while asking for the video was sent the outside
  /// file's bytes in one answer out of nine.
  @Test func aLinkPutInTheFilesPlaceIsNotFollowed() async throws {
    let (folder, file, _) = try Self.found(1_000)
    defer { Self.remove(folder) }
    let secret = folder + "-secret"
    try Data("SECRET-OUTSIDE\n".utf8).write(to: URL(fileURLWithPath: secret))
    defer { unlink(secret) }
    #expect(unlink(file.path) == 0 && symlink(secret, file.path) == 0)
    let box = Collected.Box()
    await #expect(throws: (any Error).self) {
      try await file.body(range: 0...14).write(Collected(box: box))
    }
    #expect(box.bytes.isEmpty)
  }

  /// The file written again in place (its inode kept: `cp` over it, `ffmpeg -y`): what the
  /// headers said of it (length, tag, date) is the old file's, so nothing is sent.
  @Test func aFileWrittenAgainInPlaceIsNotSent() async throws {
    let (folder, file, _) = try Self.found(1_000)
    defer { Self.remove(folder) }
    try Data(repeating: 7, count: 1_200).write(to: URL(fileURLWithPath: file.path))
    let box = Collected.Box()
    await #expect(throws: VideoFile.Replaced.self) {
      try await file.body(range: 0...999).write(Collected(box: box))
    }
    #expect(box.bytes.isEmpty)
  }

  /// Another file put in its place since it was found (its length, tag and dates said in the
  /// headers are the old one's): nothing is sent, and the client asks again.
  @Test func anotherFileInItsPlaceIsNotSent() async throws {
    let (folder, file, _) = try Self.found(1_000)
    defer { Self.remove(folder) }
    try Data(repeating: 7, count: 1_000).write(to: URL(fileURLWithPath: folder + "/new.mp4"))
    #expect(rename(folder + "/new.mp4", file.path) == 0)
    let box = Collected.Box()
    await #expect(throws: VideoFile.Replaced.self) {
      try await file.body(range: 0...999).write(Collected(box: box))
    }
    #expect(box.bytes.isEmpty)
  }

  /// A FIFO put in the file's place since it was found is refused at once: its open waited for
  /// a writer on a thread of the file system's pool, and a walk-through's rename race held both
  /// of them, after which no video was sent again. Should the open wait here, the test opens
  /// the FIFO for writing after 30 s so that it ends, and fails.
  @Test func aFIFOPutInTheFilesPlaceIsRefusedAtOnce() async throws {
    let (folder, file, _) = try Self.found(1_000)
    defer { Self.remove(folder) }
    #expect(unlink(file.path) == 0 && mkfifo(file.path, 0o600) == 0)
    let sending = Task {
      try await file.body(range: 0...999).write(Collected(box: Collected.Box()))
    }
    // Whether the open was still waiting at the deadline (long, as the suites share two
    // cores: a task may wait seconds for a thread).
    let watchdog = Task { () -> Bool in
      guard (try? await Task.sleep(for: .seconds(30))) != nil else { return false }
      let writer = open(file.path, O_WRONLY | O_NONBLOCK)
      if writer >= 0 { close(writer) }
      return writer >= 0
    }
    let result = await sending.result
    watchdog.cancel()
    #expect(await !watchdog.value, "the open waited for a writer")
    #expect(throws: VideoFile.Replaced.self) { try result.get() }
  }
}
