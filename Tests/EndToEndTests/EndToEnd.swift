import Foundation
import Testing

/// Every end-to-end suite nests here, so that they run one test at a time: each test drives a
/// real binary in a real terminal and waits for real seconds (the service's latency), and many at
/// once on a small machine would only measure the machine.
@Suite(.serialized) enum EndToEnd {
  /// Whether the briefs' files (`../shared/data`) are beside the repository: a clone without
  /// them skips the tests that read them, and says why.
  static let sharedDataPresent = FileManager.default.fileExists(
    atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("../shared/data").standardized.path)
  static let sharedDataMissing: Comment =
    "needs the briefs' files in ../shared/data beside the repository"
}
