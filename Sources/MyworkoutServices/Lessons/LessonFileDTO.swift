/// Mimo's lesson file as it is on the wire:
/// `{"lessons":[{"id":5,"content":[{"color":"#FF0000","text":"var "}],"input":{"startIndex":4,
/// "endIndex":10}}]}`. Kept apart from the core `Lesson`; `LessonMapping` validates and converts.
struct LessonFileDTO: Decodable, Sendable {
  var lessons: [LessonDTO]
}

/// One lesson as written in the file.
struct LessonDTO: Decodable, Sendable {
  var id: Int
  var content: [SegmentDTO]
  var input: InputDTO?
}

/// A run of text; `color` is kept as written (missing, or not even a string, is the default).
struct SegmentDTO: Decodable, Sendable {
  var color: String?
  var text: String

  private enum CodingKeys: String, CodingKey {
    case color, text
  }

  init(color: String?, text: String) {
    self.color = color
    self.text = text
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    // A malformed colour must not cost the lesson: anything but a string is the default colour.
    color = try? container.decodeIfPresent(String.self, forKey: .color)
    text = try container.decode(String.self, forKey: .text)
  }
}

/// The range to type, in Unicode scalars of the concatenated text, end exclusive.
struct InputDTO: Decodable, Sendable {
  var startIndex: Int
  var endIndex: Int
}
