import MyworkoutCore

/// What `SessionStore.load(now:)` found, and a one-line notice for the user when a damaged file
/// had to be moved aside.
public struct SessionLoad: Equatable, Sendable {
  public var restored: RestoredSession
  public var notice: String?

  public init(restored: RestoredSession, notice: String? = nil) {
    self.restored = restored
    self.notice = notice
  }
}
