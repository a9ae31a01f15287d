import Foundation
import MyworkoutCore
import MyworkoutImages
import MyworkoutServices
import MyworkoutView
import Synchronization

@testable import myworkout

/// A terminal that records every frame and hands out keys the test queued.
@MainActor
final class RecordingTerminal: TerminalBackend {
  var width = 80
  var height = 24
  private(set) var frames: [Grid] = []
  private var pending: [Key] = []
  private(set) var closed = 0

  var screen: String { frames.last?.text ?? "" }

  func press(_ keys: Key...) { pending += keys }
  func type(_ text: String) { pending += text.map(Key.character) }

  func draw(_ grid: Grid) { frames.append(grid) }
  func readKeys() -> [Key] {
    defer { pending = [] }
    return pending
  }
  func updateSize() {}
  /// What happens while the process is stopped (the test moves its clock, reads the store).
  var whileStopped: () -> Void = {}
  func suspend() { whileStopped() }
  private(set) var reclaimed = 0
  func reclaim() { reclaimed += 1 }
  func close() { closed += 1 }
  private(set) var pictures: [VideoPicture] = []
  func drawVideo(_ picture: VideoPicture?) {
    if let picture { pictures.append(picture) }
  }
}

/// Timers the test fires by hand.
@MainActor
final class ManualTimers: TimerSource {
  final class Token: TimerToken {
    let fire: @MainActor () -> Void
    let deadline: Date?
    let delay: Duration?
    var cancelled = false
    init(_ fire: @escaping @MainActor () -> Void, deadline: Date?, delay: Duration? = nil) {
      self.fire = fire
      self.deadline = deadline
      self.delay = delay
    }
    func cancel() { cancelled = true }
  }

  private(set) var started: [Token] = []
  var live: [Token] { started.filter { !$0.cancelled } }

  func repeating(every interval: Duration, _ fire: @escaping @MainActor () -> Void)
    -> any TimerToken
  {
    let token = Token(fire, deadline: nil)
    started.append(token)
    return token
  }

  func once(at deadline: Date, _ fire: @escaping @MainActor () -> Void) -> any TimerToken {
    let token = Token(fire, deadline: deadline)
    started.append(token)
    return token
  }

  func once(after delay: Duration, _ fire: @escaping @MainActor () -> Void) -> any TimerToken {
    let token = Token(fire, deadline: nil, delay: delay)
    started.append(token)
    return token
  }
}

/// An account service whose answers the test releases one by one.
final class GatedAccountService: AccountService {
  struct Call: Equatable, Sendable {
    var name: String
    var argument: String
  }

  private let waiting = Mutex<[(Call, CheckedContinuation<Void, Never>)]>([])
  let answers = Mutex<[String: Result<Session, ServiceError>]>([:])
  /// The calls that make their change (`CommitGate.commit`) as soon as they are called, before
  /// the test releases their answer; the others make it once released.
  let commitsBeforeAnswering = Mutex<Set<String>>([])
  /// The changes made (signUp and updateMobile), by name.
  let committed = Mutex<[String]>([])
  let registered: Set<String>

  init(registered: Set<String> = ["registered@email.com"]) {
    self.registered = registered
  }

  /// The calls waiting for the test to release them.
  var pending: [Call] { waiting.withLock { $0.map(\.0) } }

  /// Lets the oldest waiting call named `name` answer.
  func release(_ name: String) {
    let continuation = waiting.withLock { calls -> CheckedContinuation<Void, Never>? in
      guard let index = calls.firstIndex(where: { $0.0.name == name }) else { return nil }
      return calls.remove(at: index).1
    }
    continuation?.resume()
  }

  private func gate(_ call: Call) async throws {
    await withCheckedContinuation { continuation in
      waiting.withLock { $0.append((call, continuation)) }
    }
    try Task.checkCancellation()
  }

  func isRegistered(email: String) async throws -> Bool {
    try await gate(Call(name: "isRegistered", argument: email))
    return registered.contains(email)
  }

  func logIn(email: String, password: String) async throws -> Session {
    try await gate(Call(name: "logIn", argument: email))
    guard password == "password" else { throw ServiceError.wrongCredentials }
    return Fixture.session(email: email)
  }

  /// A change, made where a store would make it: at once for the calls in
  /// `commitsBeforeAnswering`, else after the release.
  private func change(_ call: Call) async throws {
    let early = commitsBeforeAnswering.withLock { $0.contains(call.name) }
    if early { try commit(call.name) }
    try await gate(call)
    if !early { try commit(call.name) }
  }

  private func commit(_ name: String) throws {
    try CommitGate.commit()
    committed.withLock { $0.append(name) }
  }

  func signUp(_ registration: Registration) async throws -> Session {
    try await change(Call(name: "signUp", argument: registration.email))
    return Fixture.session(email: registration.email)
  }

  func updateMobile(token: String, mobile: String) async throws -> Session {
    try await change(Call(name: "updateMobile", argument: mobile))
    var session = Fixture.session(email: "registered@email.com")
    session.profile.mobile = mobile
    session.token = "renewed"
    return session
  }
}

/// Records session writes instead of touching files.
final class RecordingSessions: SessionPersisting {
  let log = Mutex<[String]>([])
  /// What `isSessionKept()` answers: false stands for another copy's log-out.
  let keeps = Mutex(true)
  /// Whether `save` fails as a full disk does.
  let saveFails = Mutex(false)
  func save(_ session: Session) throws {
    if saveFails.withLock({ $0 }) { throw FileError(message: "Cannot write: No space left") }
    log.withLock { $0.append("save \(session.token)") }
  }
  func renew(_ session: Session) throws { log.withLock { $0.append("renew \(session.token)") } }
  /// Whether `end` fails as a removal the file system refuses.
  let endFails = Mutex(false)
  func end(_ session: Session) throws {
    if endFails.withLock({ $0 }) {
      throw FileError(message: "Cannot remove /d/session.json: Permission denied")
    }
    log.withLock { $0.append("end \(session.profile.email)") }
  }
  func isSessionKept(_ session: Session) -> Bool { keeps.withLock { $0 } }
}

/// Notes, at every session deletion, what `note` says then (how many saves were written).
final class NotingSessions: SessionPersisting {
  let deletions = Mutex<[Int]>([])
  let note: @Sendable () -> Int
  init(note: @escaping @Sendable () -> Int) { self.note = note }
  func save(_ session: Session) throws {}
  func renew(_ session: Session) throws {}
  func isSessionKept(_ session: Session) -> Bool { true }
  func end(_ session: Session) throws {
    let noted = note()
    deletions.withLock { $0.append(noted) }
  }
}

/// Progress whose saves start and then wait until `open()`: a save under way, held.
final class GatedProgress: ProgressService {
  let started = Mutex(0)
  let recorded = Mutex(0)
  private let gate = Mutex(false)

  func open() { gate.withLock { $0 = true } }

  func progress(account: String, classID: String) async throws -> ClassProgress { ClassProgress() }

  func record(_ update: ProgressUpdate) async throws -> ClassProgress {
    started.withLock { $0 += 1 }
    while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(2)) }
    recorded.withLock { $0 += 1 }
    return ClassProgress()
  }

  func watchedPercents(account: String, classes: [DanceClass]) async throws -> [String: Int] {
    [:]
  }
}

enum Fixture {
  /// The id the sessions below carry: progress is filed under it, never under the email.
  static let accountID = "auth0|0123456789abcdef01234567"

  static func session(email: String) -> Session {
    Session(
      token: "token-\(email)", accountID: accountID,
      profile: Profile(
        email: email, gender: .female, mobile: "+60123456789", firstName: "Ada",
        lastName: "Lovelace"),
      gravatarHash: "00")
  }
}

/// A catalog in memory that answers at once: search semantics are the real `SearchText`'s.
struct MemoryCatalog: CatalogService {
  let classes: [DanceClass]

  func page(query: String, offset: Int, limit: Int) async throws -> CatalogPage {
    let terms = SearchText.terms(of: query)
    let matching = classes.filter {
      SearchText.matches(
        terms,
        in: SearchText.searchable(
          title: $0.title, instructor: $0.instructor, level: $0.level, song: $0.song))
    }
    return CatalogPage(
      query: query, offset: offset, classes: Array(matching.dropFirst(offset).prefix(limit)),
      matching: matching.count, isCapped: false, total: classes.count)
  }

  func danceClass(id: String) async throws -> DanceClass? { classes.first { $0.id == id } }

  static let sample = MemoryCatalog(
    classes: [
      ("Hip hop basics", "Suzanne Ratke"), ("Popping drills", "Tanner Jenkins"),
      ("House footwork", "Zoë Park"), ("Krump energy", "Leo Stone"),
    ].enumerated().map { index, item in
      DanceClass(
        id: "id\(index)", title: item.0, instructor: item.1, level: .beginner,
        song: "Song \(index)",
        videoURL: "https://example.com/\(index).mp4", thumbnailSlug: "", duration: 600)
    })
}

extension ImageServices {
  /// For tests that never open Images: a folder that does not exist, no thumbnails.
  static let unused = ImageServices(
    images: DirectoryImageService(
      directory: "/nonexistent/images", clock: ContinuousClock(), latency: .zero),
    thumbnailFolder: nil)
}

/// Watch progress in memory, merging as the store does: the position replaced, the intervals
/// united, the time added. Records every update it was given, in order.
actor MemoryProgress: ProgressService {
  private(set) var stored: [String: ClassProgress] = [:]
  private(set) var updates: [ProgressUpdate] = []
  /// How many updates were recorded, readable without waiting for the actor (from the main
  /// thread while it is blocked).
  nonisolated let recorded = Mutex(0)

  init(_ stored: [String: ClassProgress] = [:]) { self.stored = stored }

  func progress(account: String, classID: String) async throws -> ClassProgress {
    stored[classID] ?? ClassProgress()
  }

  func record(_ update: ProgressUpdate) async throws -> ClassProgress {
    updates.append(update)
    recorded.withLock { $0 += 1 }
    var progress = stored[update.classID] ?? ClassProgress()
    progress.lastPosition = update.position
    progress.watched.formUnion(update.played)
    progress.timeInClass += update.addedTimeInClass
    stored[update.classID] = progress
    return progress
  }

  func watchedPercents(account: String, classes: [DanceClass]) async throws -> [String: Int] {
    var percents: [String: Int] = [:]
    for item in classes {
      if let progress = stored[item.id] { percents[item.id] = progress.watchedPercent(of: item) }
    }
    return percents
  }
}
