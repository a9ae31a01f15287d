import MyworkoutCore

enum GetStartedView {
  static func body(_ form: GetStartedForm, spinnerFrame: Int, metrics: Metrics) -> Body {
    var body = head(metrics)
    body.add(
      TextFieldView.rows(
        label: "Email", input: form.email, masked: false, validity: form.validity(of: .email),
        focused: form.focus == .email, readOnly: form.phase.isRunning, metrics: metrics),
      focused: form.focus == .email)
    body.spacer()
    body.add(
      ButtonRow.rows(
        [
          Button(
            title: form.phase.buttonTitle(rest: "Next"), focused: form.focus == .next,
            disabled: form.problem != nil)
        ],
        spinner: form.phase.isRunning ? (spinnerFrame, "Checking your email…") : nil,
        metrics: metrics),
      focused: form.focus == .next)
    FormMessage.add(form.phase, to: &body, metrics: metrics)
    body.spacer()
    body.add(
      ButtonRow.rows(
        [
          Button(
            title: "Browse classes", focused: form.focus == .browseClasses,
            disabled: form.phase.isRunning)
        ], spinner: nil, metrics: metrics),
      focused: form.focus == .browseClasses)
    return body
  }
}

extension GetStartedView {
  /// The rows above the field (the logo, the title and the hint), which are the same on every
  /// key: made once for each width.
  static func head(_ metrics: Metrics) -> Body {
    heads.value(for: metrics.width) { makingHead(metrics) }
  }

  static let heads = Remembered<Int, Body>(limit: 16)

  /// `head`, made anew.
  static func makingHead(_ metrics: Metrics) -> Body {
    var body = Body()
    body.addOptional(
      AssetArt.logoLines.map {
        TextBlock.centered($0.text, width: metrics.width, columns: $0.columns, style: .heading)
      })
    body.add(TextBlock.centered("Myworkout GO", width: metrics.width, style: .heading))
    body.spacer()
    body.addOptional(
      TextBlock.rows(
        "Enter your email to log in or create an account.", column: metrics.labelColumn,
        width: metrics.width, style: .hint))
    body.spacer()
    return body
  }
}

/// The error label under a form's buttons.
enum FormMessage {
  static func add(_ phase: RequestPhase, to body: inout Body, metrics: Metrics) {
    guard let message = phase.message else { return }
    body.spacer()
    body.addPinned(
      TextBlock.rows(message, column: metrics.labelColumn, width: metrics.width, style: .error))
  }
}
