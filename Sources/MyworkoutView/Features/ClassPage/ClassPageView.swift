import MyworkoutCore

/// A class's page: its title as the heading and its details.
enum ClassPageView {
  static func body(_ page: ClassPageState, metrics: Metrics) -> Body {
    let item = page.danceClass
    var body = Body()
    body.add(TextBlock.centered(item.title, width: metrics.width, style: .heading))
    body.spacer()
    var details = [
      ("Instructor", item.instructor), ("Level", item.level.title), ("Song", item.song),
      ("Duration", PlayTime.text(seconds: item.duration, hours: item.duration >= 3600)),
    ]
    if let watched = page.watched { details.append(("Watched", "\(watched)%")) }
    for (label, value) in details {
      body.add(
        Row(segments: [
          Segment(column: metrics.labelColumn, text: label, style: .label),
          Segment(
            column: metrics.labelColumn + 12,
            text: TextBlock.truncated(value, width: metrics.width - metrics.labelColumn - 12),
            style: .normal),
        ]))
    }
    body.spacer()
    body.addOptional(
      TextBlock.rows(
        "Video: \(item.videoURL)", column: metrics.labelColumn, width: metrics.width, style: .hint))
    return body
  }
}

enum ClassPageKeys {
  static func map(_ page: ClassPageState) -> KeyMap {
    KeyMap([
      KeyBinding(
        [.escape, .character("q"), .backspace], Hint(keys: "Esc", action: "back"),
        .classPage(.backPressed), help: Hint(keys: "Esc/q/Backspace", action: "back to Classes"))
    ])
  }
}
