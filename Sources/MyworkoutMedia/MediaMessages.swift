/// What the app tells `myworkout-media` (one line of text each, on its standard input) and
/// what the player process answers (length-prefixed binary messages on its standard output).
/// Both sides use these types, so the two programs cannot disagree on the wire.
package enum MediaCommand: Equatable, Sendable {
  /// An HTTP header for the next `open` (`Authorization: Bearer …`): never on the command line,
  /// where other users could read it.
  case header(String)
  /// Opens a path or URL; network reads give up after `timeoutMilliseconds`.
  case open(source: String, timeoutMilliseconds: Int)
  /// The picture's size in pixels (two per cell across and down for quarter blocks).
  case size(width: Int, height: Int)
  case play
  case pause
  /// To an exact media time; the frame there is shown even while paused.
  case seek(milliseconds: Int)
  /// Hundredths, pitch kept.
  case speed(Int)
  case sound(Bool)
  /// 0...100.
  case volume(Int)
  /// One frame forward (1) or back (-1), while paused.
  case step(Int)

  package var line: String {
    switch self {
    case .header(let text): "header \(Self.flat(text))"
    case .open(let source, let timeout): "open \(timeout) \(Self.flat(source))"
    case .size(let width, let height): "size \(width) \(height)"
    case .play: "play"
    case .pause: "pause"
    case .seek(let milliseconds): "seek \(milliseconds)"
    case .speed(let hundredths): "speed \(hundredths)"
    case .sound(let on): on ? "sound on" : "sound off"
    case .volume(let percent): "volume \(percent)"
    case .step(let frames): "step \(frames)"
    }
  }

  /// A source or header never carries a line break into the protocol.
  private static func flat(_ text: String) -> String {
    String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
  }

  package init?(line: Substring) {
    let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
    let word = parts.first.map(String.init) ?? ""
    let rest = parts.count > 1 ? String(parts[1]) : ""
    let number = Int(rest)
    switch word {
    case "header": self = .header(rest)
    case "open":
      let fields = rest.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
      guard fields.count == 2, let timeout = Int(fields[0]) else { return nil }
      self = .open(source: String(fields[1]), timeoutMilliseconds: timeout)
    case "size":
      let fields = rest.split(separator: " ").compactMap { Int($0) }
      guard fields.count == 2 else { return nil }
      self = .size(width: fields[0], height: fields[1])
    case "play": self = .play
    case "pause": self = .pause
    case "seek": guard let number else { return nil }; self = .seek(milliseconds: number)
    case "speed": guard let number else { return nil }; self = .speed(number)
    case "sound": self = .sound(rest == "on")
    case "volume": guard let number else { return nil }; self = .volume(number)
    case "step": guard let number else { return nil }; self = .step(number)
    default: return nil
    }
  }
}

/// A picture from the player process: RGB24, `width`x`height`, shown at `milliseconds`.
package struct MediaFrame: Equatable, Sendable {
  package var milliseconds: Int
  package var width: Int
  package var height: Int
  package var rgb: [UInt8]

  package init(milliseconds: Int, width: Int, height: Int, rgb: [UInt8]) {
    self.milliseconds = milliseconds
    self.width = width
    self.height = height
    self.rgb = rgb
  }
}

package enum MediaEvent: Equatable, Sendable {
  /// The source opened: its length, its picture's display size, one frame's length, sound.
  case ready(
    durationMilliseconds: Int, width: Int, height: Int, frameMilliseconds: Int,
    hasSound: Bool)
  /// A picture to show now.
  case frame(MediaFrame)
  /// The media time while playing (about four times a second).
  case time(milliseconds: Int)
  /// The source ran dry (true) or has enough again (false).
  case buffering(Bool)
  /// The end was reached (nothing more to show).
  case ended
  /// The source cannot be played; why, in a few words.
  case failed(String)
  /// Sound plays (nil) or not, and why (`no sound device`, `sound off`).
  case sound(String?)

  private var kind: UInt8 {
    switch self {
    case .ready: 82  // R
    case .frame: 80  // P
    case .time: 84  // T
    case .buffering: 66  // B
    case .ended: 69  // E
    case .failed: 88  // X
    case .sound: 83  // S
    }
  }

  /// The message: a kind byte, a 4-byte little-endian length, the payload.
  package var bytes: [UInt8] {
    let (head, body) = parts
    return head + body
  }

  /// The message as a head and a body that follow it on the wire: a frame's pixels are its
  /// body as they are (not copied into one message: two copies of 144 KB a frame at 200x60 were
  /// a twentieth of the player's time); every other message is all head.
  package var parts: (head: [UInt8], body: [UInt8]) {
    var payload: [UInt8] = []
    var body: [UInt8] = []
    switch self {
    case .ready(let duration, let width, let height, let frame, let sound):
      payload =
        Self.int(duration) + Self.int(width) + Self.int(height) + Self.int(frame) + [
          sound ? 1 : 0
        ]
    case .frame(let frame):
      payload = Self.int(frame.milliseconds) + Self.int(frame.width) + Self.int(frame.height)
      body = frame.rgb
    case .time(let milliseconds): payload = Self.int(milliseconds)
    case .buffering(let on): payload = [on ? 1 : 0]
    case .ended: payload = []
    case .failed(let reason): payload = Array(reason.utf8)
    case .sound(let reason): payload = reason.map { Array($0.utf8) } ?? []
    }
    let count = UInt32(payload.count + body.count)
    return ([kind] + (0..<4).map { UInt8(truncatingIfNeeded: count >> (8 * $0)) } + payload, body)
  }

  private static func int(_ value: Int) -> [UInt8] {
    let raw = UInt64(bitPattern: Int64(value))
    return (0..<8).map { UInt8(truncatingIfNeeded: raw >> (8 * $0)) }
  }

  fileprivate static func int(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Int {
    let start = bytes.startIndex + offset
    var raw: UInt64 = 0
    for index in 0..<8 { raw |= UInt64(bytes[start + index]) << (8 * index) }
    return Int(Int64(bitPattern: raw))
  }

  fileprivate init?(kind: UInt8, payload: ArraySlice<UInt8>) {
    let count = payload.count
    switch kind {
    case 82:
      guard count == 33 else { return nil }
      self = .ready(
        durationMilliseconds: Self.int(payload, at: 0), width: Self.int(payload, at: 8),
        height: Self.int(payload, at: 16), frameMilliseconds: Self.int(payload, at: 24),
        hasSound: payload[payload.startIndex + 32] != 0)
    case 80:
      guard count >= 24 else { return nil }
      let width = Self.int(payload, at: 8)
      let height = Self.int(payload, at: 16)
      guard width >= 0, height >= 0, width <= 8192, height <= 8192,
        count == 24 + width * height * 3
      else { return nil }
      self = .frame(
        MediaFrame(
          milliseconds: Self.int(payload, at: 0), width: width, height: height,
          rgb: Array(payload.dropFirst(24))))
    case 84:
      guard count == 8 else { return nil }
      self = .time(milliseconds: Self.int(payload, at: 0))
    case 66:
      guard count == 1 else { return nil }
      self = .buffering(payload.first != 0)
    case 69: self = .ended
    case 88: self = .failed(String(decoding: payload, as: UTF8.self))
    case 83: self = .sound(count == 0 ? nil : String(decoding: payload, as: UTF8.self))
    default: return nil
    }
  }
}

/// Reads the player process's messages from a byte stream that arrives in pieces.
package struct MediaEventReader: Sendable {
  private var buffer: [UInt8] = []
  /// A message the reader cannot make sense of: the stream is not the player's.
  package private(set) var damaged = false

  package init() {}

  /// Adds bytes and returns every whole message they complete.
  package mutating func append(_ bytes: some Sequence<UInt8>) -> [MediaEvent] {
    buffer.append(contentsOf: bytes)
    var events: [MediaEvent] = []
    var start = 0
    while !damaged, buffer.count - start >= 5 {
      var length = 0
      for index in 0..<4 { length |= Int(buffer[start + 1 + index]) << (8 * index) }
      guard length <= 8192 * 8192 * 3 + 24 else {
        damaged = true
        break
      }
      guard buffer.count - start - 5 >= length else { break }
      let payload = buffer[(start + 5)..<(start + 5 + length)]
      if let event = MediaEvent(kind: buffer[start], payload: payload) {
        events.append(event)
      } else {
        damaged = true
      }
      start += 5 + length
    }
    if start > 0 { buffer.removeFirst(start) }
    return events
  }
}
