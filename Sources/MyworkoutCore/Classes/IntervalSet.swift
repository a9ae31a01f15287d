/// The parts of a class's media time that were actually played (SPEC §12), in milliseconds:
/// sorted, disjoint half-open ranges, with overlapping and touching ranges merged, so the set
/// stays as small as the distinct parts played however often a part is replayed.
package struct IntervalSet: Sendable, Hashable {
  /// Sorted; each non-empty and at or after 0; a gap between any two.
  package private(set) var ranges: [Range<Int>]

  package init() { ranges = [] }

  /// The union of `ranges` (in any order, overlapping or not): sorted once, then merged in one
  /// pass (a save of 10,000 intervals costs a sort, not 10,000 inserts).
  package init(_ ranges: some Sequence<Range<Int>>) {
    let sorted = ranges.compactMap { range -> Range<Int>? in
      guard range.upperBound > 0, !range.isEmpty else { return nil }
      return max(0, range.lowerBound)..<range.upperBound
    }.sorted { $0.lowerBound < $1.lowerBound }
    self.ranges = Self.merged(sorted)
  }

  /// Sorted ranges (by start) with overlapping and touching ones merged.
  private static func merged(_ sorted: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    result.reserveCapacity(sorted.count)
    for range in sorted {
      if let last = result.last, range.lowerBound <= last.upperBound {
        result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        result.append(range)
      }
    }
    return result
  }

  /// Adds `range`, merging it with every range it overlaps or touches. The part before 0 and an
  /// empty range add nothing.
  package mutating func insert(_ range: Range<Int>) {
    guard range.upperBound > 0, !range.isEmpty else { return }
    var lower = max(0, range.lowerBound)
    var upper = range.upperBound
    // The first range that ends at or after the new start: it touches or follows the new one.
    let first = ranges.firstIndex { $0.upperBound >= lower } ?? ranges.endIndex
    var end = first
    while end < ranges.endIndex, ranges[end].lowerBound <= upper {
      lower = min(lower, ranges[end].lowerBound)
      upper = max(upper, ranges[end].upperBound)
      end += 1
    }
    ranges.replaceSubrange(first..<end, with: [lower..<upper])
  }

  /// In one pass over both (each is sorted already): a save adds its intervals to what is
  /// stored in time that grows with their sum, never with their product.
  package mutating func formUnion(_ other: IntervalSet) {
    guard !other.ranges.isEmpty else { return }
    guard !ranges.isEmpty else {
      ranges = other.ranges
      return
    }
    if other.ranges.count == 1 {
      insert(other.ranges[0])
      return
    }
    var both: [Range<Int>] = []
    both.reserveCapacity(ranges.count + other.ranges.count)
    var mine = 0
    var theirs = 0
    while mine < ranges.count || theirs < other.ranges.count {
      if theirs == other.ranges.count
        || (mine < ranges.count && ranges[mine].lowerBound <= other.ranges[theirs].lowerBound)
      {
        both.append(ranges[mine])
        mine += 1
      } else {
        both.append(other.ranges[theirs])
        theirs += 1
      }
    }
    ranges = Self.merged(both)
  }

  package func union(_ other: IntervalSet) -> IntervalSet {
    var result = self
    result.formUnion(other)
    return result
  }

  package var isEmpty: Bool { ranges.isEmpty }

  /// How much of `0..<duration` the set covers.
  package func length(within duration: Int) -> Int {
    ranges.reduce(0) { sum, range in
      sum + max(0, min(range.upperBound, duration) - range.lowerBound)
    }
  }

  /// The share of `0..<duration` played, in whole percent rounded down (0 for no duration).
  package func watchedPercent(duration: Int) -> Int {
    guard duration > 0 else { return 0 }
    return length(within: duration) * 100 / duration
  }
}

extension IntervalSet {
  /// The stored form: `start-end` pairs joined by commas, e.g. `0-90000,120000-150000`; empty
  /// for the empty set.
  package var encoded: String {
    ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
  }

  /// Reads `encoded`'s form back; nil unless it is exactly what `encoded` would write (sorted,
  /// disjoint, not touching, non-negative, non-empty ranges), so damage is never half-read.
  package init?(encoded text: String) {
    var ranges: [Range<Int>] = []
    if !text.isEmpty {
      for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
        let bounds = pair.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let lower = Self.number(bounds[0]),
          let upper = Self.number(bounds[1]), lower < upper,
          ranges.last.map({ $0.upperBound < lower }) ?? true
        else { return nil }
        ranges.append(lower..<upper)
      }
    }
    self.ranges = ranges
  }

  /// What can be read of a damaged `encoded` text: every pair that is well formed (a number,
  /// `-`, a larger number), united; the rest is left out.
  package init(salvaging text: String) {
    var set = IntervalSet()
    for pair in text.split(separator: ",") {
      let bounds = pair.split(separator: "-", omittingEmptySubsequences: false)
      guard bounds.count == 2, let lower = Self.number(bounds[0]),
        let upper = Self.number(bounds[1]), lower < upper
      else { continue }
      set.formUnion(IntervalSet([lower..<upper]))
    }
    self = set
  }

  /// A non-negative decimal number without sign or padding.
  private static func number(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }),
      text == "0" || !text.hasPrefix("0"),
      let value = Int(text), value >= 0
    else { return nil }
    return value
  }
}
