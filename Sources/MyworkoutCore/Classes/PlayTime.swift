/// Times on the Classes and Player screens (SPEC §12): `01:05`, or `1:01:05` when the class is
/// an hour or longer. Whole seconds, rounded down by the caller.
package enum PlayTime {
  package static func text(seconds: Int, hours: Bool) -> String {
    let total = max(0, seconds)
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
    let mm = hours ? two(m) : two(total / 60)
    return hours ? "\(h):\(mm):\(two(s))" : "\(mm):\(two(s))"
  }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
