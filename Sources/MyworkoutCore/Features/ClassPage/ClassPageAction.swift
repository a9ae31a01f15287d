/// What happens on a class's page.
package enum ClassPageAction: Equatable, Sendable {
  /// Esc, `q` or Backspace: back to Classes as it was.
  case backPressed
}
