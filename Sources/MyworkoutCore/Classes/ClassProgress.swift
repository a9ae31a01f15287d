/// What one person did with one class (SPEC §12): where they left off, what they played, and
/// how long they had the player open. Times are in milliseconds.
package struct ClassProgress: Sendable, Hashable {
  /// Media time where the person left off.
  package var lastPosition: Int
  /// Media time actually played, merged.
  package var watched: IntervalSet
  /// Wall time with the player open, playing or paused, summed over visits.
  package var timeInClass: Int

  package init(lastPosition: Int = 0, watched: IntervalSet = IntervalSet(), timeInClass: Int = 0) {
    self.lastPosition = lastPosition
    self.watched = watched
    self.timeInClass = timeInClass
  }

  /// Watched % of `danceClass`, rounded down.
  package func watchedPercent(of danceClass: DanceClass) -> Int {
    watched.watchedPercent(duration: danceClass.durationMilliseconds)
  }
}
