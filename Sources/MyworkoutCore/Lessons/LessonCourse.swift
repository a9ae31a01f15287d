/// A loaded course: its lessons in the order the file gives them, and the notices about what
/// was skipped while loading (shown to the person, never fatal).
package struct LessonCourse: Hashable, Sendable {
  package var lessons: [Lesson]
  package var notices: [String]

  package init(lessons: [Lesson], notices: [String] = []) {
    self.lessons = lessons
    self.notices = notices
  }
}
