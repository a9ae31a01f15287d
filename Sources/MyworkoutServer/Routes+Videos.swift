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
        return Response(
          status: .rangeNotSatisfiable,
          headers: [.contentRange: "bytes */\(file.size)", .acceptRanges: "bytes"], body: .init())
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
    guard let start = Int(first) else { return last.isEmpty ? .unsatisfiable : .whole }
    let end = last.isEmpty ? Int.max : (Int(last) ?? Int.max)
    guard start <= end else { return .whole }
    guard start < size else { return .unsatisfiable }
    return .part(start...min(end, size - 1))
  }
}

/// The IMF-fixdate of RFC 9110 (`Sun, 06 Nov 1994 08:49:37 GMT`), locale-free.
enum HTTPDate {
  private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// The seconds an IMF-fixdate says (the form servers send, and so the one clients echo);
  /// nil for anything else.
  static func parse(_ text: String) -> Int? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","),
      days.contains(String(parts[0].dropLast())), parts[5] == "GMT",
      let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])),
      let year = Int(parts[3]), parts[4].count == 8
    else { return nil }
    let clock = parts[4].split(separator: ":").compactMap { Int($0) }
    guard clock.count == 3, (1...31).contains(day), (1900...9999).contains(year),
      (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
    else { return nil }
    var fields = tm()
    fields.tm_year = Int32(year - 1900)
    fields.tm_mon = Int32(month)
    fields.tm_mday = Int32(day)
    fields.tm_hour = Int32(clock[0])
    fields.tm_min = Int32(clock[1])
    fields.tm_sec = Int32(clock[2])
    let seconds = timegm(&fields)
    // A day the month does not have (30 February) is not a date: timegm would move it on.
    var back = tm()
    var time = seconds
    gmtime_r(&time, &back)
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
