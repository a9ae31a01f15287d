/// A dance class's level (SPEC §11): one of three, written in any case in a classes file.
package enum ClassLevel: String, CaseIterable, Sendable, Hashable, Codable {
  case beginner
  case intermediate
  case advanced

  /// The level named by `text`, ignoring case and surrounding white space; nil for anything else.
  package init?(parsing text: some StringProtocol) {
    let name = String(text).trimmingWhitespace().lowercased()
    guard let level = ClassLevel(rawValue: name) else { return nil }
    self = level
  }

  /// The level as shown on screen, e.g. `Beginner`.
  package var title: String {
    switch self {
    case .beginner: "Beginner"
    case .intermediate: "Intermediate"
    case .advanced: "Advanced"
    }
  }
}
