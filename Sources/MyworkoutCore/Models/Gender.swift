/// The gender picker's choices, in the order the picker steps through them.
package enum Gender: String, CaseIterable, Codable, Sendable {
  case female
  case male
  case nonBinary = "non-binary"
  case preferNotToSay = "prefer-not-to-say"

  package var title: String {
    switch self {
    case .female: "Female"
    case .male: "Male"
    case .nonBinary: "Non-binary"
    case .preferNotToSay: "Prefer not to say"
    }
  }
}
