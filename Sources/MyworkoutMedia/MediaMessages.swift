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
  /// A media time to say (`time`) the moment play reaches it from before (the end of an A–B
  /// loop, where the app sends play back to A); nil: none.
  case mark(Int?)

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
    case .mark(let milliseconds): milliseconds.map { "mark \($0)" } ?? "mark off"
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
    case "mark":
      guard rest == "off" || number != nil else { return nil }
      self = .mark(number)
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
  /// What changed since the picture before it, when it came as a patch (nil: a whole picture).
  package var changes: [MediaPatch.Span]?

  package init(
    milliseconds: Int, width: Int, height: Int, rgb: [UInt8], changes: [MediaPatch.Span]? = nil
  ) {
    self.milliseconds = milliseconds
    self.width = width
    self.height = height
    self.rgb = rgb
    self.changes = changes
  }
}

package enum MediaEvent: Equatable, Sendable {
  /// The source opened: its length, its picture's display size, one frame's length, sound.
  case ready(
    durationMilliseconds: Int, width: Int, height: Int, frameMilliseconds: Int,
    hasSound: Bool)
  /// A picture to show now.
  case frame(MediaFrame)
  /// A picture to show now, as what changed since the one before (`MediaEventReader` turns it
  /// into a `frame`).
  case patch(MediaPatch)
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
  /// Every step asked for so far (this many since the player started) has its picture on
  /// screen, or none to show: a burst of `.` has landed.
  case stepped(Int)

  private var kind: UInt8 {
    switch self {
    case .ready: 82  // R
    case .frame: 80  // P
    case .patch: 68  // D
    case .time: 84  // T
    case .buffering: 66  // B
    case .ended: 69  // E
    case .failed: 88  // X
    case .sound: 83  // S
    case .stepped: 78  // N
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
    case .patch(let patch):
      payload =
        Self.int(patch.milliseconds) + Self.int(patch.width) + Self.int(patch.height)
        + Self.int(patch.spans.count)
      payload.reserveCapacity(payload.count + 6 * patch.spans.count)
      for span in patch.spans {
        for value in [span.band, span.from, span.to] {
          payload += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
      }
      body = patch.pixels
    case .time(let milliseconds): payload = Self.int(milliseconds)
    case .buffering(let on): payload = [on ? 1 : 0]
    case .ended: payload = []
    case .failed(let reason): payload = Array(reason.utf8)
    case .sound(let reason): payload = reason.map { Array($0.utf8) } ?? []
    case .stepped(let count): payload = Self.int(count)
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
    case 68:
      guard count >= 32 else { return nil }
      let width = Self.int(payload, at: 8)
      let height = Self.int(payload, at: 16)
      let spans = Self.int(payload, at: 24)
      guard width >= 0, height >= 0, width <= 8192, height <= 8192, spans >= 0,
        spans <= (height + 1) / 2, count >= 32 + 6 * spans
      else { return nil }
      let table = payload.dropFirst(32)
      func short(_ index: Int) -> Int {
        Int(table[table.startIndex + index]) | Int(table[table.startIndex + index + 1]) << 8
      }
      self = .patch(
        MediaPatch(
          milliseconds: Self.int(payload, at: 0), width: width, height: height,
          spans: (0..<spans).map {
            MediaPatch.Span(band: short(6 * $0), from: short(6 * $0 + 2), to: short(6 * $0 + 4))
          },
          pixels: Array(table.dropFirst(6 * spans))))
    case 84:
      guard count == 8 else { return nil }
      self = .time(milliseconds: Self.int(payload, at: 0))
    case 66:
      guard count == 1 else { return nil }
      self = .buffering(payload.first != 0)
    case 69: self = .ended
    case 88: self = .failed(String(decoding: payload, as: UTF8.self))
    case 83: self = .sound(count == 0 ? nil : String(decoding: payload, as: UTF8.self))
    case 78:
      guard count == 8 else { return nil }
      self = .stepped(Self.int(payload, at: 0))
    default: return nil
    }
  }
}

/// Reads the player process's messages from a byte stream that arrives in pieces, and lays
/// each patch over the picture before it (so what it returns has whole pictures only).
package struct MediaEventReader: Sendable {
  private var buffer: [UInt8] = []
  /// The last picture, for the next patch.
  private var picture: MediaFrame?
  /// The picture before it, and the patch that made the last one from it: by the next patch,
  /// nothing else holds its pixels, so both patches are laid over them in place instead of
  /// copying the last picture's (a copy of the whole picture a frame was a twelfth of the
  /// app's time at 200x60).
  private var older: (rgb: [UInt8], patch: MediaPatch)?

  /// The picture `patch` makes of the last one (nil: it does not fit it).
  private mutating func patched(_ patch: MediaPatch) -> MediaFrame? {
    guard let last = picture, last.width == patch.width, last.height == patch.height else {
      return nil
    }
    var rgb = last.rgb
    if var reused = older.take(), reused.rgb.count == rgb.count,
      reused.patch.apply(to: &reused.rgb)
    {
      rgb = reused.rgb  // the last picture's pixels, in memory of its own
    }
    guard patch.apply(to: &rgb) else { return nil }
    older = (last.rgb, patch)
    picture = MediaFrame(
      milliseconds: patch.milliseconds, width: patch.width, height: patch.height, rgb: rgb)
    return MediaFrame(
      milliseconds: patch.milliseconds, width: patch.width, height: patch.height, rgb: rgb,
      changes: patch.spans)
  }
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
      switch MediaEvent(kind: buffer[start], payload: payload) {
      case .frame(let frame)?:
        picture = frame
        older = nil
        events.append(.frame(frame))
      case .patch(let patch)?:
        guard let frame = patched(patch) else {
          damaged = true
          break
        }
        events.append(.frame(frame))
      case let event?:
        events.append(event)
      case nil:
        damaged = true
      }
      start += 5 + length
    }
    if start > 0 { buffer.removeFirst(start) }
    return events
  }
}
