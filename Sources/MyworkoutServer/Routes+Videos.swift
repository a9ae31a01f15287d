import HTTPTypes
import Hummingbird
import MyworkoutCore
import MyworkoutServices
import MyworkoutWire
import NIOCore
import _NIOFileSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The class videos (SPEC §19): `GET /videos/<file>` to a valid bearer token only, with byte
/// ranges (FFmpeg asks for `bytes=N-` at each seek) and validators; only plain files directly in
/// the folder. Behind nginx (`--videos-accel`) an instance only authorises: nginx sends the bytes.
extension Backend {
  var videosDirectory: String { options.videosDirectory ?? options.assets + "/videos" }

  static let accelRedirect = HTTPField.Name("X-Accel-Redirect")!

  /// Said at the start when the video folder is not there (each video would be a 404).
  func videosNotice() -> String? {
    var status = stat()
    let reason: String
    if stat(videosDirectory, &status) != 0 {
      reason = String(cString: strerror(errno))
    } else if status.st_mode & S_IFMT != S_IFDIR {
      reason = "not a folder"
    } else {
      return nil
    }
    return "\(videosDirectory): \(reason); GET /videos/… answers 404 until it is there"
  }

  /// A class's `videoUrl` as the catalog answers it: a bare file name becomes this server's
  /// `/videos/` URL; an absolute URL (or nothing) passes through.
  package static func videoURL(_ stored: String, base: String) -> String {
    if stored.isEmpty || DanceClass.isWebAddress(stored) { return stored }
    // Another scheme (`file://`, `ftp://`…) names nothing a client should open: it would read
    // the client's own disk. No video, as for a class without one.
    if stored.contains("://") { return "" }
    return base + "/videos/" + Percent.encode(stored)
  }

  func addVideoRoutes(to router: Router<ServerContext>) {
    router.get("videos/:file") { request, context in
      _ = try await self.account(request)
      let file = try VideoFile.find(context.decodedParameter("file"), in: self.videosDirectory)
      if let prefix = self.options.videosAccel {
        // nginx keeps these two of the instance's headers for the file it sends.
        return Response(
          status: .ok,
          headers: [
            Self.accelRedirect: prefix + Percent.encode(file.name),
            .contentType: file.contentType, .cacheControl: "private, max-age=86400",
          ], body: .init())
      }
      var headers: HTTPFields = [
        .contentType: file.contentType, .acceptRanges: "bytes", .eTag: file.entityTag,
        .lastModified: file.lastModified, .cacheControl: "private, max-age=86400",
      ]
      // RFC 9110 §13.2.2's order: If-Match, else If-Unmodified-Since (a client resuming the
      // download of a file that changed since gets 412, not the new file's bytes to join to
      // the old one's); then If-None-Match, else If-Modified-Since.
      if request.headers[.ifMatch] != nil {
        try Preconditions.requireMatch(request, tag: file.entityTag)
      } else if let since = request.headers[.ifUnmodifiedSince].flatMap(HTTPDate.parse),
        file.modified > since
      {
        throw Preconditions.failed
      }
      let unchanged =
        if let asked = request.headers[.ifNoneMatch] {
          HTTPCachingMiddleware<ServerContext>.matches(asked, file.entityTag)
        } else if let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse) {
          file.modified <= since
        } else {
          false
        }
      if unchanged {
        return Response(status: .notModified, headers: headers, body: .init())
      }
      var range = ByteRange.parse(request.headers[.range], size: file.size)
      if let validator = request.headers[.ifRange], validator != file.entityTag,
        validator != file.lastModified
      {
        range = .whole
      }
      switch range {
      case .unsatisfiable:
        // The API's JSON error, as nginx's own 416 in scripts/cluster.
        var refusal = APIError(
          .rangeNotSatisfiable, error: "range_not_satisfiable",
          description: "The range is outside the file.")
        refusal.headers[.contentRange] = "bytes */\(file.size)"
        refusal.headers[.acceptRanges] = "bytes"
        return refusal.response
      case .whole:
        headers[.contentLength] = String(file.size)
        guard file.size > 0 else { return Response(status: .ok, headers: headers, body: .init()) }
        let body = file.body(
          range: 0...(file.size - 1), on: context.eventLoop, told: self.options.videoChunkRead)
        return Response(status: .ok, headers: headers, body: body)
      case .part(let part):
        headers[.contentLength] = String(part.count)
        headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(file.size)"
        let body = file.body(
          range: part, on: context.eventLoop, told: self.options.videoChunkRead)
        return Response(status: .partialContent, headers: headers, body: body)
      }
    }
  }
}

/// A video the folder holds: a regular file (not a link, not hidden) named by one path part,
/// whose name says it is a video (the folder may hold other things: the shipped one, the script
/// that makes its clips).
struct VideoFile {
  /// The file was cut (or removed) while its bytes were being sent: fewer came than announced.
  struct Cut: Error {}

  /// The file found is not the one there now: a symbolic link (to anything, inside the folder
  /// or out) or another file was put in its place, or it was written again, since. Nothing of
  /// it is sent.
  struct Replaced: Error {}

  /// How much of a video is read at a time.
  static let chunkLength = 128 * 1024

  /// `range` of the file, in 128 KiB chunks as Hummingbird's `FileIO` reads them, each read
  /// once the one before was taken by the connection: a client that stops reading holds one
  /// chunk of memory (reading ahead, eight chunks each, a walk-through's 100 stalled clients
  /// held 600 MB). A write only queues its chunk for the connection's event loop, so the next
  /// chunk is read once the loop has taken it: a connection whose buffers are full is then not
  /// writable, and the next write waits. (Under load the loop took queued writes late: 300
  /// clients that read nothing had 4–5 MB each read for the 2.8 MB their sockets held, 700 MB
  /// of the server's memory.) Without `eventLoop` (a test's writer) a chunk is taken when its
  /// write returns. `told` hears each chunk's length as it is read.
  ///
  /// The file is opened without following a link, and only when it is still the
  /// file `find` looked at (a walk-through that swapped a link to a file outside the folder in
  /// and out sent that file's bytes, in one answer out of nine). A file that ends before the
  /// range does (truncated while being sent) ends the answer with an error, so the connection
  /// is closed at once: the client sees a cut answer and asks again, where a finished short
  /// body left it waiting for the rest for ever.
  func body(
    range: ClosedRange<Int>, on eventLoop: (any EventLoop)? = nil,
    told: (@Sendable (Int) -> Void)? = nil
  ) -> ResponseBody {
    let file = self
    return ResponseBody(contentLength: range.count) { writer in
      // Opened from the folder's handle, which opens without blocking: a FIFO put in the
      // file's place after `find` would otherwise hold a thread of the file system's pool (two
      // here) until a writer came, and with both held no video was sent again (a
      // walk-through's rename race, 3 requests in 61).
      try await FileSystem.shared.withDirectoryHandle(atPath: FilePath(file.directory)) { folder in
        try await folder.withFileHandle(
          forReadingAt: FilePath(file.name),
          options: OpenOptions.Read(followSymbolicLinks: false, closeOnExec: true)
        ) { handle in
          let info = try await handle.info()
          guard info.type == .regular, let status = info.platformSpecificStatus,
            status.st_dev == file.device, status.st_ino == file.inode,
            Int(status.st_size) == file.size, Int(status.st_mtim.tv_sec) == file.modified,
            Int(status.st_mtim.tv_nsec) == file.modifiedNanoseconds
          else { throw Replaced() }
          var offset = range.lowerBound
          while offset <= range.upperBound {
            let length = min(Self.chunkLength, range.upperBound - offset + 1)
            let chunk = try await handle.readChunk(
              fromAbsoluteOffset: Int64(offset), length: .bytes(Int64(length)))
            guard chunk.readableBytes > 0 else { throw Cut() }
            told?(chunk.readableBytes)
            offset += chunk.readableBytes
            try await writer.write(chunk)
            try await eventLoop?.submit {}.get()
          }
          try await writer.finish(nil)
        }
      }
    }
  }

  var name: String
  var directory: String
  var path: String
  var size: Int
  var modified: Int
  var modifiedNanoseconds: Int
  /// The file's identity as `find` saw it (with its size and time: a file written again in
  /// place keeps its inode, and a new file may get a freed one).
  var device: UInt
  var inode: UInt

  /// The file `name` (decoded, as `decodedParameter` gives it) names, or 404.
  static func find(_ name: String, in directory: String) throws(APIError) -> VideoFile {
    guard !name.isEmpty, name.utf8.count <= 255,
      !name.hasPrefix("."), !name.contains("/"), !name.utf8.contains(0),
      contentType(of: name) != nil
    else { throw APIError.notFound }
    let path = directory + "/" + name
    // Opened (not followed through a link, and without waiting on a FIFO) and looked at through
    // its descriptor, so that what is described is what could be read: a file the server
    // cannot read is refused before any header goes out (a walk-through's file of mode 000 was
    // answered 200 with its length, then the connection closed with nothing sent; the same
    // when descriptors ran out).
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw errno == EMFILE || errno == ENFILE ? APIError.busy : APIError.notFound
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw APIError.notFound
    }
    return VideoFile(
      name: name, directory: directory, path: path, size: Int(info.st_size),
      modified: Int(info.st_mtim.tv_sec),
      modifiedNanoseconds: Int(info.st_mtim.tv_nsec), device: UInt(info.st_dev),
      inode: UInt(info.st_ino))
  }

  /// nginx's form: size and modification time in hexadecimal, so that every instance (and nginx
  /// itself) gives the same file the same tag.
  var entityTag: String {
    "\"" + String(modified, radix: 16) + "-" + String(size, radix: 16) + "\""
  }

  var lastModified: String { HTTPDate.format(seconds: modified) }

  var contentType: String { Self.contentType(of: name) ?? "application/octet-stream" }

  /// The videos served: their names' endings and media type (the OpenAPI document lists them
  /// from here).
  static let mediaTypes: [(endings: [String], type: String)] = [
    (["mp4", "m4v"], "video/mp4"), (["ts", "m2ts", "mts"], "video/mp2t"), (["webm"], "video/webm"),
    (["mkv"], "video/x-matroska"), (["mov"], "video/quicktime"), (["ogv"], "video/ogg"),
  ]

  /// The media type a video's name gives, or nil for a name that is not a video's.
  static func contentType(of name: String) -> String? {
    guard name.contains("."), let ending = name.split(separator: ".").last?.lowercased() else {
      return nil
    }
    return mediaTypes.first { $0.endings.contains(ending) }?.type
  }
}

/// One `Range: bytes=…` of RFC 9110 §14.1.2. Anything else (several ranges, another unit, a
/// malformed one) is ignored, as the RFC allows: the whole file.
enum ByteRange: Equatable {
  case whole
  case part(ClosedRange<Int>)
  case unsatisfiable

  static func parse(_ header: String?, size: Int) -> ByteRange {
    guard let header, header.lowercased().hasPrefix("bytes=") else { return .whole }
    let spec = header.dropFirst(6).trimmingWhitespace()
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
    let first = spec[..<dash]
    let last = spec[spec.index(after: dash)...]
    guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit),
      !(first.isEmpty && last.isEmpty)
    else { return .whole }
    // Digits past what an Int holds are more than any file's length.
    if first.isEmpty {
      // The last N bytes.
      let count = Int(last) ?? Int.max
      guard count > 0, size > 0 else { return .unsatisfiable }
      return .part(max(0, size - count)...(size - 1))
    }
    // A start past what an Int holds is past the end, unless the range is backwards (ignored).
    guard let start = Int(first) else {
      return last.isEmpty || !isLess(last, than: first) ? .unsatisfiable : .whole
    }
    let end = last.isEmpty ? Int.max : (Int(last) ?? Int.max)
    guard start <= end else { return .whole }
    guard start < size else { return .unsatisfiable }
    return .part(start...min(end, size - 1))
  }

  /// Whether the decimal digits `a` are a smaller number than `b`, whatever their length.
  private static func isLess(_ a: Substring, than b: Substring) -> Bool {
    let a = a.drop { $0 == "0" }
    let b = b.drop { $0 == "0" }
    return a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
  }
}

/// HTTP dates (RFC 9110 §5.6.7), locale-free: sent as IMF-fixdate (`Sun, 06 Nov 1994
/// 08:49:37 GMT`), read in that form and the two obsolete ones every recipient must accept,
/// RFC 850's (`Sunday, 06-Nov-94 08:49:37 GMT`) and C's asctime (`Sun Nov  6 08:49:37 1994`).
package enum HTTPDate {
  private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let longDays = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// The seconds an HTTP date says, in any of its three forms; nil for anything else. RFC
  /// 850's two-digit year is the latest year ending so that is not more than 50 years after
  /// `now` (§5.6.7).
  package static func parse(_ text: String) -> Int? { parse(text, now: Int(time(nil))) }

  static func parse(_ text: String, now: Int) -> Int? {
    let parts = text.split(separator: " ")
    let day: Int?
    let month: Int?
    let year: Int?
    let clock: Substring
    if parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","),
      days.contains(String(parts[0].dropLast())), parts[5] == "GMT"
    {
      // IMF-fixdate.
      (day, month, year, clock) = (
        Int(parts[1]), months.firstIndex(of: String(parts[2])), Int(parts[3]), parts[4]
      )
      guard parts[1].count == 2, parts[3].count == 4 else { return nil }
    } else if parts.count == 4, parts[0].hasSuffix(","),
      longDays.contains(String(parts[0].dropLast())), parts[3] == "GMT"
    {
      // RFC 850: `06-Nov-94`.
      let date = parts[1].split(separator: "-", omittingEmptySubsequences: false)
      guard date.count == 3, date[0].count == 2, date[2].count == 2, let short = Int(date[2])
      else { return nil }
      var today = tm()
      var clockNow = time_t(now)
      gmtime_r(&clockNow, &today)
      let thisYear = 1900 + Int(today.tm_year)
      var full = thisYear - thisYear % 100 + short
      if full > thisYear + 50 { full -= 100 }
      (day, month, year, clock) = (
        Int(date[0]), months.firstIndex(of: String(date[1])), full, parts[2]
      )
    } else if parts.count == 5, days.contains(String(parts[0])) {
      // asctime: the day of the month padded with a space, which the split takes away.
      guard text.utf8.count == 24 else { return nil }
      (day, month, year, clock) = (
        Int(parts[2]), months.firstIndex(of: String(parts[1])), Int(parts[4]), parts[3]
      )
      guard parts[4].count == 4 else { return nil }
    } else {
      return nil
    }
    guard let day, let month, let year, clock.count == 8 else { return nil }
    let time = clock.split(separator: ":").compactMap { Int($0) }
    guard time.count == 3, (1...31).contains(day), (1900...9999).contains(year),
      (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2])
    else { return nil }
    var fields = tm()
    fields.tm_year = Int32(year - 1900)
    fields.tm_mon = Int32(month)
    fields.tm_mday = Int32(day)
    fields.tm_hour = Int32(time[0])
    fields.tm_min = Int32(time[1])
    fields.tm_sec = Int32(time[2])
    let seconds = timegm(&fields)
    // A day the month does not have (30 February) is not a date: timegm would move it on.
    var back = tm()
    var moment = seconds
    gmtime_r(&moment, &back)
    guard back.tm_mday == Int32(day), back.tm_mon == Int32(month) else { return nil }
    return Int(seconds)
  }

  static func format(seconds: Int) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return days[Int(parts.tm_wday)] + ", " + two(parts.tm_mday) + " "
      + months[Int(parts.tm_mon)] + " " + String(1900 + Int(parts.tm_year)) + " "
      + two(parts.tm_hour) + ":" + two(parts.tm_min) + ":" + two(parts.tm_sec) + " GMT"
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
