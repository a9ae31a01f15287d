import MyworkoutCore

/// What `SessionStore.load(now:)` found, and a one-line notice for the user when a damaged file
/// had to be moved aside.
package struct SessionLoad: Equatable, Sendable {
  package var restored: RestoredSession
  package var notice: String?

  package init(restored: RestoredSession, notice: String? = nil) {
    self.restored = restored
    self.notice = notice
  }
}
