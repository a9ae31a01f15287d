extension SearchText {
  /// The parts of `text` that the query's `terms` match, as ranges of `text`'s characters,
  /// sorted and merged: what the list highlights (SPEC §11). A term that matches part of a
  /// character's folded form (one `s` of `ß`) highlights the whole character.
  package static func highlights(of terms: [String], in text: String) -> [Range<String.Index>] {
    var folded: [Unicode.Scalar] = []
    var owners: [String.Index] = []  // for each folded scalar, the character it came from
    for index in text.indices {
      for scalar in fold(text[index]).unicodeScalars {
        folded.append(scalar)
        owners.append(index)
      }
    }
    var covered = Array(repeating: false, count: folded.count)
    for term in terms {
      let needle = Array(term.unicodeScalars)
      guard !needle.isEmpty, needle.count <= folded.count else { continue }
      for start in 0...(folded.count - needle.count)
      where folded[start..<start + needle.count].elementsEqual(needle) {
        for offset in start..<start + needle.count { covered[offset] = true }
      }
    }
    var ranges: [Range<String.Index>] = []
    for (offset, isCovered) in covered.enumerated() where isCovered {
      let lower = owners[offset]
      let upper = text.index(after: lower)
      if let last = ranges.last, last.upperBound >= lower {
        ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, upper)
      } else {
        ranges.append(lower..<upper)
      }
    }
    return ranges
  }
}
