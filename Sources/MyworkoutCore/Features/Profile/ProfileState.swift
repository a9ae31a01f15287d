/// Profile (`Profile`): the signed-in person, `Edit number` and `Log out`. The session itself
/// belongs to the signed-in root, which every signed-in screen shares.
package struct ProfileState: Equatable, Sendable {
  package enum Focus: FocusStop {
    case edit, logOut, classes, lessons, images
    package var kind: ControlKind { .button }
  }

  package var focus: Focus = .edit
  /// The Edit-number dialog, when open.
  package var dialog: EditNumberDialog?
  /// A confirmation shown under the details (`Number was edited successfully`).
  package var confirmation: String?
  /// Why Edit number cannot be used here (accounts on a real Auth0 tenant), or nil: the button
  /// is drawn dim and says so, and pressing it opens nothing.
  package var editNumberUnavailable: String?

  package init() {}

  /// The request running on this screen, if any.
  var running: Set<EffectID> { dialog?.phase.isRunning == true ? [.editNumber] : [] }
}
