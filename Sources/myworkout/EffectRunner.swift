import Dispatch
import MyworkoutCore
import MyworkoutServices

/// Carries out the reducer's effects. Requests run as tasks (at most one at a time) and answer
/// with an action on the main actor; a cancelled request's answer is dropped. Session writes go
/// through one serial queue so they happen in the order asked for.
@MainActor
final class EffectRunner {
  private let service: any AccountService
  private let sessions: SessionStore
  private let send: @MainActor (Action) -> Void
  private let quit: @MainActor (Int32) -> Void
  private var request: Task<Void, Never>?
  /// Identifies the current request; an answer carrying an older number is dropped.
  private var generation: UInt64 = 0
  private let writes = DispatchQueue(label: "myworkout.session-writes")

  /// `send` delivers an answer (and draws it); `quit` restores the terminal and exits.
  init(
    service: any AccountService, sessions: SessionStore,
    send: @escaping @MainActor (Action) -> Void, quit: @escaping @MainActor (Int32) -> Void
  ) {
    self.service = service
    self.sessions = sessions
    self.send = send
    self.quit = quit
  }

  func run(_ effect: Effect) {
    let service = self.service
    switch effect {
    case .checkEmail(let email):
      start({ try await service.isRegistered(email: email) }, answer: Action.checkEmailResponse)
    case .logIn(let email, let password):
      start(
        { try await service.logIn(email: email, password: password) }, answer: Action.logInResponse)
    case .signUp(let registration):
      start({ try await service.signUp(registration) }, answer: Action.signUpResponse)
    case .updateMobile(let token, let mobile):
      start(
        { try await service.updateMobile(token: token, mobile: mobile) },
        answer: Action.editNumberResponse)
    case .cancelRequest:
      cancel()
    case .saveSession(let session):
      persist { try $0.save(session) }
    case .deleteSession:
      persist { try $0.delete() }
    case .quit(let status):
      quit(status)
    }
  }

  private func start<Value: Sendable>(
    _ call: @escaping @Sendable () async throws -> Value,
    answer: @escaping (Result<Value, ServiceError>) -> Action
  ) {
    cancel()
    let mine = generation
    request = Task { @MainActor in
      let result: Result<Value, ServiceError>
      do {
        result = .success(try await call())
      } catch let error as ServiceError {
        result = .failure(error)
      } catch is CancellationError {
        return
      } catch {
        result = .failure(.storage("Something went wrong: \(error)"))
      }
      guard mine == self.generation, !Task.isCancelled else { return }
      self.request = nil
      self.send(answer(result))
    }
  }

  private func cancel() {
    generation &+= 1
    request?.cancel()
    request = nil
  }

  private func persist(_ work: @escaping @Sendable (SessionStore) throws -> Void) {
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
