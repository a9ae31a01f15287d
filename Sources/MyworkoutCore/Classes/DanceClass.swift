/// One class of the catalog (SPEC §11), as a classes file row describes it.
package struct DanceClass: Sendable, Hashable, Identifiable {
  /// What a class plays for when its file gives no duration (10:00; ANSWERS.md says why).
  package static let defaultDuration = 600

  /// Whether a `videoUrl` is an absolute `http(s)` URL (SPEC §19): what the server passes
  /// through and what the app in remote mode opens; anything else is a file's name or path.
  package static func isWebAddress(_ videoURL: String) -> Bool {
    let lowered = videoURL.lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
  }

  /// The hex SHA-256 of its title, instructor, level and song, so that progress kept under it
  /// survives a re-import of the file.
  package let id: String
  package let title: String
  package let instructor: String
  package let level: ClassLevel
  package let song: String
  package let videoURL: String
  /// The thumbnail's file name, e.g. `class-thumbnail-1.jpg`.
  package let thumbnailSlug: String
  /// Whole seconds, always positive.
  package let duration: Int

  package init(
    id: String, title: String, instructor: String, level: ClassLevel, song: String,
    videoURL: String, thumbnailSlug: String, duration: Int = DanceClass.defaultDuration
  ) {
    self.id = id
    self.title = title
    self.instructor = instructor
    self.level = level
    self.song = song
    self.videoURL = videoURL
    self.thumbnailSlug = thumbnailSlug
    self.duration = duration
  }

  /// The duration in media-time milliseconds, the unit of `IntervalSet`.
  package var durationMilliseconds: Int {
    ProgressBounds.clamp(duration, to: ProgressBounds.longestDurationSeconds) * 1000
  }
}
