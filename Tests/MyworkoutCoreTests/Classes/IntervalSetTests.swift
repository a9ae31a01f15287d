import TestProcesses
import Testing

@testable import MyworkoutCore

/// Watched % as the union of played intervals: the brief's three cases, exactly.
@Suite struct IntervalSetTests {
  /// A 10:00 class, in milliseconds.
  let duration = 600_000

  func percent(_ ranges: [Range<Int>]) -> Int {
    IntervalSet(ranges).watchedPercent(duration: duration)
  }

  @Test func replayingTheFirstTenPercentStaysTenPercent() {
    var set = IntervalSet()
    for _ in 0..<5 { set.insert(0..<60_000) }
    #expect(set.watchedPercent(duration: duration) == 10)
    #expect(set.ranges == [0..<60_000])
  }

  @Test func seekingBackIntoWhatWasPlayedCountsItOnce() {
    // 0–15 %, seek to 10 %, play to 25 %.
    #expect(percent([0..<90_000, 60_000..<150_000]) == 25)
  }

  @Test func firstAndLastTenPercentMakeTwenty() {
    #expect(percent([0..<60_000, 540_000..<600_000]) == 20)
  }

  @Test func roundsDownAndIgnoresWhatLiesOutsideTheClass() {
    #expect(percent([0..<5_999]) == 0)
    #expect(percent([0..<6_000]) == 1)
    #expect(percent([-5_000..<0, 590_000..<700_000]) == 1)
    #expect(IntervalSet([0..<10]).watchedPercent(duration: 0) == 0)
    #expect(IntervalSet([-10 ..< -1, 5..<5]).isEmpty)
  }

  @Test func mergesOverlappingAndTouchingRangesOnly() {
    let set = IntervalSet([30..<40, 0..<10, 10..<20, 35..<50, 21..<25])
    #expect(set.ranges == [0..<20, 21..<25, 30..<50])
    #expect(set.length(within: 45) == 20 + 4 + 15)
  }

  @Test func encodesAndDecodesItsCanonicalFormOnly() {
    let set = IntervalSet([0..<90_000, 120_000..<150_000])
    #expect(set.encoded == "0-90000,120000-150000")
    #expect(IntervalSet(encoded: set.encoded) == set)
    #expect(IntervalSet(encoded: "") == IntervalSet())
    for damaged in [
      "x", "0-", "-5", "5-5", "9-3", "0-10,10-20", "20-30,0-10", "0-10,", "01-5", "+1-5",
      "0-10;20-30", "0-99999999999999999999", "0-10,5-20",
    ] {
      #expect(IntervalSet(encoded: damaged) == nil, "\(damaged)")
    }
  }
}

/// Properties of the interval set over many random sets (a fixed seed, so failures repeat).
@Suite struct IntervalSetPropertyTests {
  /// A small domain, so that a brute-force count of covered points can check every length.
  static let domain = 200
  static let rounds = 500

  func randomRanges(_ generator: inout SplitMix64) -> [Range<Int>] {
    (0..<Int.random(in: 0...8, using: &generator)).map { _ in
      let lower = Int.random(in: -20...Self.domain, using: &generator)
      return lower..<(lower + Int.random(in: 0...40, using: &generator))
    }
  }

  /// Every point of `0..<duration` that some range covers.
  func covered(_ ranges: [Range<Int>], duration: Int) -> Int {
    (0..<duration).count { point in ranges.contains { $0.contains(point) } }
  }

  @Test func unionIsIdempotentAndOrderIndependent() {
    var generator = SplitMix64(seed: 11)
    for _ in 0..<Self.rounds {
      let a = randomRanges(&generator)
      let b = randomRanges(&generator)
      let setA = IntervalSet(a)
      let setB = IntervalSet(b)
      #expect(setA.union(setA) == setA)
      #expect(setA.union(setB) == setB.union(setA))
      #expect(IntervalSet(a.shuffled(using: &generator)) == setA)
      #expect(IntervalSet(a + b) == setA.union(setB))
    }
  }

  @Test func lengthIsTheCoveredPointsAndNeverExceedsTheDuration() {
    var generator = SplitMix64(seed: 12)
    for _ in 0..<Self.rounds {
      let ranges = randomRanges(&generator)
      let duration = Int.random(in: 1...Self.domain, using: &generator)
      let set = IntervalSet(ranges)
      let expected = covered(ranges, duration: duration)
      #expect(set.length(within: duration) == expected, "\(ranges) within \(duration)")
      #expect(set.length(within: duration) <= duration)
      #expect(set.watchedPercent(duration: duration) == expected * 100 / duration)
      #expect((0...100).contains(set.watchedPercent(duration: duration)))
    }
  }

  @Test func staysCanonicalAndMergesAdjacentRanges() {
    var generator = SplitMix64(seed: 13)
    for _ in 0..<Self.rounds {
      let set = IntervalSet(randomRanges(&generator))
      #expect(set.ranges.allSatisfy { !$0.isEmpty && $0.lowerBound >= 0 })
      #expect(zip(set.ranges, set.ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
      #expect(IntervalSet(encoded: set.encoded) == set)

      // Cutting a range into touching pieces, inserted in any order, gives the range back.
      let lower = Int.random(in: 0...Self.domain, using: &generator)
      let cuts = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
        Int.random(in: 1...30, using: &generator)
      }
      var bounds = [lower]
      for cut in cuts { bounds.append(bounds.last! + cut) }
      let pieces = zip(bounds, bounds.dropFirst()).map { $0..<$1 }
      #expect(IntervalSet(pieces.shuffled(using: &generator)).ranges == [lower..<bounds.last!])
    }
  }
}

/// Issue 28: building a set from many intervals and uniting two sets are done in one pass;
/// a seeded property test holds them to the one-insert-at-a-time definition.
@Suite struct IntervalSetMergeTests {
  static func byInserts(_ ranges: [Range<Int>]) -> IntervalSet {
    var set = IntervalSet()
    for range in ranges { set.insert(range) }
    return set
  }

  @Test func oneMergeEqualsInsertingOneAtATime() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    for _ in 0..<500 {
      func ranges() -> [Range<Int>] {
        (0..<Int.random(in: 0..<40, using: &random)).map { _ in
          let start = Int.random(in: -20..<280, using: &random)
          return start..<(start + Int.random(in: 0..<30, using: &random))
        }
      }
      let (a, b) = (ranges(), ranges())
      #expect(IntervalSet(a) == Self.byInserts(a), "seed \(seed): \(a)")
      var united = IntervalSet(a)
      united.formUnion(IntervalSet(b))
      #expect(united == Self.byInserts(a + b), "seed \(seed): \(a) ∪ \(b)")
    }
  }
}
