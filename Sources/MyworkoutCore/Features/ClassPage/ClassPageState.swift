/// A class opened from the list: its title as the heading and its details (SPEC §11). The
/// player (SPEC §12) takes this place.
package struct ClassPageState: Equatable, Sendable {
  package var danceClass: DanceClass
  /// How much the person watched (blank when never opened).
  package var watched: Int?

  package init(danceClass: DanceClass, watched: Int? = nil) {
    self.danceClass = danceClass
    self.watched = watched
  }
}
