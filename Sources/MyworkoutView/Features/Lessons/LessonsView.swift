import MyworkoutCore

/// Lessons (SPEC §13): `Loading lessons…`; or `Lessons could not be loaded` with the reason and
/// `[ Try again ]`; or a lesson under `Lesson 2 of 3` with its blank and `[ Next ]`; or `Done`
/// with this round's completion events and `[ Start over ]`.
enum LessonsView {
  static func body(_ state: LessonsState, spinnerFrame: Int, metrics: Metrics) -> Body {
    var body = Body()
    switch state.stage {
    case .loading:
      body.add(TextBlock.centered("Lessons", width: metrics.width, style: .heading))
      body.spacer()
      let frame = ButtonRow.spinnerFrames[spinnerFrame % ButtonRow.spinnerFrames.count]
      body.addPinned([
        Row(segments: [
          Segment(column: metrics.labelColumn, text: frame, style: .spinner),
          Segment(column: metrics.labelColumn + 2, text: LessonsText.loading, style: .hint),
        ])
      ])
    case .failed(let reason):
      body.add(TextBlock.centered("Lessons", width: metrics.width, style: .heading))
      body.spacer()
      body.addPinned(
        TextBlock.rows(
          LessonsText.couldNotLoad, column: metrics.labelColumn, width: metrics.width,
          style: .error))
      body.addPinned(
        TextBlock.rows(reason, column: metrics.labelColumn, width: metrics.width, style: .normal))
      body.spacer()
      body.add(
        LessonsButton.rows(
          "Try again", focused: true, disabled: false, spinner: nil, metrics: metrics),
        focused: true)
    case .lesson(let attempt):
      lesson(state, attempt, spinnerFrame: spinnerFrame, metrics: metrics, into: &body)
    case .done:
      LessonsDoneView.add(state, spinnerFrame: spinnerFrame, metrics: metrics, to: &body)
    }
    return body
  }

  private static func lesson(
    _ state: LessonsState, _ attempt: LessonAttempt, spinnerFrame: Int, metrics: Metrics,
    into body: inout Body
  ) {
    guard let lesson = state.currentLesson else { return }
    body.add(
      TextBlock.centered(
        LessonsText.heading(index: attempt.index, of: state.lessons.count), width: metrics.width,
        style: .heading))
    body.spacer()
    body.add(
      LessonLine.rows(
        lesson, answer: attempt.answer, column: metrics.labelColumn, width: metrics.width),
      focused: lesson.hasInput)
    body.spacer()
    // With a blank the cursor stays in it and Enter is Next; without one Next has the focus.
    body.add(
      LessonsButton.rows(
        "Next", focused: !lesson.hasInput, disabled: !state.isNextEnabled,
        spinner: state.isSaving ? (spinnerFrame, "Saving…") : nil, metrics: metrics),
      focused: !lesson.hasInput)
    if let message = state.message {
      body.addPinned(
        TextBlock.rows(message, column: metrics.labelColumn, width: metrics.width, style: .error))
    }
    if lesson.hasInput {
      body.spacer()
      body.addOptional(
        TextBlock.rows(
          "Type what goes in the blank, then press Enter.", column: metrics.labelColumn,
          width: metrics.width, style: .hint))
    }
  }
}

/// `Done`: how many lessons were completed, this round's events (lesson id, started,
/// completed, in ISO 8601 UTC), and `[ Start over ]`.
enum LessonsDoneView {
  static func add(_ state: LessonsState, spinnerFrame: Int, metrics: Metrics, to body: inout Body) {
    body.add(TextBlock.centered("Done", width: metrics.width, style: .heading))
    body.spacer()
    // Kept in view on a short terminal, with the button; the events nearest it fill the rest.
    body.addPinned(
      TextBlock.rows(
        LessonsText.completed(state.lessons.count), column: metrics.labelColumn,
        width: metrics.width, style: .success))
    body.spacer()
    events(state.events, metrics: metrics, into: &body)
    body.spacer()
    body.add(
      LessonsButton.rows(
        "Start over", focused: true, disabled: state.isSaving,
        spinner: state.isSaving ? (spinnerFrame, "Starting over…") : nil, metrics: metrics),
      focused: true)
    if let message = state.message {
      body.addPinned(
        TextBlock.rows(message, column: metrics.labelColumn, width: metrics.width, style: .error))
    }
  }

  /// One row per event when the three columns fit; else the started and completed times one
  /// under the other.
  private static func events(_ events: [CompletionEvent], metrics: Metrics, into body: inout Body) {
    let time = 20  // YYYY-MM-DDTHH:MM:SSZ
    let idWidth = max(6, events.map { DisplayWidth.of(String($0.lessonID)) }.max() ?? 0) + 2
    let start = metrics.labelColumn
    let wide = start + idWidth + time + 2 + time <= metrics.width
    func row(_ cells: [(String, Int)], style: Style) -> Row {
      Row(segments: cells.map { Segment(column: start + $0.1, text: $0.0, style: style) })
    }
    if wide {
      body.add(
        row(
          [("Lesson", 0), ("Started", idWidth), ("Completed", idWidth + time + 2)], style: .label))
      for event in events {
        body.add(
          row(
            [
              (String(event.lessonID), 0), (event.started.iso8601, idWidth),
              (event.completed.iso8601, idWidth + time + 2),
            ], style: .normal))
      }
    } else {
      body.add(row([("Lesson", 0), ("Started / Completed", idWidth)], style: .label))
      for event in events {
        body.add(
          row([(String(event.lessonID), 0), (event.started.iso8601, idWidth)], style: .normal))
        body.add(row([(event.completed.iso8601, idWidth)], style: .normal))
      }
    }
  }
}

/// The screen's one button, its `[` in line with the text above it (forms put buttons under
/// their fields instead), the focus marker `▸` just before it.
enum LessonsButton {
  static func rows(
    _ title: String, focused: Bool, disabled: Bool, spinner: (frame: Int, text: String)?,
    metrics: Metrics
  ) -> [Row] {
    let rows = ButtonRow.rows(
      [Button(title: title, focused: focused, disabled: disabled)], spinner: spinner,
      metrics: metrics)
    let button = rows.first?.segments.first { $0.text.hasPrefix("[") }?.column
    guard let button, button > metrics.labelColumn else { return rows }
    return rows.map { row in
      var moved = row.shifted(by: metrics.labelColumn - button)
      moved.cursorColumn = row.cursorColumn.map { $0 + metrics.labelColumn - button }
      return moved
    }
  }
}
