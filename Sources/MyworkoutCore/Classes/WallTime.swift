/// A reading of the wall clock, in milliseconds since 1970-01-01T00:00:00Z. The reducer never
/// reads a clock: the runtime reads it and sends it in (`Action.clockRead`), and tests state it.
package struct WallTime: Hashable, Comparable, Sendable {
  package var milliseconds: Int64

  package init(milliseconds: Int64) { self.milliseconds = milliseconds }

  package static func < (lhs: WallTime, rhs: WallTime) -> Bool {
    lhs.milliseconds < rhs.milliseconds
  }

  /// Milliseconds from `earlier` to this reading (negative when the clock was set back).
  package func milliseconds(since earlier: WallTime) -> Int {
    Int(milliseconds - earlier.milliseconds)
  }
}
