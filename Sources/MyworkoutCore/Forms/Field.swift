/// What kind of control a focus stop is; it decides what keys do there.
package enum ControlKind: Hashable, Sendable {
  case text
  case secureText
  case picker
  case button
}

/// The validation colour of a field: neutral while untouched, then invalid or valid.
package enum FieldValidity: Equatable, Sendable {
  case neutral
  case invalid
  case valid
}

/// A screen's focus stops, in screen order. Tab and Down go forward, Shift-Tab and Up back,
/// wrapping at the ends.
package protocol FocusStop: CaseIterable, Equatable, Sendable where AllCases == [Self] {
  var kind: ControlKind { get }
}

extension FocusStop {
  package func moved(_ direction: FocusDirection) -> Self {
    let all = Self.allCases
    guard let index = all.firstIndex(of: self) else { return self }
    switch direction {
    case .forward: return all[(index + 1) % all.count]
    case .backward: return all[(index + all.count - 1) % all.count]
    }
  }

  /// The stop after this one, if it is a field (text or picker): where Enter moves.
  var nextField: Self? {
    let all = Self.allCases
    guard let index = all.firstIndex(of: self), index + 1 < all.count else { return nil }
    let next = all[index + 1]
    return next.kind == .button ? nil : next
  }
}

package enum FocusDirection: Equatable, Sendable {
  case forward
  case backward
}

/// What every form shares: focus stops, text fields behind some of them, and a request phase.
/// The shared reducer (`FormEditing`) handles focus, editing, paste and reveal once for all forms.
package protocol FormState: Equatable, Sendable {
  associatedtype Focus: FocusStop
  var focus: Focus { get set }
  var phase: RequestPhase { get set }
  /// The text field behind a focus stop, or nil for pickers and buttons.
  subscript(field focus: Focus) -> TextInput? { get set }
}

extension FormState {
  /// The first text field that is empty, else the first stop: where a screen opens its focus.
  static func firstEmptyStop(in form: Self) -> Focus {
    Focus.allCases.first { stop in
      guard stop.kind != .button else { return false }
      return form[field: stop]?.isEmpty ?? true
    } ?? Focus.allCases[0]
  }
}
