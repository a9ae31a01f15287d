import Foundation
import TestProcesses
import Testing

@testable import MyworkoutCore

/// A seeded model test of what the app keeps of the Player's saves across visits (the Player's
/// unsaved time and intervals, its saves in flight, the failed saves kept for the next one, the
/// time each position was reached): random histories of a person opening two classes, playing,
/// seeking and leaving with the clock moving, against a runtime that carries out each class's
/// saves and reads in the order asked (classes in any order among them), gives up some reads
/// while their class's saves are on their way, and stamps each save with when it was made (as
/// `EffectRunner` does), and a store that keeps the most recent position and fails some saves
/// before applying them and some after (the answer lost), and some reads.
///
/// After every step the store holds nothing that was not played and no time twice. After each
/// history (quit, with every save then answered), it holds exactly what was played and the time
/// the Player was open, once, and each class resumes where the person last moved to in it.
///
/// `MYWORKOUT_MODEL_SEED` replays a seed (the failure message prints it and the history).
@Suite struct PlayerSavesModelTests {
  static let histories = 300
  static let steps = 60
  static let account = "auth0|ada"
  static let classes = [
    DanceClass(
      id: "c1", title: "One", instructor: "Ada", level: .beginner, song: "Song", videoURL: "",
      thumbnailSlug: "", duration: 100),
    DanceClass(
      id: "c2", title: "Two", instructor: "Ada", level: .beginner, song: "Song", videoURL: "",
      thumbnailSlug: "", duration: 100),
  ]

  /// The store: progress as the stores merge it (intervals united, time added, the position
  /// replaced when it is at least as recent as the stored one's).
  struct Store {
    var progress: [String: ClassProgress] = [:]
    var positionAt: [String: Int64] = [:]

    mutating func apply(_ update: ProgressUpdate, now: Int64) -> ClassProgress {
      var stored = progress[update.classID] ?? ClassProgress()
      let changedAt = update.changedAt ?? now
      if positionAt[update.classID].map({ changedAt >= $0 }) ?? true {
        stored.lastPosition = update.position
        positionAt[update.classID] = changedAt
      }
      stored.watched.formUnion(update.played)
      stored.addTime(update.addedTimeInClass)
      progress[update.classID] = stored
      return stored
    }
  }

  /// What the runtime carries out, one at a time, each class's in the order asked (as
  /// `EffectRunner` does: each save after the one before of its class, a class's progress read
  /// after its saves before it).
  enum Work {
    case save(ProgressUpdate)
    case load(String)
  }

  /// What the person did, as the store must end up holding it.
  struct Expected {
    var watched: [String: IntervalSet] = [:]
    var time: [String: Int] = [:]
    /// Where the person last moved to in a Player of the class whose progress was read.
    var position: [String: Int] = [:]
    /// Every position the person moved to in each class.
    var reached: [String: Set<Int>] = [:]
  }

  @Test func theStoreEndsWithExactlyWhatWasPlayed() {
    let seeds: [UInt64]
    if let replay = ProcessInfo.processInfo.environment["MYWORKOUT_MODEL_SEED"].flatMap({
      UInt64($0)
    }) {
      seeds = [replay]
    } else {
      var generator = SystemRandomNumberGenerator()
      let first = generator.next() % 1_000_000
      seeds = (0..<UInt64(Self.histories)).map { first + $0 }
    }
    for seed in seeds {
      guard Self.run(seed: seed) else { return }
    }
  }

  /// One history; false (with an issue recorded) when an invariant broke.
  static func run(seed: UInt64) -> Bool {
    var random = SplitMix64(seed: seed)
    var state = AppState.signedInSample
    var list = ClassesState()
    list.load = .loaded
    list.results = CatalogPage(
      query: "", offset: 0, classes: classes, matching: classes.count, isCapped: false,
      total: classes.count)
    state.signedIn.path = [.classes(list)]
    var store = Store()
    var expected = Expected()
    var work: [Work] = []
    var now = WallTime(milliseconds: 1_800_000_000_000)
    var log: [String] = []
    var answerMovedAway: String?

    func send(_ action: Action) {
      let player = playerOnTop(state)
      let effects = reduce(&state, action)
      // Time in class: wall time with the Player open (SPEC §12), its progress being read too.
      if case .clockRead(let read) = action, let player, player.clock != nil {
        let id = player.danceClass.id
        expected.time[id, default: 0] += read.milliseconds(since: player.clock ?? read)
        if player.playback == .playing, let after = playerOnTop(state),
          after.position > player.position
        {
          expected.watched[id, default: IntervalSet()].insert(player.position..<after.position)
        }
      }
      // Where the person moved to in a Player whose progress was read (by a key or the clock;
      // a save's answer may move the Player to where an earlier visit left it, which is where
      // the person was before, not a move).
      if let player, player.playback != .loading, !action.isProgressAnswer,
        let after = playerOnTop(state),
        after.danceClass == player.danceClass, after.position != player.position
      {
        expected.position[player.danceClass.id] = after.position
        expected.reached[player.danceClass.id, default: []].insert(after.position)
        log.append("  moved to \(after.position)")
      }
      // A save's answer moves a Player only to where the person was in that class.
      if let player, player.playback != .loading, action.isProgressAnswer,
        let after = playerOnTop(state), after.danceClass == player.danceClass,
        after.position != player.position, after.position != 0,
        !(expected.reached[player.danceClass.id] ?? []).contains(after.position)
      {
        answerMovedAway = "moved by an answer to \(after.position), never reached"
      }
      for effect in effects {
        switch effect {
        case .recordProgress(var update):
          // The runtime stamps a save with when it was made.
          update.changedAt = update.changedAt ?? now.milliseconds
          work.append(.save(update))
          log.append("  sent \(update.position) at \(update.changedAt ?? 0)")
        case .run(.progressLoad, .loadProgress(_, let classID)):
          // A new read supersedes the one before: its answer never arrives.
          work.removeAll {
            if case .load = $0 { return true }
            return false
          }
          work.append(.load(classID))
        default:
          break
        }
      }
    }

    func check(_ final: Bool) -> Bool {
      if let answerMovedAway {
        Issue.record(
          """
          seed \(seed) (replay with MYWORKOUT_MODEL_SEED=\(seed)): \(answerMovedAway)
          \(log.joined(separator: "\n"))
          """)
        return false
      }
      for danceClass in classes {
        let id = danceClass.id
        let stored = store.progress[id] ?? ClassProgress()
        let watched = expected.watched[id] ?? IntervalSet()
        let time = expected.time[id] ?? 0
        let fine =
          final
          ? stored.watched == watched && stored.timeInClass == time
            && resume(stored.lastPosition) == resume(expected.position[id, default: 0])
          : stored.watched.union(watched) == watched && stored.timeInClass <= time
        if !fine {
          Issue.record(
            """
            seed \(seed) (replay with MYWORKOUT_MODEL_SEED=\(seed)), \(final ? "at the end" : "")
            class \(id): stored \(stored), expected watched \(watched), time \(time), \
            position \(expected.position[id, default: 0])
            \(log.joined(separator: "\n"))
            """)
          return false
        }
      }
      return true
    }

    for _ in 0..<steps {
      // The wall clock moves between any two things a person or a network does.
      now.milliseconds += 1
      let player = playerOnTop(state)
      switch random.next() % 10 {
      case 0, 1:
        // Below the 2 s a Player takes for the machine having slept, with the steps between.
        now.milliseconds += Int64(random.next() % 1_500) + 1
        log.append("clock +\(now.milliseconds % 100_000)")
        send(.clockRead(now))
      case 2:
        if player == nil {
          let row = Int(random.next() % 2)
          log.append("open row \(row)")
          send(.classes(.rowClicked(row)))
          send(.classes(.enterPressed))
        } else {
          log.append("leave")
          send(.player(.backPressed))
        }
      case 3:
        log.append("space")
        send(.player(.playPausePressed))
      case 4:
        let seconds = random.next() % 2 == 0 ? 10 : -10
        log.append("seek \(seconds)")
        send(.player(.seekPressed(seconds: seconds)))
      case 5, 6, 7:
        guard !work.isEmpty else { continue }
        // A read whose class's saves stay on their way too long is answered as failed without
        // reading, before them (the runtime's bound on the wait).
        if random.next() % 4 == 0,
          let index = work.firstIndex(where: {
            if case .load = $0 { return true }
            return false
          }), case .load(let id) = work[index],
          work[..<index].contains(where: {
            if case .save(let update) = $0 { return update.classID == id }
            return false
          })
        {
          // The answer says where the latest of those saves leaves the class.
          var latest: ProgressUpdate?
          for case .save(let update) in work[..<index] where update.classID == id {
            if latest.map({ ProgressUpdate.stamp(update.changedAt, isAtLeast: $0.changedAt) })
              ?? true
            {
              latest = update
            }
          }
          work.remove(at: index)
          log.append("load given up")
          var error = ProgressError(message: "saves on their way")
          error.savesOnTheirWay = latest?.keptPosition
          send(.player(.progressLoaded(.failure(error))))
          break
        }
        // Classes go on their own: the next of a class picked at random (a class's read
        // comes after its saves; another class's may come first).
        let ids = Set(work.map(\.classID)).sorted()
        let picked = ids[Int(random.next() % UInt64(ids.count))]
        let next = work.firstIndex { $0.classID == picked } ?? 0
        switch work.remove(at: next) {
        case .save(let update):
          switch random.next() % 3 {
          case 0:
            log.append("saved \(update)")
            let stored = store.apply(update, now: now.milliseconds)
            send(.player(.progressSaved(.success(stored), update)))
          case 1:
            log.append("failed \(update)")
            let error = ProgressError(message: "Progress could not be saved: disk full")
            send(.player(.progressSaved(.failure(error), update)))
          default:
            log.append("applied, answer lost \(update)")
            _ = store.apply(update, now: now.milliseconds)
            let error = ProgressError(
              message: "Progress could not be saved: no answer", isServerAway: true,
              mayHaveBeenApplied: true)
            send(.player(.progressSaved(.failure(error), update)))
          }
        case .load(let id):
          if random.next() % 4 == 0 {
            log.append("load failed \(id)")
            send(.player(.progressLoaded(.failure(ProgressError(message: "cannot read")))))
          } else {
            log.append("loaded \(id) \(store.progress[id] ?? ClassProgress())")
            send(.player(.progressLoaded(.success(store.progress[id] ?? ClassProgress()))))
          }
        }
      default:
        // Played at 10×, a class ends after 10 s.
        log.append("speed up")
        send(.player(.speedChanged(faster: true)))
      }
      guard check(false) else { return false }
    }
    // Quit: the closing saves and the kept ones go, and every save is answered.
    log.append("quit")
    send(.interruptPressed)
    for case .save(let update) in work {
      now.milliseconds += 1
      _ = store.apply(update, now: now.milliseconds)
    }
    return check(true)
  }

  /// Where a class stored at `position` resumes (from 0 once finished or left in its first
  /// second, SPEC §12): what the person sees of a stored position.
  static func resume(_ position: Int) -> Int {
    position >= 1_000 && position < 100_000 ? position : 0
  }

  static func playerOnTop(_ state: AppState) -> PlayerState? {
    guard case .signedIn(let signedIn) = state.root, case .player(let player)? = signedIn.path.last
    else { return nil }
    return player
  }
}

extension Action {
  fileprivate var isProgressAnswer: Bool {
    switch self {
    case .player(.progressSaved), .player(.progressLoaded): true
    default: false
    }
  }
}

extension PlayerSavesModelTests.Work {
  fileprivate var classID: String {
    switch self {
    case .save(let update): update.classID
    case .load(let id): id
    }
  }
}
