import MyworkoutCore

/// Turns the wire lessons into a course, keeping what can be shown: a lesson with empty content
/// or an id seen before is skipped (one notice names them all), an input range that does not fit
/// the text is dropped, and a colour that is not `#RRGGBB`/`#RGB` becomes the default colour.
enum LessonMapping {
  static func course(from file: LessonFileDTO) -> LessonCourse {
    var lessons: [Lesson] = []
    var ids: Set<Int> = []
    var skipped: [String] = []
    for dto in file.lessons {
      let segments = dto.content.map { segment in
        Lesson.Segment(colour: segment.color.flatMap(RGBColor.init(hex:)), text: segment.text)
      }
      if segments.allSatisfy(\.text.isEmpty) {
        skipped.append("id \(dto.id) (empty content)")
      } else if ids.contains(dto.id) {
        skipped.append("id \(dto.id) (duplicate id)")
      } else {
        ids.insert(dto.id)
        lessons.append(Lesson(id: dto.id, segments: segments, input: range(dto.input)))
      }
    }
    return LessonCourse(lessons: lessons, notices: skipped.isEmpty ? [] : [notice(skipped)])
  }

  /// The range as written, or nil when its start is after its end (`Lesson` drops the rest).
  private static func range(_ input: InputDTO?) -> Range<Int>? {
    guard let input, input.startIndex <= input.endIndex else { return nil }
    return input.startIndex..<input.endIndex
  }

  private static func notice(_ skipped: [String]) -> String {
    let noun = skipped.count == 1 ? "lesson" : "lessons"
    return "Skipped \(skipped.count) \(noun): " + skipped.joined(separator: ", ")
  }
}
