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
    mutating func write(_ buffer: ByteBuffer) async throws {
      box.bytes += buffer.readableBytesView
    }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws { box.finished = true }
  }

  static func file(_ count: Int) throws -> (String, [UInt8]) {
    let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    let path = NSTemporaryDirectory() + "video-body-\(getpid())-\(Int.random(in: 0..<1_000_000))"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return (path, bytes)
  }

  @Test func aRangeIsSentWholeAndFinished() async throws {
    let (path, bytes) = try Self.file(300_000)
    defer { unlink(path) }
    let box = Collected.Box()
    try await VideoFile.body(path: path, range: 1_000...299_999).write(Collected(box: box))
    #expect(box.bytes == Array(bytes[1_000...]))
    #expect(box.finished)
  }

  @Test func aFileCutShortEndsTheAnswerWithAnError() async throws {
    // The size was read as 300,000 bytes; the file now holds 200,000.
    let (path, bytes) = try Self.file(200_000)
    defer { unlink(path) }
    let box = Collected.Box()
    await #expect(throws: VideoFile.Cut.self) {
      try await VideoFile.body(path: path, range: 0...299_999).write(Collected(box: box))
    }
    #expect(box.bytes == bytes, "what there was, then the error")
    #expect(!box.finished)
  }
}
