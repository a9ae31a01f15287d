import MyworkoutCore
import MyworkoutView
import Testing

/// Lessons as a person sees them: a lesson with its blank and colours, Done with this round's
/// events, the load failing, and a small terminal.
@Suite struct LessonsSnapshotTests {
  static let red = RGBColor(hex: "#FF0000")
  static let white = RGBColor(hex: "#FFFFFF")
  static let blue = RGBColor(hex: "#0000FF")
  static let shown = Timestamp(iso8601: "2026-11-22T04:15:00Z")!

  /// The brief's sample, with its colours.
  static let lessons = [
    Lesson(id: 5, segments: [.init(colour: white, text: "Hello World!")], input: nil),
    Lesson(
      id: 6,
      segments: [
        .init(colour: red, text: "var "), .init(colour: white, text: "x = "),
        .init(colour: blue, text: "1"),
      ], input: nil),
    Lesson(
      id: 7,
      segments: [
        .init(colour: red, text: "var "), .init(colour: white, text: "number = "),
        .init(colour: blue, text: "1"),
      ], input: 4..<10),
  ]

  static let events = [
    CompletionEvent(
      lessonID: 5, started: shown, completed: Timestamp(iso8601: "2026-11-22T04:15:04Z")!),
    CompletionEvent(
      lessonID: 6, started: Timestamp(iso8601: "2026-11-22T04:15:04Z")!,
      completed: Timestamp(iso8601: "2026-11-22T04:15:09Z")!),
    CompletionEvent(
      lessonID: 7, started: Timestamp(iso8601: "2026-11-22T04:15:09Z")!,
      completed: Timestamp(iso8601: "2026-11-22T04:16:30Z")!),
  ]

  /// Signed in with Lessons on top, loaded with the sample and these events.
  static func state(events: [CompletionEvent] = []) -> AppState {
    var state = AppState.launch(with: .valid(ScreenSnapshotTests.session))
    _ = reduce(&state, .profile(.lessonsPressed))
    _ = reduce(
      &state,
      .lessons(
        .loaded(
          .success(LessonsProgress(course: LessonCourse(lessons: lessons), events: events)),
          at: shown)))
    return state
  }

  func render(_ state: AppState, _ width: Int = 80, _ height: Int = 24) -> Grid {
    Renderer.render(state, width: width, height: height)
  }

  @Test func aLessonWithABlankAfterAWrongAnswer() {
    var state = Self.state(events: Array(Self.events.prefix(2)))
    state.apply(.pasted("numbr"))
    state.apply(.enterPressed)
    let grid = render(state)
    assertSnapshot(grid, named: "lessons-lesson")
    #expect(grid.text.contains("Lesson 3 of 3"))
    #expect(grid.text.contains("var numbr_ = 1"))
    #expect(grid.text.contains("That's not quite right. Try again."))
  }

  @Test func theCursorStandsInTheBlank() {
    var state = Self.state(events: Array(Self.events.prefix(2)))
    let empty = render(state)
    let line = empty.lines.firstIndex { $0.contains("var ______ = 1") }
    #expect(line != nil)
    let column = empty.lines[line ?? 0].firstIndex(of: "_").map {
      empty.lines[line ?? 0].distance(from: empty.lines[line ?? 0].startIndex, to: $0)
    }
    #expect(empty.cursor == Position(row: line ?? -1, column: column ?? -1))
    state.apply(.pasted("中文"))
    state.apply(.textEdited(.moveLeft))
    let wide = render(state)
    #expect(wide.text.contains("var 中文__ = 1"), "\(wide.text)")
    // After 中 (two columns wide), on 文.
    #expect(wide.cursor == Position(row: line ?? -1, column: (column ?? 0) + 2))
  }

  @Test func nextIsDimUntilSomethingIsTypedAndActiveWithoutABlank() {
    func next(_ grid: Grid) -> Style? {
      for row in 0..<grid.height {
        let line = grid.lines[row]
        guard let range = line.range(of: "[ Next ]") else { continue }
        return grid[row, line.distance(from: line.startIndex, to: range.lowerBound)].style
      }
      return nil
    }
    var state = Self.state(events: Array(Self.events.prefix(2)))
    #expect(next(render(state)) == .buttonDisabled)
    state.apply(.textEdited(.insert("n")))
    #expect(next(render(state)) == .button)
    #expect(next(render(Self.state())) == .button, "no blank: active at once")
  }

  @Test func coloursAreTheNearestTerminalColoursAndWhiteIsTheDefault() {
    let grid = render(Self.state(events: [Self.events[0]]))
    let row = grid.lines.firstIndex { $0.contains("var x = 1") } ?? 0
    let start = grid.lines[row].distance(
      from: grid.lines[row].startIndex, to: grid.lines[row].range(of: "var")!.lowerBound)
    #expect(grid[row, start].style == .colored(196))  // #FF0000
    #expect(grid[row, start + 4].style == .normal)  // #FFFFFF: the default foreground
    #expect(grid[row, start + 8].style == .colored(21))  // #0000FF
  }

  @Test func done() {
    let grid = render(Self.state(events: Self.events))
    assertSnapshot(grid, named: "lessons-done")
    #expect(grid.text.contains("You completed all 3 lessons."))
    #expect(grid.text.contains("7       2026-11-22T04:15:09Z  2026-11-22T04:16:30Z"))
  }

  @Test func doneAt40x12() {
    let grid = render(Self.state(events: Self.events), 40, 12)
    assertSnapshot(grid, named: "lessons-done-40x12")
    #expect(grid.text.contains("[ Start over ]"))
  }

  @Test func aLessonAt40x12WrapsAndKeepsTheMessage() {
    var state = Self.state()
    var lessons = state.lessonsOnTop
    lessons.lessons[0] = Lesson(
      id: 5,
      segments: [.init(colour: nil, text: "print(\"A line longer than forty columns wraps\")")],
      input: 6..<44)
    state.lessonsOnTop = lessons
    state.apply(.pasted("nope"))
    state.apply(.enterPressed)
    let grid = render(state, 40, 12)
    assertSnapshot(grid, named: "lessons-lesson-40x12")
    #expect(grid.text.contains("That's not quite right."))
    #expect(grid.cursor != nil)
  }

  @Test func aLongLineWrapsBetweenWords() {
    var state = Self.state()
    var lessons = state.lessonsOnTop
    lessons.lessons[0] = Lesson(
      id: 5, segments: [.init(colour: nil, text: "var steps = 0  // var makes a variable")],
      input: 0..<3)
    state.lessonsOnTop = lessons
    let lines = render(state, 40, 12).lines
    #expect(lines.contains("   ___ steps = 0  // var makes a"), "\(lines)")
    #expect(lines.contains("   variable"), "\(lines)")
  }

  @Test func loadingAndFailed() {
    var state = AppState.launch(with: .valid(ScreenSnapshotTests.session))
    _ = reduce(&state, .profile(.lessonsPressed))
    #expect(render(state).text.contains("Loading lessons…"))
    _ = reduce(
      &state,
      .lessons(
        .loaded(
          .failure(LessonsFailure("/tmp/lessons.json: lessons[1].id is not a whole number")),
          at: Self.shown)))
    assertSnapshot(render(state), named: "lessons-failed")
  }

  @Test func tinyTerminalsNeverCrash() {
    var typed = Self.state(events: Array(Self.events.prefix(2)))
    typed.apply(.pasted(String(repeating: "中", count: 150)))
    for state in [Self.state(), typed, Self.state(events: Self.events)] {
      for (width, height) in [(1, 1), (20, 6), (10, 3), (0, 0), (300, 100)] {
        #expect(render(state, width, height).lines.count == max(0, height))
      }
    }
  }
}

extension AppState {
  /// Lessons on top of the signed-in path.
  fileprivate var lessonsOnTop: LessonsState {
    get {
      guard case .signedIn(let signedIn) = root, case .lessons(let lessons)? = signedIn.path.last
      else { fatalError("no Lessons on top") }
      return lessons
    }
    set {
      guard case .signedIn(var signedIn) = root else { return }
      signedIn.path[signedIn.path.count - 1] = .lessons(newValue)
      root = .signedIn(signedIn)
    }
  }
}
