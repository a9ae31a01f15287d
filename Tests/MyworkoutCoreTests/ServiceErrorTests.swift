import Testing

@testable import MyworkoutCore

/// Every service error with the exact line a person reads for it (SPEC §4 and §15).
private let messages: [(ServiceError, String)] = [
  (.noAccount, "No account exists for this email"),
  (.wrongCredentials, "Wrong email or password"),
  (.emailExists, "Email already exists"),
  (.sessionExpired, "Your session has expired. Please log in again."),
  (.unauthorized, "Your session has expired. Please log in again."),
  (.invalidMobile, "Mobile number is not valid"),
  (.rateLimited, "Too many attempts. Try again in a minute."),
  (.network, "Can't reach the server. Try again."),
  (.timedOut, "The server did not answer. Try again."),
  (.server(status: 500), "The server had a problem. Try again."),
  (.server(status: 503), "The server had a problem. Try again."),
  (
    .dataFolderGone(path: "/home/ada/.myworkout"),
    "The data folder /home/ada/.myworkout is gone; it will be recreated"
  ),
  (.storage("Could not write session.json: disk full"), "Could not write session.json: disk full"),
]

@Suite struct ServiceErrorTests {
  @Test(arguments: messages)
  func messageIsTheLineShown(error: ServiceError, text: String) {
    #expect(error.message == text)
    #expect(!error.message.contains("\n"), "one line in the error label")
  }

  @Test func everyCaseIsInTheTable() {
    // Exhaustive on purpose: a new case does not compile here until the table above has it.
    func name(_ error: ServiceError) -> String {
      switch error {
      case .noAccount: "noAccount"
      case .wrongCredentials: "wrongCredentials"
      case .emailExists: "emailExists"
      case .sessionExpired: "sessionExpired"
      case .invalidMobile: "invalidMobile"
      case .unauthorized: "unauthorized"
      case .rateLimited: "rateLimited"
      case .network: "network"
      case .timedOut: "timedOut"
      case .server: "server"
      case .dataFolderGone: "dataFolderGone"
      case .storage: "storage"
      }
    }
    #expect(Set(messages.map { name($0.0) }).count == 12)
  }

  @Test func theTextsAreTheMessagesTheFormsUse() {
    #expect(ServiceError.noAccount.message == Message.noAccount)
    #expect(ServiceError.wrongCredentials.message == Message.wrongCredentials)
    #expect(ServiceError.emailExists.message == Message.emailExists)
    #expect(ServiceError.sessionExpired.message == Message.sessionExpired)
    #expect(ServiceError.invalidMobile.message == Message.mobileNotValid)
    #expect(ServiceError.rateLimited.message == Message.rateLimited)
    #expect(ServiceError.network.message == Message.noConnection)
    #expect(ServiceError.timedOut.message == Message.timedOut)
    #expect(ServiceError.server(status: 502).message == Message.serverProblem)
  }
}
