import MyworkoutCore

enum ProfileView {
  static func body(
    _ profile: ProfileState, session: Session, spinnerFrame: Int, metrics: Metrics
  ) -> Body {
    var body = Body()
    body.add(TextBlock.centered("Profile", width: metrics.width, style: .heading))
    body.spacer()
    details(session, metrics: metrics, into: &body)
    body.spacer()
    let dialogOpen = profile.dialog != nil
    body.add(
      ButtonRow.rows(
        [
          Button(
            title: profile.editNumberUnavailable == nil
              ? "Edit number" : "Edit number: unavailable",
            focused: !dialogOpen && profile.focus == .edit,
            disabled: profile.editNumberUnavailable != nil, isStop: !dialogOpen),
          Button(
            title: "Log out", focused: !dialogOpen && profile.focus == .logOut, isStop: !dialogOpen),
          Button(
            title: "Classes", focused: !dialogOpen && profile.focus == .classes,
            isStop: !dialogOpen),
          Button(
            title: "Lessons", focused: !dialogOpen && profile.focus == .lessons,
            isStop: !dialogOpen),
          Button(
            title: "Images", focused: !dialogOpen && profile.focus == .images, isStop: !dialogOpen),
        ],
        // Narrow: `Edit number` and `Log out`, then the sections (SPEC §10).
        secondRowFrom: 2, spinner: nil, metrics: metrics),
      focused: !dialogOpen)
    if let reason = profile.editNumberUnavailable, profile.focus == .edit {
      body.spacer()
      body.add(
        TextBlock.rows(reason, column: metrics.labelColumn, width: metrics.width, style: .hint))
    }
    if let confirmation = profile.confirmation {
      body.spacer()
      body.addPinned(
        TextBlock.rows(
          confirmation, column: metrics.labelColumn, width: metrics.width, style: .success))
    }
    if let dialog = profile.dialog {
      body.spacer()
      EditNumberDialogView.add(dialog, spinnerFrame: spinnerFrame, metrics: metrics, to: &body)
    }
    return body
  }

  /// The picture (an identicon from the Gravatar hash) beside the person's details.
  private static func details(_ session: Session, metrics: Metrics, into body: inout Body) {
    let person = session.profile
    var lines: [(String, String)] = []
    if let name = person.fullName { lines.append(("Name", name)) }
    lines += [
      ("Email", person.email), ("Gender", person.gender.title),
      ("Mobile", MobileNumber.display(person.mobile)),
    ]
    let picture = Identicon.rows(hash: session.gravatarHash)
    let pictureWidth = Identicon.width
    let beside = metrics.width >= metrics.labelColumn + pictureWidth + 3 + 30
    let textColumn = beside ? metrics.labelColumn + pictureWidth + 3 : metrics.labelColumn
    let labelWidth = 8
    let detailRows = lines.map { label, value in
      Row(segments: [
        Segment(column: textColumn, text: label, style: .label),
        Segment(
          column: textColumn + labelWidth,
          text: TextBlock.truncated(value, width: metrics.width - textColumn - labelWidth),
          style: .normal),
      ])
    }
    if beside {
      let offset = 1
      for index in 0..<max(picture.count, detailRows.count + offset) {
        var row = Row()
        if index < picture.count {
          row.segments += picture[index].shifted(by: metrics.labelColumn).segments
        }
        let detailIndex = index - offset
        if detailIndex >= 0, detailIndex < detailRows.count {
          row.segments += detailRows[detailIndex].segments
        }
        body.add(row)
      }
    } else {
      picture.forEach { body.add($0.shifted(by: metrics.labelColumn)) }
      detailRows.forEach { body.add($0) }
    }
    body.addOptional(
      TextBlock.rows(
        Identicon.gravatarURL(hash: session.gravatarHash), column: metrics.labelColumn,
        width: metrics.width, style: .hint))
  }
}

extension Row {
  func shifted(by columns: Int) -> Row {
    var copy = self
    copy.segments = segments.map {
      Segment(column: $0.column + columns, text: $0.text, style: $0.style)
    }
    // The focus stops move with their text, so clicks still land on them.
    copy.zones = zones.map {
      var zone = $0
      zone.columns = ($0.columns.lowerBound + columns)..<($0.columns.upperBound + columns)
      return zone
    }
    return copy
  }
}

enum EditNumberDialogView {
  static func add(
    _ dialog: EditNumberDialog, spinnerFrame: Int, metrics: Metrics, to body: inout Body
  ) {
    body.add(Row("Edit mobile number", column: metrics.labelColumn, style: .heading))
    body.add(
      TextFieldView.rows(
        label: "Mobile", input: dialog.mobile, masked: false,
        validity: dialog.validity(of: .mobile), focused: dialog.focus == .mobile,
        readOnly: dialog.phase.isRunning, metrics: metrics),
      focused: dialog.focus == .mobile)
    body.add(
      ButtonRow.submitAndCancel(
        dialog.phase, rest: "Save", submitFocused: dialog.focus == .save,
        cancelFocused: dialog.focus == .cancel, disabled: dialog.problem != nil,
        spinnerFrame: spinnerFrame, running: "Saving…", metrics: metrics),
      focused: dialog.focus != .mobile)
    if let message = dialog.phase.message {
      body.addPinned(
        TextBlock.rows(message, column: metrics.labelColumn, width: metrics.width, style: .error))
    }
  }
}
