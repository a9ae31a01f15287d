import Dispatch
import MyworkoutCore
import MyworkoutImages
import MyworkoutServices
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Carries out the reducer's effects. Each request runs as a task under its effect id; several
/// ids may run at once, a new request under a running id supersedes it, and the answer of a
/// cancelled or superseded request never arrives. Session writes go through one serial queue so
/// they happen in the order asked for. Requests and saves prefer `executor` (the app's own
/// threads, `WorkerThreads`) for all they run off the main actor.
@MainActor
final class EffectRunner {
  private let services: Services
  private let sessions: any SessionPersisting
  private let send: @MainActor (Action) -> Void
  private let quit: @MainActor (Int32) -> Void
  /// The running requests, each with the serial number it was started under and the gate its
  /// change passes (`CommitGate`).
  private var running: [EffectID: (serial: UInt64, task: Task<Void, Never>, gate: CommitGate)] =
    [:]
  /// Requests cancelled after they made their change (by serial): their answers still come.
  private var madeBeforeTheirCancel: Set<UInt64> = []
  private var serial: UInt64 = 0
  private let writes = DispatchQueue(label: "myworkout.session-writes")
  /// Whether this copy's session is kept on the device (loaded from its file, or its log-in's
  /// save written): only then can another copy's log-out end it. One whose save failed (a full
  /// disk, said at the time) has no file to lose.
  private let keptOnDevice = SharedBool(true)
  /// The progress saves of each class (by account and class) still on their way: each waits
  /// for the one before of its class (they are merges, so none may be dropped). Classes do not
  /// wait for each other: a save that hangs holds only its own class. A class leaves once its
  /// last save is answered. The app waits for all of them before it exits.
  private var savesOnTheirWay: [ClassKey: SavesOfAClass] = [:]
  private let progressSaves = DispatchGroup()
  /// The saves whose answers the state has not had yet: at the exit (which stops the answers)
  /// these are what is lost.
  private let unanswered = UnansweredSaves()
  private var saveNumber: UInt64 = 0
  private let executor: (any TaskExecutor)?
  /// How long a log-out waits for the saves under way before the session is forgotten.
  private let savesBeforeLogOut: Duration
  /// How long a class's progress read waits for the saves of that class sent before it; past
  /// it the read is answered as failed (never read while such a save may still move the
  /// position, and the Player then moves no stored position).
  private let savesBeforeRead: Duration
  /// Reads the wall clock: each save is stamped with when it was made.
  private let now: () -> Date

  /// `send` delivers an answer (and draws it); `quit` restores the terminal and exits;
  /// `executor` runs the work (nil: Swift's global pool, as in most tests).
  init(
    services: Services, sessions: any SessionPersisting, executor: (any TaskExecutor)? = nil,
    savesBeforeLogOut: Duration = .seconds(5), savesBeforeRead: Duration = .seconds(10),
    now: @escaping () -> Date = { Date() },
    send: @escaping @MainActor (Action) -> Void, quit: @escaping @MainActor (Int32) -> Void
  ) {
    self.savesBeforeLogOut = savesBeforeLogOut
    self.savesBeforeRead = savesBeforeRead
    self.now = now
    self.services = services
    self.sessions = sessions
    self.executor = executor
    self.send = send
    self.quit = quit
  }

  /// The ids of the requests running now.
  var runningIDs: Set<EffectID> { Set(running.keys) }

  /// Carries out `effect` for the signed-in `session` (nil when signed out): requests that
  /// change what is the session's own are not made once the device's session is no longer it.
  func run(_ effect: Effect, for session: Session? = nil) {
    switch effect {
    case .run(let id, let request): start(id, request, for: session)
    case .cancel(let id): cancel(id)
    case .saveSession(let session):
      let kept = keptOnDevice
      persist { sessions in
        do {
          try sessions.save(session)
          kept.set(true)
        } catch {
          kept.set(false)
          throw error
        }
      }
    case .renewSession(let session): persist { try $0.renew(session) }
    case .endSession(let session):
      // The session ends once the saves made under it are written (the Player's closing save
      // at a log-out): remote mode sends them with the session's token. A save that hangs
      // holds the log-out's write for `savesBeforeLogOut` at most.
      let saves = progressSaves
      let waited = savesBeforeLogOut
      let limit = Self.dispatchTime(after: waited)
      // Saves still unanswered when the wait ends go without the session: said (their
      // answers reach no Player and no list).
      let say: @MainActor @Sendable () -> Void = { [weak self] in
        guard let self, let lines = self.unsavedProgress(waited: waited, before: "the log-out")
        else { return }
        self.send(.noticeRaised(lines.split(separator: "\n").joined(separator: "; ")))
      }
      persist(
        { sessions in
          let ended = saves.wait(timeout: limit) == .success
          if !ended { DispatchQueue.main.async { MainActor.assumeIsolated { say() } } }
          try sessions.end(session)
        },
        // The screen says signed out; the file still holds the session (a walk-through's
        // notice said "save" for a removal, and the person believed they were logged out).
        failure: {
          "Could not log out on this device: \($0). The next launch may open this account again."
        })
    case .recordProgress(let update): record(update)
    case .quit(let status): quit(status)
    // The runtime hands these to the video player before they get here.
    case .video: break
    }
  }

  private func start(_ id: EffectID, _ request: Request, for session: Session?) {
    cancel(id)
    serial &+= 1
    let mine = serial
    let gate = CommitGate()
    let (services, sessions, writes, kept) = (
      self.services, self.sessions, self.writes, self.keptOnDevice
    )
    // Read after the session writes asked for before (a log-in's save is written on its way).
    let isSessionKept: @Sendable () -> Bool = {
      guard let session else { return true }
      return writes.sync { !kept.value || sessions.isSessionKept(session) }
    }
    // A class's progress is read after the saves of that class sent before it, and answered
    // after theirs: a read made while an earlier visit's save was on its way resumed the class
    // at the point before it, and a save of that older point then put it back.
    let savesBefore = request.progressReadKey.flatMap { savesOnTheirWay[$0] }
    let limit = savesBeforeRead
    let executor = self.executor
    // Started on the executor, back on the main actor only to deliver. (Set from inside a
    // main-actor task with `withTaskExecutorPreference`, the preference still let requests
    // reach Swift's global pool: gdb stopped in `swift_task_enqueueGlobal` on an email check.)
    let task = Task(executorPreference: executor) {
      if let savesBefore,
        await !Self.finished(savesBefore.last, within: limit, on: executor)
      {
        // Still on their way (a server that does not answer takes 20 s a save): not read;
        // the Player resumes where the latest of them leaves the class.
        await self.deliver(Self.savesStillSent(savesBefore.latest), id: id, serial: mine)
        return
      }
      guard !Task.isCancelled,
        let answer = await CommitGate.$current.withValue(
          gate,
          operation: { await Self.perform(request, on: services, isSessionKept: isSessionKept) })
      else { return }
      await self.deliver(answer, id: id, serial: mine)
    }
    running[id] = (mine, task, gate)
  }

  /// Sends a request's answer, unless the request was superseded or cancelled meanwhile (in
  /// time: one cancelled after it made its change is answered, so the screen shows the change).
  private func deliver(_ answer: Action, id: EffectID, serial mine: UInt64) {
    if madeBeforeTheirCancel.remove(mine) != nil {
      send(answer)
      return
    }
    guard running[id]?.serial == mine, !Task.isCancelled else { return }
    running[id] = nil
    send(answer)
  }

  /// Stops the request running under `id`, unless it has made its change: then its answer
  /// still comes (SPEC §3: the screen never says "cancelled" over a change that was made).
  private func cancel(_ id: EffectID) {
    guard let request = running.removeValue(forKey: id) else { return }
    if request.gate.cancel() {
      request.task.cancel()
    } else {
      madeBeforeTheirCancel.insert(request.serial)
    }
  }

  /// Calls the service for a request and returns the action that answers it; nil when the
  /// request was cancelled. Off the main actor, as every helper below: only the answer comes
  /// back to it, so work still running when the main thread waits (the exit's wait for saves)
  /// never needs it.
  nonisolated private static func perform(
    _ request: Request, on services: Services, isSessionKept: @Sendable () -> Bool
  ) async -> Action? {
    let service = services.accounts
    return switch request {
    case .checkEmail(let email):
      await answer({ try await service.isRegistered(email: email) }) {
        .getStarted(.checkEmailResponse($0))
      }
    case .logIn(let email, let password):
      await answer({ try await service.logIn(email: email, password: password) }) {
        .login(.logInResponse($0))
      }
    case .signUp(let registration):
      await answer({ try await service.signUp(registration) }) { .signup(.signUpResponse($0)) }
    case .updateMobile(let token, let mobile):
      await answer({
        // Logged out, or another account logged in, in another copy of the app meanwhile
        // (SPEC §4: session missing): not made, and the renewed session would have brought the
        // log-out's session back.
        guard isSessionKept() else { throw ServiceError.sessionExpired }
        return try await service.updateMobile(token: token, mobile: mobile)
      }) {
        .profile(.editNumberResponse($0))
      }
    case .catalogPage(let query, let offset, let limit):
      await catalogAnswer(query: query, offset: offset) {
        try await services.catalog.page(query: query, offset: offset, limit: limit)
      }
    case .recordLessonCompletion, .startLessonRound:
      // As the number edit: not recorded for a session the device no longer keeps.
      isSessionKept()
        ? await LessonRequests.perform(request, on: services.lessons) : .sessionExpired
    case .loadLessons:
      await LessonRequests.perform(request, on: services.lessons)
    case .imageList, .picture, .thumbnail, .classPicture:
      await imageAnswer(request, images: services.images)
    case .loadProgress(let account, let classID):
      await outcome({ try await services.progress.progress(account: account, classID: classID) }) {
        ProgressError(message: "Progress could not be read: \($0)")
      }.map { .player(.progressLoaded($0)) }
    case .watchedPercents(let account, let classes):
      await outcome({
        try await services.progress.watchedPercents(account: account, classes: classes)
      }) {
        ProgressError(message: "Progress could not be read: \($0)")
      }.map { .classes(.watchedLoaded(try? $0.get())) }
    }
  }

  /// A service call's result, its own failures typed and any other error made one by
  /// `otherwise`; nil when the call was cancelled (its answer is no longer wanted).
  nonisolated private static func outcome<Value: Sendable, Failure: Error>(
    _ call: @Sendable () async throws -> Value, otherwise: (any Error) -> Failure
  ) async -> Result<Value, Failure>? {
    do {
      return .success(try await call())
    } catch let error as Failure {
      return .failure(error)
    } catch is CancellationError {
      return nil
    } catch {
      return .failure(otherwise(error))
    }
  }

  /// Saves a part of what was watched after the saves before it, off the main actor; the
  /// answer is delivered on the main queue. Never cancelled: the player's state already counts
  /// it as saved.
  private func record(_ update: ProgressUpdate) {
    // When the person was there: a failed save kept and sent again later keeps this time, and
    // never puts its position back over a later one (the stores keep the latest position).
    var stamped = update
    if stamped.changedAt == nil {
      stamped.changedAt = Int64((now().timeIntervalSince1970 * 1_000).rounded(.down))
    }
    let update = stamped
    let key = ClassKey(account: update.account, classID: update.classID)
    let earlier = savesOnTheirWay[key]
    let previous = earlier?.last
    let progress = services.progress
    let send = self.send
    let group = progressSaves
    let unanswered = self.unanswered
    saveNumber &+= 1
    let number = saveNumber
    unanswered.sent(number, classID: update.classID)
    group.enter()
    let leave: @MainActor @Sendable () -> Void = { [weak self] in
      self?.answered(number, of: key)
    }
    let task = Task.detached(executorPreference: executor) {
      await previous?.value
      // Never cancelled; should the task be, the save is reported as not made.
      let result =
        await Self.outcome({ try await progress.record(update) }) {
          ProgressError(message: ProgressError.notSavedPrefix + "\($0)")
        } ?? .failure(ProgressError(message: ProgressError.notSavedPrefix + "cancelled"))
      unanswered.finished(number, result)
      group.leave()
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          unanswered.answered(number)
          leave()
          send(.player(.progressSaved(result, update)))
        }
      }
    }
    // The latest position of the class's saves: a kept save sent again may be older.
    let latest =
      earlier.map {
        ProgressUpdate.stamp(update.changedAt, isAtLeast: $0.latest.changedAt) ? update : $0.latest
      } ?? update
    savesOnTheirWay[key] = SavesOfAClass(last: task, number: number, latest: latest)
  }

  /// A save's answer reached the state: its class has none on its way when it was the last.
  private func answered(_ number: UInt64, of key: ClassKey) {
    if savesOnTheirWay[key]?.number == number { savesOnTheirWay[key] = nil }
  }

  /// Whether `task` ended within `limit` (it runs on either way); false at once when the
  /// caller is cancelled (a read superseded, or left with its Player).
  nonisolated private static func finished(
    _ task: Task<Void, Never>, within limit: Duration, on executor: (any TaskExecutor)?
  ) async -> Bool {
    let first = FirstAnswer()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        first.wait(continuation)
        first.timer(
          Task(executorPreference: executor) {
            do { try await Task.sleep(for: limit) } catch { return }
            first.give(false)
          })
        Task(executorPreference: executor) {
          await task.value
          first.give(true)
        }
      }
    } onCancel: {
      first.give(false)
    }
  }

  /// The answer of a read whose class's saves did not end in time: where the latest of them
  /// leaves the class (the Player resumes there, and sends it with its time).
  nonisolated private static func savesStillSent(_ latest: ProgressUpdate) -> Action {
    var error = ProgressError(
      message: "Progress could not be read: earlier saves of this class are still on their way")
    error.savesOnTheirWay = latest.keptPosition
    return .player(.progressLoaded(.failure(error)))
  }

  /// After `finishWrites` at the exit: a line on the progress that could not be saved (saves
  /// that failed, whose answers will never reach the state to be kept and tried again), and
  /// one on the progress that may not have been (saves still being written, or whose answer
  /// was lost: the server may yet have them); nil when all of it was saved.
  func unsavedProgress(waited: Duration, before end: String = "the app ended") -> String? {
    let lost = unanswered.lost()
    var failed: [String] = []
    var uncertain: [String] = []
    var failure: String?
    var lostAnswer: String?
    var onItsWay = false
    for save in lost {
      switch save.standing {
      case .failed(let message):
        failed.append(save.classID)
        failure = failure ?? message
      case .maybeApplied(let message):
        uncertain.append(save.classID)
        lostAnswer = lostAnswer ?? message
      case .onItsWay:
        uncertain.append(save.classID)
        onItsWay = true
      }
    }
    let tenths =
      waited.components.seconds * 10 + waited.components.attoseconds / 100_000_000_000_000_000
    let seconds = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    var lines: [String] = []
    if let failure {
      lines.append(
        Self.exitLine(Set(failed).count, "could not be saved", end, Self.reason(failure)))
    }
    // A class counted as failed is said once.
    let unsure = Set(uncertain).subtracting(failed).count
    if unsure > 0 {
      let reason =
        onItsWay ? "still being written after \(seconds) s" : Self.reason(lostAnswer ?? "")
      lines.append(Self.exitLine(unsure, "may not have been saved", end, reason))
    }
    return lines.isEmpty ? nil : lines.joined(separator: "\n")
  }

  private static func exitLine(_ classes: Int, _ outcome: String, _ end: String, _ reason: String)
    -> String
  {
    "Progress of \(classes) class\(classes == 1 ? "" : "es") \(outcome) before \(end): \(reason)"
  }

  /// A save's failure as a reason at the exit: without the notice's prefix, nor its "Try
  /// again." (the app has ended).
  private static func reason(_ message: String) -> String {
    var reason =
      message.hasPrefix(savePrefix) ? String(message.dropFirst(savePrefix.count)) : message
    if reason.hasSuffix(" Try again.") { reason.removeLast(" Try again.".count) }
    return reason
  }

  private static let savePrefix = ProgressError.notSavedPrefix

  /// The image list, or a picture decoded for a tile (nil: cannot be shown). A decode asked
  /// for and cancelled before it started (scrolled past) is never started.
  nonisolated private static func imageAnswer(_ request: Request, images: ImageServices) async
    -> Action?
  {
    guard !Task.isCancelled else { return nil }
    switch request {
    case .imageList:
      let result: Result<[ImageInfo], ImageServiceError>
      do {
        result = .success(try await images.list.listImages())
      } catch is CancellationError {
        return nil
      } catch let error as ImageServiceError {
        result = .failure(error)
      } catch {
        result = .failure(.cannotList("\(error)"))
      }
      return .images(.listLoaded(result))
    case .picture(let image, let tile, let colors):
      let outcome = await images.pictures.picture(for: image, tile: tile, colors: colors)
      return .images(.pictureLoaded(TileKey(imageID: image.id, tile: tile), try? outcome.get()))
    case .thumbnail(let slug, let tile, let colors):
      let picture = await thumbnail(slug, tile: tile, colors: colors, images: images)
      return .classes(.thumbnailLoaded(slug: slug, picture))
    case .classPicture(let slug, let tile, let colors):
      return .player(
        .pictureLoaded(await thumbnail(slug, tile: tile, colors: colors, images: images)))
    default:
      return nil
    }
  }

  /// A class's thumbnail decoded for a tile; nil when there is none or it cannot be shown.
  nonisolated private static func thumbnail(
    _ slug: String, tile: TileSize, colors: PictureColors, images: ImageServices
  ) async -> HalfBlockPicture? {
    guard let file = images.thumbnail(slug) else { return nil }
    return try? await images.thumbnails.picture(for: file, tile: tile, colors: colors).get()
  }

  nonisolated private static func catalogAnswer(
    query: String, offset: Int, _ call: @Sendable () async throws -> CatalogPage
  ) async -> Action? {
    await outcome(call) { CatalogError.unavailable("\($0)") }
      .map { .classes(.pageLoaded(query: query, offset: offset, $0)) }
  }

  nonisolated private static func answer<Value: Sendable>(
    _ call: @Sendable () async throws -> Value,
    _ action: (Result<Value, ServiceError>) -> Action
  ) async -> Action? {
    await outcome(call) { ServiceError.storage("Something went wrong: \($0)") }.map(action)
  }

  private func persist(
    _ work: @escaping @Sendable (any SessionPersisting) throws -> Void,
    failure: @escaping @Sendable (any Error) -> String = { "Could not save the session: \($0)" }
  ) {
    let sessions = self.sessions
    let send = self.send
    writes.async {
      do {
        try work(sessions)
      } catch {
        let notice = failure(error)
        DispatchQueue.main.async { MainActor.assumeIsolated { send(.noticeRaised(notice)) } }
      }
    }
  }

  /// Waits for session writes and progress saves still under way (before the process exits or
  /// stops), the saves for at most `limit` (a server that does not answer must not hold the
  /// exit). Blocks the main thread: nothing it waits for needs the main actor.
  func finishWrites(within limit: Duration) {
    writes.sync {}
    _ = progressSaves.wait(timeout: Self.dispatchTime(after: limit))
  }

  nonisolated private static func dispatchTime(after limit: Duration) -> DispatchTime {
    let nanoseconds =
      limit.components.seconds * 1_000_000_000
      + limit.components.attoseconds / 1_000_000_000
    return .now() + .nanoseconds(Int(nanoseconds))
  }
}

/// The services the effects call: the account service, the catalog, the lessons, the images and
/// watch progress (embedded mocks in the app, test doubles in tests).
struct Services: Sendable {
  var accounts: any AccountService
  var catalog: any CatalogService
  var lessons: LessonServices
  var images: ImageServices
  /// Watch progress (the Player, the Classes list's watched %).
  var progress: any ProgressService
}

/// Keeping and forgetting the signed-in session (the JSON session store in the app; a
/// recording double in tests).
package protocol SessionPersisting: Sendable {
  func save(_ session: Session) throws
  /// Keeps a renewed session while the kept one is still this account's (another copy of the
  /// app may have logged someone else in since, or this person out).
  func renew(_ session: Session) throws
  /// Forgets `session` (a log-out, an expiry) while the kept one is this account's: another
  /// account's later log-in in another copy of the app on this data directory stays.
  func end(_ session: Session) throws
  /// Whether `session` is still the device's: not after a log-out in another copy of the app
  /// (the file removed), nor after another account's log-in there. A file that cannot be read
  /// is for the next load to move aside. Reads the file: blocking.
  func isSessionKept(_ session: Session) -> Bool
}

extension SessionStore: SessionPersisting {}

extension Request {
  /// The class whose progress this request reads (after that class's saves before it), if it
  /// reads one.
  fileprivate var progressReadKey: ClassKey? {
    guard case .loadProgress(let account, let classID) = self else { return nil }
    return ClassKey(account: account, classID: classID)
  }
}

/// A continuation resumed once, by the first of several that answer it (one that answers
/// before the continuation is there is kept for it); the first answer stops the timer.
private final class FirstAnswer: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Bool, Never>?
    var answer: Bool?
    var timer: Task<Void, Never>?
  }
  private let state = Mutex(State())

  func wait(_ continuation: CheckedContinuation<Bool, Never>) {
    let answer = state.withLock { state -> Bool? in
      if state.answer == nil { state.continuation = continuation }
      return state.answer
    }
    if let answer { continuation.resume(returning: answer) }
  }

  func timer(_ timer: Task<Void, Never>) {
    let answered = state.withLock { state -> Bool in
      if state.answer == nil { state.timer = timer }
      return state.answer != nil
    }
    if answered { timer.cancel() }
  }

  func give(_ answer: Bool) {
    let (continuation, timer) = state.withLock {
      state -> (CheckedContinuation<Bool, Never>?, Task<Void, Never>?) in
      guard state.answer == nil else { return (nil, nil) }
      state.answer = answer
      let taken = (state.continuation, state.timer)
      state.continuation = nil
      state.timer = nil
      return taken
    }
    timer?.cancel()
    continuation?.resume(returning: answer)
  }
}

/// The saves of a class on their way: the last (which waits for those before it), its number,
/// and the latest position they carry.
private struct SavesOfAClass {
  let last: Task<Void, Never>
  let number: UInt64
  let latest: ProgressUpdate
}

/// One person's class: the saves of each go in order, whatever the other classes' do.
private struct ClassKey: Hashable {
  let account: String
  let classID: String
}

/// The progress saves whose answers the state has not had yet, by number, with their class and,
/// once one failed, why. A save that succeeded leaves at once; one whose answer reached the
/// state (which keeps a failure and tries it again) leaves then.
private final class UnansweredSaves: Sendable {
  /// Where a save stands at the exit.
  enum Standing: Equatable {
    /// Still being written.
    case onItsWay
    /// Refused or failed: not saved.
    case failed(String)
    /// Its answer was lost: the server may have applied it.
    case maybeApplied(String)
  }

  private let saves = Mutex<[UInt64: (classID: String, standing: Standing)]>([:])

  func sent(_ number: UInt64, classID: String) {
    saves.withLock { $0[number] = (classID, .onItsWay) }
  }

  func finished(_ number: UInt64, _ result: Result<ClassProgress, ProgressError>) {
    saves.withLock { saves in
      switch result {
      case .success: saves[number] = nil
      case .failure(let error):
        saves[number]?.standing =
          error.mayHaveBeenApplied ? .maybeApplied(error.message) : .failed(error.message)
      }
    }
  }

  func answered(_ number: UInt64) {
    saves.withLock { _ = $0.removeValue(forKey: number) }
  }

  func lost() -> [(classID: String, standing: Standing)] {
    saves.withLock { saves in saves.keys.sorted().compactMap { saves[$0] } }
  }
}

/// A Boolean shared across threads.
final class SharedBool: Sendable {
  private let state: Mutex<Bool>
  init(_ value: Bool) { state = Mutex(value) }
  var value: Bool { state.withLock { $0 } }
  func set(_ value: Bool) { state.withLock { $0 = value } }
}
