#if canImport(Glibc)
  import Glibc
#endif

/// Times repeated calls and reports percentiles in milliseconds.
enum Timing {
  /// User and system CPU time of this process so far.
  static func processorSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  static let clock = ContinuousClock()

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000
      + Double(duration.components.attoseconds) / 1e15
  }

  static func seconds(_ duration: Duration) -> Double { milliseconds(duration) / 1000 }

  /// The `fraction` percentile (nearest rank) of `values`.
  static func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  /// `value` with three decimals.
  static func text(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
