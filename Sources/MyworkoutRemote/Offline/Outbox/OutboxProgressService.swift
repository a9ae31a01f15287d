import MyworkoutCore
import MyworkoutServices
import MyworkoutWire
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Remote mode's progress with the outbox in front (SPEC §18): every save and completion is
/// written to the account's outbox first and sent from there in the background, so the
/// screen never waits for the server and nothing is lost while it is away. What is read is
/// the server's state with the changes still waiting laid over it.
package final class OutboxProgressService<C: Clock>: ProgressService, Sendable
where C.Duration == Duration {
  struct Outbox: Sendable {
    var store: OutboxStore
    var sender: OutboxSender<C>
  }

  let remote: RemoteProgressService
  let directory: DataDirectory
  let server: String
  let clock: C
  let backoff: Backoff
  let onNotice: @Sendable (String) -> Void
  let onStatus: @Sendable (SyncStatus) -> Void
  /// The wall clock that stamps each change (`changed_at`), injected beside `clock`.
  let now: @Sendable () -> Date
  /// Where the senders' tasks run (the app's own threads; nil: Swift's global pool).
  let executor: (any TaskExecutor)?
  private let outboxes = Mutex<[String: Outbox]>([:])

  package init(
    remote: RemoteProgressService, directory: DataDirectory, server: String, clock: C,
    backoff: Backoff = Backoff(), onNotice: @escaping @Sendable (String) -> Void = { _ in },
    onStatus: @escaping @Sendable (SyncStatus) -> Void = { _ in },
    now: @escaping @Sendable () -> Date = { Date() }, executor: (any TaskExecutor)? = nil
  ) {
    self.now = now
    self.executor = executor
    self.remote = remote
    self.directory = directory
    self.server = RemoteServer.canonical(server)
    self.clock = clock
    self.backoff = backoff
    self.onNotice = onNotice
    self.onStatus = onStatus
  }

  /// The account's outbox and its sender, made on first use; what an earlier run left in it
  /// starts on its way at once.
  func outbox(_ account: String) -> Outbox {
    let (box, made) = outboxes.withLock { boxes in
      if let box = boxes[account] { return (box, false) }
      let store = OutboxStore(
        directory: directory, server: server, account: account, onNotice: onNotice)
      let remote = remote
      let onStatus = onStatus
      let box = Outbox(
        store: store,
        sender: OutboxSender(
          store: store, clock: clock, backoff: backoff, executor: executor, onNotice: onNotice,
          onStatus: { report in
            onStatus(
              SyncStatus(
                account: account, waiting: report.waiting, offline: report.offline,
                aside: report.aside, sessionRefused: report.sessionRefused))
          },
          deliver: { entry in
            await remote.deliver(entry, of: account) { answer in
              await Self.remember(answer, in: store)
            }
          }))
      boxes[account] = box
      return (box, true)
    }
    if made { Task(executorPreference: executor) { await box.sender.kick() } }
    return box
  }

  /// Sends what `account` has waiting (at launch with a kept session, and at log-in), the
  /// changes put aside included: they are tried again (issue 28). Another account's sender
  /// cannot send under this session (`RemoteCredentials.bearer(for:)`).
  package func resume(account: String) async {
    let box = outbox(account)
    _ = try? await box.store.releaseAside()
    await box.sender.kick()
  }

  /// Stops every sender (log-out, expiry): what waits stays in its account's outbox for that
  /// account's next log-in.
  package func stopAll() async {
    for box in outboxes.withLock({ Array($0.values) }) { await box.sender.stop() }
  }

  /// Log-out and expiry, with the ended session's tokens (`RemoteCredentials.leaving()`): the
  /// other accounts' senders stop; the leaving person's changes, the Player's closing save
  /// among them, are sent now under that person's own token, for at most `limit` (a log-out
  /// used to leave that save waiting until their next log-in, even online). What could not go
  /// is said and kept for their next log-in; then their token is no longer sent.
  package func loggedOut(_ leaving: RemoteCredentials.Tokens?, within limit: Duration) async {
    let boxes = outboxes.withLock { $0 }
    let owner = leaving?.owner
    for (account, box) in boxes where owner?.owns(account) != true { await box.sender.stop() }
    guard let leaving, let owner else { return }
    let mine = boxes.filter { owner.owns($0.key) }.map(\.value)
    for box in mine { await box.sender.kick() }
    // Until every sender has sent, backs off (the server is away) or is refused, or the time
    // is up: the sends still under way then go on, without the token for what comes next.
    let (first, done) = AsyncStream<Void>.makeStream()
    Task(executorPreference: executor) {
      for box in mine { await box.sender.settled() }
      done.yield()
    }
    let timer = Task(executorPreference: executor) { [clock] in
      try? await clock.sleep(for: limit)
      done.yield()
    }
    for await _ in first { break }
    timer.cancel()
    remote.credentials.forget(leaving: leaving)
    var left = 0
    for box in mine { left += (try? await box.store.counts().waiting) ?? 0 }
    // Said on Get started; not over the screens of whoever signed in since (a walk-through saw
    // it name the last person's email on the next one's screen), who may be this person again
    // (whose log-in sends them).
    if left > 0, remote.credentials.tokens == nil {
      let changes = left == 1 ? "1 change" : "\(left) changes"
      onNotice(
        "\(changes) could not be sent before the session ended; kept on this device for the next log-in of \(owner.email)"
      )
    }
  }

  /// Sends what the signed-in person has waiting: under `account` (their id), and under their
  /// `email` when an outbox was kept under it, by a session from before the server gave
  /// accounts ids (its token named the email); those changes go now, under this session.
  package func resume(account: String, email: String) async {
    await resume(account: account)
    let legacy = Email.normalized(email)
    try? await outbox(account).store.remember(
      OutboxStore.Owner(server: server, account: account, email: legacy), as: OutboxStore.ownerKey)
    // Changes of this email kept under an account the server no longer has (its data started
    // over and the email signed up again): said, and kept for a log-in that can take them.
    let stranded = OutboxStore.stranded(
      in: directory, server: server, email: legacy, except: account
    ).filter { $0.account != legacy }.map(\.waiting).reduce(0, +)
    if stranded > 0 {
      let changes = stranded == 1 ? "1 change" : "\(stranded) changes"
      onNotice(
        "\(changes) from an earlier session of this email could not be sent; kept on this device")
    }
    // This account's changes kept under another spelling of this server's URL (`localhost`
    // for `127.0.0.1`, or a spelling from before URLs were filed in one form): taken in and
    // sent now (a walk-through's stayed in their file for good, unsaid).
    var adopted = 0
    for path in OutboxStore.sameAccountElsewhere(
      in: directory, server: server, account: account, email: legacy)
    {
      adopted += (try? await outbox(account).store.adopt(from: path)) ?? 0
    }
    if adopted > 0 { await outbox(account).sender.kick() }
    let path = OutboxStore.path(in: directory, server: server, account: legacy)
    guard legacy != account, FileManager.default.fileExists(atPath: path) else { return }
    await resume(account: legacy)
  }

  /// The changes of `account` not yet on the server.
  package func waiting(account: String) async throws -> [OutboxEntry] {
    try await outbox(account).store.waiting()
  }

  // MARK: ProgressService

  /// The class's progress: the server's, with the changes still waiting laid over it. While
  /// the server is away, what it last said (kept in the outbox file) stands in for it.
  package func progress(account: String, classID: String) async throws -> ClassProgress {
    let box = outbox(account)
    var attempt = 0
    while true {
      attempt += 1
      let before = try await pending(box, classID: classID)
      let stored: ClassProgress
      do {
        stored = try await remote.progress(account: account, classID: classID)
      } catch let error as ProgressError where error.isServerAway {
        let known = try? await box.store.recall(ProgressDTO.self, Self.progressKey(classID))
        // Never seen and nothing waiting: the failure, as before.
        guard known != nil || !before.isEmpty else { throw error }
        // Said, as kept pages are: another device may have moved the class since.
        onNotice(Self.keptProgressNotice(error))
        return Self.overlay(known.map(\.progress) ?? ClassProgress(), before)
      } catch {
        await sayIfSessionRefused(error, account: account, box: box)
        throw error
      }
      await box.sender.kick()  // the server answers again
      let after = try await pending(box, classID: classID)
      // A change that reached the server during the read would count twice: read again.
      if before.map(\.key) != after.map(\.key), attempt < 3 { continue }
      try? await box.store.remember(ProgressDTO(stored), as: Self.progressKey(classID))
      return Self.overlay(stored, after)
    }
  }

  /// A read the server refused for the session itself (a 401 to the signed-in person's token:
  /// its data started over, its keys changed) ends the session as a refused change does, with
  /// `Your session has expired. Please log in again.` (SPEC §4): before, a walk-through's
  /// restarted server showed the classes at 0 % and the Player at 00:00 until a save was
  /// refused. What waits stays for the next log-in.
  private func sayIfSessionRefused(_ error: any Error, account: String, box: Outbox) async {
    guard (error as? ProgressError)?.isSessionRefused == true else { return }
    let counts = try? await box.store.counts()
    onStatus(
      SyncStatus(
        account: account, waiting: counts?.waiting ?? 0, offline: false,
        aside: counts?.aside ?? 0, sessionRefused: true))
  }

  /// `Can't reach the server: showing this class's progress as saved on this device.`
  static func keptProgressNotice(_ error: ProgressError) -> String {
    (error.awayNotice ?? ServiceError.network.awayNotice)
      + ": showing this class's progress as saved on this device."
  }

  /// Writes the change to the outbox and starts sending it; what is known here now (the
  /// changes waiting for that class, laid over nothing: the player keeps the rest).
  @discardableResult
  package func record(_ update: ProgressUpdate) async throws -> ClassProgress {
    let box = outbox(update.account)
    var update = update
    // Stamped as it is written: the server keeps the position of the later change.
    update.changedAt = update.changedAt ?? Int64((now().timeIntervalSince1970 * 1_000).rounded())
    do {
      try await box.store.append(OutboxChange(update))
    } catch {
      // The outbox cannot be written (its file cannot be opened, the disk is full): the change
      // goes straight to the server while it answers, and the person is told why.
      onNotice(Self.unkeptNotice(error))
      return try await remote.record(update)
    }
    await box.sender.added()
    return Self.overlay(ClassProgress(), try await pending(box, classID: update.classID))
  }

  /// The server's watched % with the waiting changes counted in; while the server is away, the
  /// last % it gave, and each class's kept progress with what waits laid over it.
  package func watchedPercents(account: String, classes: [DanceClass]) async throws -> [String: Int]
  {
    let box = outbox(account)
    let waiting = try await entries(box)
    var percents: [String: Int]
    var away = false
    do {
      percents = try await remote.watchedPercents(account: account, classes: classes)
      await box.sender.kick()
      var known = (try? await box.store.recall([String: Int].self, Self.percentsKey)) ?? [:]
      known.merge(percents) { $1 }
      try? await box.store.remember(known, as: Self.percentsKey)
    } catch let error as ProgressError where error.isServerAway {
      away = true
      percents = (try? await box.store.recall([String: Int].self, Self.percentsKey)) ?? [:]
      percents = percents.filter { id, _ in classes.contains { $0.id == id } }
    } catch {
      await sayIfSessionRefused(error, account: account, box: box)
      throw error
    }
    for danceClass in classes {
      let mine = waiting.filter { $0.change.classID == danceClass.id }
      guard !mine.isEmpty || away else { continue }
      var base: ClassProgress
      if away {
        guard
          let known = try? await box.store.recall(
            ProgressDTO.self, Self.progressKey(danceClass.id))
        else {
          if !mine.isEmpty {
            percents[danceClass.id] = Self.overlay(ClassProgress(), mine).watched
              .watchedPercent(duration: danceClass.durationMilliseconds)
          }
          continue
        }
        base = known.progress
      } else if let stored = try? await remote.progress(account: account, classID: danceClass.id) {
        base = stored
      } else {
        // That one read failed: what the server last said, never less than its % above.
        base =
          (try? await box.store.recall(ProgressDTO.self, Self.progressKey(danceClass.id)))?
          .progress ?? ClassProgress()
      }
      let overlaid = Self.overlay(base, mine).watched.watchedPercent(
        duration: danceClass.durationMilliseconds)
      percents[danceClass.id] = max(percents[danceClass.id] ?? 0, overlaid)
    }
    return percents
  }

  // MARK: Lesson completion events

  /// The round's events: the server's, or while it is away the ones it last gave, and the
  /// events still waiting after them.
  package func completions(account: String) async throws -> [LessonCompletion] {
    let box = outbox(account)
    let waiting = try await entries(box)
    var events: [LessonCompletion]
    var round: Int?
    do {
      let answer = try await remote.completionsAndRound(account: account)
      events = answer.events
      round = answer.round ?? events.last?.round
      await box.sender.kick()
      try? await box.store.remember(events.map(CompletionDTO.init), as: Self.completionsKey)
      if let round {
        try? await box.store.remember(RoundResponse(round: round), as: Self.roundKey)
      }
    } catch let error as ProgressError where error.isServerAway {
      let known = await lastGiven(box)
      guard known != nil || waiting.contains(where: { $0.change.classID == nil }) else {
        throw error
      }
      events = known ?? []
      round = await Self.knownRound(in: box.store)
    } catch {
      await sayIfSessionRefused(error, account: account, box: box)
      throw error
    }
    return Self.overlay(waiting, on: events, round: round)
  }

  /// The round's events as this device knows them, asking the server nothing: the ones it last
  /// gave, and the events still waiting after them (the answer to a completion just recorded:
  /// the next lesson never waits for the server, SPEC §18).
  package func completionsKnown(account: String) async throws -> [LessonCompletion] {
    let box = outbox(account)
    let waiting = try await entries(box)
    return Self.overlay(
      waiting, on: await lastGiven(box) ?? [], round: await Self.knownRound(in: box.store))
  }

  /// The round this device knows it is in: the one the server last said (a list of events, a
  /// Start over), else that of the events it last gave; nil when it never said.
  static func knownRound(in store: OutboxStore) async -> Int? {
    if let kept = try? await store.recall(RoundResponse.self, roundKey) {
      return kept.round
    }
    return (try? await store.recall([CompletionDTO].self, completionsKey))?.last?.round
  }

  /// The events the server last gave this account (kept by `completions`), if any.
  private func lastGiven(_ box: Outbox) async -> [LessonCompletion]? {
    (try? await box.store.recall([CompletionDTO].self, Self.completionsKey))?.map(\.completion)
  }

  /// `events` (round `round`'s) with the completions waiting in the outbox for that round
  /// after them. One made in another round (before another device's Start over) is filed in
  /// its own round: shown in this one, it made a round look further on, or done, when the
  /// server's was not (a walk-through's device said "You completed all 3 lessons" of a round
  /// the server had one of).
  private static func overlay(
    _ waiting: [OutboxEntry], on events: [LessonCompletion], round: Int?
  ) -> [LessonCompletion] {
    var events = events
    let round = round ?? events.last?.round
    for entry in waiting {
      // The server keeps one event per visit (a lesson and when it was shown): a waiting one is
      // shown unless the server has that very visit already (sent, not yet crossed off here).
      guard case .completion(let lessonID, let started, let completed, let madeIn) = entry.change,
        madeIn == nil || round == nil || madeIn == round,
        !events.contains(where: {
          $0.lessonID == lessonID
            && Int64($0.started.timeIntervalSince1970.rounded(.down)) == started
        })
      else { continue }
      events.append(
        LessonCompletion(
          lessonID: lessonID, round: round ?? 0,
          started: Date(timeIntervalSince1970: Double(started)),
          completed: Date(timeIntervalSince1970: Double(completed))))
    }
    return events
  }

  /// Writes the event to the outbox and starts sending it; the event as written (its round is
  /// the server's to give: 0 until then).
  @discardableResult
  package func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date
  ) async throws -> LessonCompletion? {
    let box = outbox(account)
    let start = Int64(started.timeIntervalSince1970.rounded(.down))
    let end = Int64(completed.timeIntervalSince1970.rounded(.down))
    let round = await Self.knownRound(in: box.store)
    do {
      try await box.store.append(
        .completion(lessonID: lessonID, started: start, completed: end, round: round))
    } catch {
      onNotice(Self.unkeptNotice(error))
      return try await remote.recordCompletion(
        account: account, lessonID: lessonID, started: started, completed: completed)
    }
    await box.sender.added()
    return LessonCompletion(
      lessonID: lessonID, round: 0, started: Date(timeIntervalSince1970: Double(start)),
      completed: Date(timeIntervalSince1970: Double(end)))
  }

  /// Start over, once everything waiting has reached the server (a completion still waiting
  /// belongs to the round it was made in).
  @discardableResult
  package func startNewRound(account: String) async throws -> Int {
    let box = outbox(account)
    await box.sender.kick()
    // One try: a server that is away does not keep the person waiting (issue 28).
    await box.sender.settled()
    // The person may have left while it was sent: nothing starts after that.
    try Task.checkCancellation()
    let count = try await entries(box).count
    guard count == 0 else {
      throw ProgressError(
        message: "Progress could not be saved: \(count) changes have not reached the server yet")
    }
    // From the round this device shows as done: another device's Start over since then is
    // not skipped.
    let round = try await remote.startNewRound(
      account: account, from: await Self.knownRound(in: box.store))
    // The new round has no events yet; what is finished from now on belongs to it.
    try? await box.store.remember([CompletionDTO](), as: Self.completionsKey)
    try? await box.store.remember(RoundResponse(round: round), as: Self.roundKey)
    return round
  }

  /// Said when the outbox cannot keep a change: it went (or failed to go) straight to the
  /// server.
  static func unkeptNotice(_ error: any Error) -> String {
    "Changes cannot be kept on this device (\(error)); saving straight to the server"
  }

  // MARK: What the server last said

  static func progressKey(_ classID: String) -> String { "progress/" + classID }
  static var percentsKey: String { "percents" }
  static var completionsKey: String { "completions" }
  static var roundKey: String { "round" }

  /// Keeps what the server answered to a delivered change: the class's merged progress, or
  /// the lesson event it filed (added to the round's events it gave last).
  static func remember(_ answer: RemoteProgressService.ChangeAnswer, in store: OutboxStore) async {
    if let progress = answer.progress, let classID = answer.classID {
      try? await store.remember(progress, as: progressKey(classID))
    }
    if let event = answer.completion {
      // The list kept is the round's the device is in: an event filed in an earlier round (made
      // before another device's Start over) is not one of them.
      let listed = await knownRound(in: store)
      guard listed == nil || listed == event.round else { return }
      var known = (try? await store.recall([CompletionDTO].self, completionsKey)) ?? []
      if !known.contains(where: { $0.lessonID == event.lessonID && $0.round == event.round }) {
        known.append(event)
        try? await store.remember(known, as: completionsKey)
      }
    }
  }

  // MARK: Overlay

  private func entries(_ box: Outbox) async throws -> [OutboxEntry] {
    do {
      return try await box.store.waiting()
    } catch {
      throw ProgressError(message: "Progress could not be read: \(error)")
    }
  }

  private func pending(_ box: Outbox, classID: String) async throws -> [OutboxEntry] {
    try await entries(box).filter { $0.change.classID == classID }
  }

  /// `stored` with `waiting` applied in order, as the server will apply them: a position only
  /// when it is at least as recent as the last one applied (a failed save sent again says where
  /// an earlier visit left the person), and one stamped 0 (older than any) never over the
  /// stored one.
  static func overlay(_ stored: ClassProgress, _ waiting: [OutboxEntry]) -> ClassProgress {
    var progress = stored
    var positionAt: Int64 = 0
    for entry in waiting {
      guard case .progress(_, let position, let played, let added, let changedAt) = entry.change
      else { continue }
      let at = changedAt ?? .max
      if at > 0, at >= positionAt {
        progress.lastPosition = max(0, position)
        positionAt = at
      }
      progress.watched.formUnion(OutboxChange.intervals(played))
      progress.addTime(added)
    }
    return progress
  }
}
