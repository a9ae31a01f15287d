import Dispatch
import MyworkoutCore
import MyworkoutImages
import MyworkoutServices

/// Carries out the reducer's effects. Each request runs as a task under its effect id; several
/// ids may run at once, a new request under a running id supersedes it, and the answer of a
/// cancelled or superseded request never arrives. Session writes go through one serial queue so
/// they happen in the order asked for.
@MainActor
final class EffectRunner {
  private let services: Services
  private let sessions: any SessionPersisting
  private let send: @MainActor (Action) -> Void
  private let quit: @MainActor (Int32) -> Void
  /// The running requests, each with the serial number it was started under.
  private var running: [EffectID: (serial: UInt64, task: Task<Void, Never>)] = [:]
  private var serial: UInt64 = 0
  private let writes = DispatchQueue(label: "myworkout.session-writes")

  /// `send` delivers an answer (and draws it); `quit` restores the terminal and exits.
  init(
    services: Services, sessions: any SessionPersisting,
    send: @escaping @MainActor (Action) -> Void, quit: @escaping @MainActor (Int32) -> Void
  ) {
    self.services = services
    self.sessions = sessions
    self.send = send
    self.quit = quit
  }

  /// The ids of the requests running now.
  var runningIDs: Set<EffectID> { Set(running.keys) }

  func run(_ effect: Effect) {
    switch effect {
    case .run(let id, let request): start(id, request)
    case .cancel(let id): cancel(id)
    case .saveSession(let session): persist { try $0.save(session) }
    case .deleteSession: persist { try $0.delete() }
    case .quit(let status): quit(status)
    }
  }

  private func start(_ id: EffectID, _ request: Request) {
    cancel(id)
    serial &+= 1
    let mine = serial
    let services = self.services
    let task = Task { @MainActor in
      guard let answer = await Self.perform(request, on: services) else { return }
      // Superseded or cancelled meanwhile: this answer is no longer wanted.
      guard self.running[id]?.serial == mine, !Task.isCancelled else { return }
      self.running[id] = nil
      self.send(answer)
    }
    running[id] = (mine, task)
  }

  private func cancel(_ id: EffectID) {
    running.removeValue(forKey: id)?.task.cancel()
  }

  /// Calls the service for a request and returns the action that answers it; nil when the
  /// request was cancelled.
  private static func perform(_ request: Request, on services: Services) async -> Action? {
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
      await answer({ try await service.updateMobile(token: token, mobile: mobile) }) {
        .profile(.editNumberResponse($0))
      }
    case .catalogPage(let query, let offset, let limit):
      await catalogAnswer(query: query, offset: offset) {
        try await services.catalog.page(query: query, offset: offset, limit: limit)
      }
    case .loadLessons, .recordLessonCompletion, .startLessonRound:
      await LessonRequests.perform(request, on: services.lessons)
    case .imageList, .picture, .thumbnail:
      await imageAnswer(request, images: services.images)
    }
  }

  /// The image list, or a picture decoded for a tile (nil: cannot be shown). A decode asked
  /// for and cancelled before it started (scrolled past) is never started.
  private static func imageAnswer(_ request: Request, images: ImageServices) async -> Action? {
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
      guard let file = images.thumbnail(slug) else {
        return .classes(.thumbnailLoaded(slug: slug, nil))
      }
      let outcome = await images.thumbnails.picture(for: file, tile: tile, colors: colors)
      return .classes(.thumbnailLoaded(slug: slug, try? outcome.get()))
    default:
      return nil
    }
  }

  private static func catalogAnswer(
    query: String, offset: Int, _ call: @Sendable () async throws -> CatalogPage
  ) async -> Action? {
    let result: Result<CatalogPage, CatalogError>
    do {
      result = .success(try await call())
    } catch let error as CatalogError {
      result = .failure(error)
    } catch is CancellationError {
      return nil
    } catch {
      result = .failure(.unavailable("\(error)"))
    }
    return .classes(.pageLoaded(query: query, offset: offset, result))
  }

  private static func answer<Value: Sendable>(
    _ call: @Sendable () async throws -> Value,
    _ action: (Result<Value, ServiceError>) -> Action
  ) async -> Action? {
    do {
      return action(.success(try await call()))
    } catch let error as ServiceError {
      return action(.failure(error))
    } catch is CancellationError {
      return nil
    } catch {
      return action(.failure(.storage("Something went wrong: \(error)")))
    }
  }

  private func persist(_ work: @escaping @Sendable (any SessionPersisting) throws -> Void) {
    let sessions = self.sessions
    let send = self.send
    writes.async {
      do {
        try work(sessions)
      } catch {
        DispatchQueue.main.async {
          MainActor.assumeIsolated { send(.noticeRaised("Could not save the session: \(error)")) }
        }
      }
    }
  }

  /// Waits for session writes still queued (before the process exits).
  func finishWrites() {
    writes.sync {}
  }
}

/// The services the effects call: the account service, the catalog, the lessons and the images
/// (embedded mocks in the app, test doubles in tests).
struct Services: Sendable {
  var accounts: any AccountService
  var catalog: any CatalogService
  var lessons: LessonServices
  var images: ImageServices
}

/// Keeping and forgetting the signed-in session (the JSON session store in the app; a
/// recording double in tests).
protocol SessionPersisting: Sendable {
  func save(_ session: Session) throws
  func delete() throws
}

extension SessionStore: SessionPersisting {}
