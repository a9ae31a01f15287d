import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The bodies that carry the core's values, both ways: the server answers with them, remote
// mode reads them and keeps them for offline use.

extension ProgressDTO {
  package init(_ progress: ClassProgress) {
    self.init(
      lastPosition: progress.lastPosition,
      watched: progress.watched.ranges.map { [$0.lowerBound, $0.upperBound] },
      timeInClass: progress.timeInClass)
  }

  /// The progress it carries (pairs that are not `[start, end]` with start < end left out).
  package var progress: ClassProgress {
    ClassProgress(
      lastPosition: lastPosition,
      watched: IntervalSet(
        watched.compactMap { $0.count == 2 && $0[0] < $0[1] ? $0[0]..<$0[1] : nil }),
      timeInClass: timeInClass)
  }
}

extension CompletionDTO {
  /// Times in whole seconds since 1970, as stored.
  package init(_ event: LessonCompletion) {
    self.init(
      lessonID: event.lessonID, round: event.round,
      started: Int64(event.started.timeIntervalSince1970.rounded(.down)),
      completed: Int64(event.completed.timeIntervalSince1970.rounded(.down)))
  }

  package var completion: LessonCompletion {
    LessonCompletion(
      lessonID: lessonID, round: round, started: Date(timeIntervalSince1970: Double(started)),
      completed: Date(timeIntervalSince1970: Double(completed)))
  }
}
