import MyworkoutCore
import TestProcesses
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

func makeProgressStore(_ directory: DataDirectory, notices: NoticeLog = NoticeLog())
  -> ProgressStore
{
  ProgressStore(directory: directory, now: { fixedNow }, onNotice: notices.handler)
}

/// A 10:00 class for the watched % cases.
let tenMinuteClass = DanceClass(
  id: "c1", title: "T", instructor: "I", level: .beginner, song: "S", videoURL: "u",
  thumbnailSlug: "t", duration: 600)

/// Watch progress per account and class (SPEC §12).
@Suite struct ProgressStoreTests {
  @Test func recordsMergeIntervalsAddTimeAndReplaceThePosition() async throws {
    try await withDataDirectory { directory throws in
      let store = makeProgressStore(directory)
      // 0–15 %, then seek to 10 % and play to 25 %.
      try await store.record(
        ProgressUpdate(
          account: "a1", classID: "c1", position: 90_000, played: IntervalSet([0..<90_000]),
          addedTimeInClass: 95_000))
      let merged = try await store.record(
        ProgressUpdate(
          account: "a1", classID: "c1", position: 150_000,
          played: IntervalSet([60_000..<150_000]), addedTimeInClass: 91_000))
      #expect(merged.watched.ranges == [0..<150_000])
      #expect(merged.lastPosition == 150_000)
      #expect(merged.timeInClass == 186_000)
      #expect(merged.watchedPercent(of: tenMinuteClass) == 25)
      // A new store (a relaunch) reads the same.
      #expect(
        try await makeProgressStore(directory).progress(account: "a1", classID: "c1") == merged)
      #expect(try await store.progress(account: "a2", classID: "c1") == ClassProgress())
      #expect(permissions(directory.progressPath) == 0o600)
    }
  }

  @Test func replayingKeepsOneMergedIntervalNotALog() async throws {
    try await withDataDirectory { directory throws in
      let store = makeProgressStore(directory)
      for _ in 0..<50 {
        try await store.record(
          ProgressUpdate(
            account: "a1", classID: "c1", position: 60_000, played: IntervalSet([0..<60_000])))
      }
      let stored = try SQLiteDatabase(path: directory.progressPath).scalar(
        "SELECT watched FROM class_progress")
      #expect(stored == .text("0-60000"))
      #expect(
        try await store.watchedPercents(account: "a1", classes: [tenMinuteClass]) == ["c1": 10])
    }
  }

  @Test func watchedPercentsForAListOfClasses() async throws {
    try await withDataDirectory { directory throws in
      let store = makeProgressStore(directory)
      let classes = (1...5).map { n in
        DanceClass(
          id: "c\(n)", title: "T\(n)", instructor: "I", level: .beginner, song: "S",
          videoURL: "u", thumbnailSlug: "t", duration: 100 * n)
      }
      // First and last 10 % of c2 (200 s); 99.9 % of c1 rounds down; c5 opened, nothing played.
      try await store.record(
        ProgressUpdate(
          account: "a1", classID: "c2", position: 0,
          played: IntervalSet([0..<20_000, 180_000..<200_000])))
      try await store.record(
        ProgressUpdate(account: "a1", classID: "c1", position: 0, played: IntervalSet([0..<99_900]))
      )
      try await store.record(ProgressUpdate(account: "a1", classID: "c5", position: 1_000))
      try await store.record(
        ProgressUpdate(
          account: "a1", classID: "elsewhere", position: 0, played: IntervalSet([0..<5])))
      try await store.record(
        ProgressUpdate(
          account: "a2", classID: "c3", position: 0, played: IntervalSet([0..<300_000])))
      let percents = try await store.watchedPercents(account: "a1", classes: classes)
      #expect(percents == ["c1": 99, "c2": 20, "c5": 0])
    }
  }

  /// SPEC §7 and §11 (user data, never rebuilt away): a row with one damaged value keeps the
  /// values that can be read, and its stored values are put aside in the file. A walk-through's
  /// bad `watched` deleted the row, its position and an hour of time in class with it.
  @Test func aDamagedRowKeepsWhatCanBeReadAndPutsTheRestAside() async throws {
    try await withDataDirectory { directory throws in
      let notices = NoticeLog()
      let store = makeProgressStore(directory, notices: notices)
      try await store.record(
        ProgressUpdate(
          account: "a1", classID: "c1", position: 5_307, played: IntervalSet([0..<100]),
          addedTimeInClass: 3_725_000))
      try await store.record(
        ProgressUpdate(account: "a1", classID: "c2", position: 5, addedTimeInClass: 9))
      let raw = try SQLiteDatabase(path: directory.progressPath)
      try raw.execute(
        "UPDATE class_progress SET watched = '0-100,x,200-300,9-3' WHERE class = 'c1'")
      try raw.execute("UPDATE class_progress SET time_in_class = -4 WHERE class = 'c2'")
      let kept = ClassProgress(
        lastPosition: 5_307, watched: IntervalSet([0..<100, 200..<300]), timeInClass: 3_725_000)
      #expect(try await store.progress(account: "a1", classID: "c1") == kept)
      #expect(notices.all == [ProgressStore.damagedClassNotice])
      // Mended in the file: read again without a notice; the stored values are kept aside.
      #expect(try await store.progress(account: "a1", classID: "c1") == kept)
      #expect(notices.all.count == 1)
      #expect(
        try raw.scalar("SELECT watched FROM class_progress_damaged WHERE class = 'c1'")
          == .text("0-100,x,200-300,9-3"))
      // 200 ms of 10:00, rounded down.
      #expect(
        try await store.watchedPercents(account: "a1", classes: [tenMinuteClass]) == ["c1": 0])
      // Recording over a damaged row keeps what can be read of it too.
      let merged = try await store.record(
        ProgressUpdate(account: "a1", classID: "c2", position: 7, addedTimeInClass: 3))
      #expect(merged == ClassProgress(lastPosition: 7, timeInClass: 3))
      #expect(notices.all.count == 2)
      #expect(
        try raw.scalar("SELECT time_in_class FROM class_progress_damaged WHERE class = 'c2'")
          == .integer(-4))
      #expect(try raw.scalar("SELECT count(*) FROM class_progress") == .integer(2))
    }
  }

  /// Values of another type than the column's (SQLite keeps what it is given: a REAL, a BLOB)
  /// are put aside as they are stored (a review: matched by their converted values, they were
  /// not copied, and the row was overwritten).
  @Test func valuesOfAnotherTypeArePutAsideAsStored() async throws {
    try await withDataDirectory { directory throws in
      let notices = NoticeLog()
      let store = makeProgressStore(directory, notices: notices)
      try await store.record(
        ProgressUpdate(account: "a1", classID: "c1", position: 5, addedTimeInClass: 9))
      let raw = try SQLiteDatabase(path: directory.progressPath)
      try raw.execute(
        "UPDATE class_progress SET position = -1.5, watched = X'00FF' WHERE class = 'c1'")
      #expect(
        try await store.progress(account: "a1", classID: "c1")
          == ClassProgress(lastPosition: 0, timeInClass: 9))
      #expect(
        try raw.scalar("SELECT typeof(position) || typeof(watched) FROM class_progress_damaged")
          == .text("realblob"))
      #expect(try await store.progress(account: "a1", classID: "c1").timeInClass == 9)
      #expect(notices.all.count == 1, "mended once")
    }
  }

  @Test(arguments: ["garbage", "directory", "unversioned"])
  func aDamagedFileIsMovedAsideNotRebuilt(kind: String) async throws {
    try await withDataDirectory { directory throws in
      let path = directory.progressPath
      var original: [UInt8]?
      switch kind {
      case "garbage":
        original = Array(repeating: 0x42, count: 5000)
        put(original!, at: path)
      case "directory": #expect(mkdir(path, 0o700) == 0)
      default:
        try SQLiteDatabase(path: path).execute("CREATE TABLE other(x)")
      }
      let notices = NoticeLog()
      let store = makeProgressStore(directory, notices: notices)
      try await store.record(ProgressUpdate(account: "a1", classID: "c1", position: 5))
      let moved = "progress.sqlite.corrupt-20261121T141500Z"
      #expect(
        notices.all == [
          "progress.sqlite could not be read; moved it aside to \(moved) and started a new one"
        ])
      if let original {
        #expect(contents(directory.path + "/" + moved).map { [UInt8]($0) } == original)
      }
      #expect(try await store.progress(account: "a1", classID: "c1").lastPosition == 5)
    }
  }

  /// A file a newer version wrote (a downgrade, or an older copy of the app beside a newer one)
  /// is not damage: it is refused, said, and left exactly as it is, so the newer version finds
  /// everything it kept. Moving it aside would have shown every account empty progress, and the
  /// newer version a new, empty file.
  @Test func aNewerVersionsFileIsRefusedAndLeftAlone() async throws {
    try await withDataDirectory { directory throws in
      let path = directory.progressPath
      let newer = ProgressDatabase.schemaVersion + 1
      try SQLiteDatabase(path: path).execute(
        "CREATE TABLE later(x); INSERT INTO later VALUES (42); PRAGMA user_version = \(newer)")
      let before = contents(path)
      let notices = NoticeLog()
      let store = makeProgressStore(directory, notices: notices)
      await #expect {
        try await store.record(ProgressUpdate(account: "a1", classID: "c1", position: 5))
      } throws: { error in
        "\(error)".contains("progress.sqlite was written by a newer version")
          && "\(error)".contains("nothing was changed")
      }
      await #expect(throws: ProgressError.self) {
        try await store.progress(account: "a1", classID: "c1")
      }
      #expect(notices.all.isEmpty)
      #expect(contents(path) == before)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
      #expect(try SQLiteDatabase(path: path).userVersion() == newer)
    }
  }

  /// A file the app could only read when it opened it (its mode, a read-only mount, an
  /// immutable flag) and that can be written again: the next save reopens it and goes in (a
  /// walk-through: after a `chmod` back, every save failed until the app was relaunched, and
  /// the relaunch lost what the failures had kept).
  @Test func aFileThatCanBeWrittenAgainTakesTheNextSave() async throws {
    try await withDataDirectory { directory throws in
      let path = directory.progressPath
      _ = try await makeProgressStore(directory).record(
        ProgressUpdate(account: "a1", classID: "c1", position: 5))
      // `chattr +i` keeps even root from writing (the tests run as root); it needs ext2/3/4.
      guard setImmutable(path, true) else { return }
      defer { _ = setImmutable(path, false) }
      let store = makeProgressStore(directory)
      #expect(try await store.progress(account: "a1", classID: "c1").lastPosition == 5)
      await #expect(throws: ProgressError.self) {
        try await store.record(ProgressUpdate(account: "a1", classID: "c1", position: 7))
      }
      #expect(setImmutable(path, false))
      let saved = try await store.record(ProgressUpdate(account: "a1", classID: "c1", position: 9))
      #expect(saved.lastPosition == 9)
    }
  }

  @Test func aCancelledCallerStillSaves() async throws {
    try await withDataDirectory { directory throws in
      let store = makeProgressStore(directory)
      let task = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await store.record(
          ProgressUpdate(account: "a1", classID: "c1", position: 9, played: IntervalSet([0..<9])))
      }
      #expect(try await task.value.lastPosition == 9)
      #expect(try await store.progress(account: "a1", classID: "c1").lastPosition == 9)
    }
  }
}
