/// The rows every screen's frame takes around its content (SPEC §10): the header line of
/// signed-in screens and the footer of keys. The renderer lays screens out with these, and a
/// screen that sizes work for its content area (the Player's picture) asks the same.
package enum Chrome {
  /// The header line: on signed-in screens, from 8 rows.
  package static func headerRows(signedIn: Bool, height: Int) -> Int {
    signedIn && height >= 8 ? 1 : 0
  }

  /// The footer: from 3 rows.
  package static func footerRows(height: Int) -> Int { height >= 3 ? 1 : 0 }
}
