import MyworkoutCore

/// Where the columns of a classes file are, found by header name in any order (SPEC §11):
/// `title,instructor,level,song,videoUrl,thumbnailSlug` and an optional `duration`; names are
/// compared trimmed and ignoring case; other columns are ignored.
struct CatalogColumns {
  static let required = ["title", "instructor", "level", "song", "videoUrl", "thumbnailSlug"]
  /// Durations above this many seconds (68 years) are refused: they would overflow the
  /// millisecond arithmetic of watched %.
  static let longestDuration = Int(Int32.max)
  /// Fields longer than this many characters make their row a bad row: no title, name, song,
  /// address or file name is that long, and a megabyte of one would slow every search and
  /// every screen that shows it.
  static let longestField = 1_000

  let count: Int
  private let title, instructor, level, song, videoURL, thumbnailSlug: Int
  private let duration: Int?

  /// The columns of `header`, the first record of the file at `path`; throws naming the first
  /// required column it lacks.
  init(header: [String], path: String) throws(FileError) {
    var index: [String: Int] = [:]
    for (offset, name) in header.enumerated() {
      let key = name.trimmingWhitespace().lowercased()
      if index[key] == nil { index[key] = offset }
    }
    func column(_ name: String) throws(FileError) -> Int {
      guard let found = index[name.lowercased()] else {
        let file = PathParts.split(path).name
        throw FileError(message: "\(file) has no \"\(name)\" column", isDamage: true)
      }
      return found
    }
    count = header.count
    title = try column("title")
    instructor = try column("instructor")
    level = try column("level")
    song = try column("song")
    videoURL = try column("videoUrl")
    thumbnailSlug = try column("thumbnailSlug")
    duration = index["duration"]
  }

  /// What the import makes of a file's fields, as a version: a catalog imported under other
  /// rules is imported again, though its file did not change. 2: a field's line breaks and
  /// other control characters show as one space.
  static let rules = "2"

  /// The class a record describes, or nil for a bad row: a wrong number of fields, an empty
  /// title, an unknown level, a duration that is not a positive whole number of seconds, or a
  /// field over `longestField` characters.
  /// An empty or absent duration is `DanceClass.defaultDuration`.
  func danceClass(_ record: CSVRecord) -> DanceClass? {
    let fields = record.fields
    guard !record.isMalformed, fields.count == count,
      fields.allSatisfy({ !Self.isTooLong($0) })
    else { return nil }
    // Shown on one line; the id stays the fields' own (progress is kept under it).
    let shown = { FastText.oneLine($0).trimmingWhitespace() }
    let title = fields[title].trimmingWhitespace()
    guard !shown(title).isEmpty, let level = Self.level(fields[level]) else { return nil }
    var seconds = DanceClass.defaultDuration
    if let duration {
      let text = fields[duration].trimmingWhitespace()
      if !text.isEmpty {
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text),
          value > 0, value <= Self.longestDuration
        else { return nil }
        seconds = value
      }
    }
    let instructor = fields[instructor].trimmingWhitespace()
    let song = fields[song].trimmingWhitespace()
    return DanceClass(
      id: ClassID.make(title: title, instructor: instructor, level: level, song: song),
      title: shown(title), instructor: shown(instructor), level: level, song: shown(song),
      videoURL: fields[videoURL].trimmingWhitespace(),
      thumbnailSlug: fields[thumbnailSlug].trimmingWhitespace(), duration: seconds)
  }

  /// Whether `field` has more than `longestField` characters (counted only when its bytes
  /// could be that many).
  private static func isTooLong(_ field: String) -> Bool {
    field.utf8.count > longestField && field.count > longestField
  }

  /// The level named by `text`: `ClassLevel(parsing:)`, with the file's usual spelling first.
  private static func level(_ text: String) -> ClassLevel? {
    ClassLevel(rawValue: text) ?? ClassLevel(parsing: text)
  }
}
