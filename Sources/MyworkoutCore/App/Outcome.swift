/// What a feature's reducer hands back: effects to carry out, and at most one thing to tell its
/// parent (a delegate action: "signed in", "cancelled", "log out asked for"). Children report;
/// parents navigate.
struct Outcome<Delegate: Equatable & Sendable>: Equatable, Sendable {
  var effects: [Effect] = []
  var delegate: Delegate?

  static var none: Self { Self() }
  static func effects(_ effects: [Effect]) -> Self { Self(effects: effects) }
  static func delegate(_ delegate: Delegate) -> Self { Self(delegate: delegate) }
}
