import MyworkoutCore
import MyworkoutRemote
import MyworkoutServer
import MyworkoutServices
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The Auth0 account client (`--auth0-domain`) speaks the request shapes myworkout-server
/// answers as Auth0 does; here it talks to our server (over loopback http instead of a tenant).
@Suite struct Auth0AccountServiceTests {
  static let registration = Registration(
    password: "Secret-123",
    profile: Profile(
      email: "tenant@example.com", gender: .male, mobile: "0123456780", firstName: "Ten",
      lastName: "Ant"))

  @Test func logsInSignsUpAndSaysWrongCredentialsForAnUnknownEmail() async throws {
    try await withLiveServer { url, _ in
      let credentials = RemoteCredentials()
      let accounts = Auth0AccountService(
        server: RemoteServer(baseURL: url), clientID: "tenant-client",
        connection: "Username-Password-Authentication", credentials: credentials)
      // Auth0 cannot say: Get started goes to Login.
      #expect(try await accounts.isRegistered(email: "nobody@example.com"))
      let session = try await accounts.logIn(email: "registered@email.com", password: "password")
      #expect(session.profile == SeedAccount.profile)
      await #expect(throws: ServiceError.wrongCredentials) {
        try await accounts.logIn(email: "nobody@example.com", password: "password")
      }
      let created = try await accounts.signUp(Self.registration)
      #expect(created.profile.email == "tenant@example.com")
      #expect(created.profile.mobile == "+60123456780")
      await #expect(throws: ServiceError.emailExists) {
        try await accounts.signUp(Self.registration)
      }
      await #expect(throws: ServiceError.storage(Auth0AccountService.editNumberUnavailable)) {
        try await accounts.updateMobile(token: created.token, mobile: "0123456789")
      }
    }
  }

  @Test func theSessionIsKeptWithTheKeysAndVerifiedOffline() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let saved = try await withLiveServerReturning { url, _ in
        let credentials = RemoteCredentials()
        let accounts = RemoteAccountService(
          server: RemoteServer(baseURL: url), credentials: credentials)
        let session = try await accounts.logIn(email: "registered@email.com", password: "password")
        let store = RemoteSessionStore(directory: directory, server: url, credentials: credentials)
        try store.save(session)
        return (url, session)
      }
      // The server is gone: the kept keys verify the token.
      let reloaded = RemoteSessionStore(
        directory: directory, server: saved.0, credentials: RemoteCredentials())
      #expect(reloaded.load(now: Date()) == SessionLoad(restored: .valid(saved.1)))
      // Another server's session (or the same one spelled otherwise, `localhost` for
      // `127.0.0.1`) is not used, and not deleted either: it is merely not for this launch.
      let spelled = saved.0.replacingOccurrences(of: "127.0.0.1", with: "localhost")
      for server in ["http://127.0.0.1:1", spelled] {
        let other = RemoteSessionStore(
          directory: directory, server: server, credentials: RemoteCredentials())
        #expect(other.load(now: Date()) == SessionLoad(restored: .none))
      }
      #expect(reloaded.load(now: Date()) == SessionLoad(restored: .valid(saved.1)))
      // Kept until a log-out in any copy of the app removes the file.
      #expect(reloaded.isSessionKept(saved.1))
      // A device clock a day behind the server's: the token looks issued in the future; the
      // server is the judge of that, so the session is kept and used.
      #expect(
        reloaded.load(now: Date().addingTimeInterval(-86_400))
          == SessionLoad(restored: .valid(saved.1)))
      // One that has expired by this clock is over, as before.
      #expect(
        reloaded.load(now: Date().addingTimeInterval(400 * 86_400))
          == SessionLoad(restored: .invalid))
      #expect(!reloaded.isSessionKept(saved.1), "removed")
    }
  }

  /// A `remote-session.json` that cannot be read (cut short, not JSON, a version this build
  /// does not know) is moved aside and said, as embedded mode does with `session.json` (SPEC
  /// §7: never deleted silently). A walk-through's cut file was deleted without a word.
  @Test(arguments: [#"{"version":1,"server":"http://s","idTok"#, "not json", #"{"version":2}"#])
  func anUnreadableRemoteSessionIsMovedAsideAndSaid(content: String) async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let path = directory.path + "/remote-session.json"
      try Data(content.utf8).write(to: URL(fileURLWithPath: path))
      let store = RemoteSessionStore(
        directory: directory, server: "http://s", credentials: RemoteCredentials())
      let load = store.load(now: Date())
      #expect(load.restored == .invalid)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      let kept = try #require(files.first { $0.hasPrefix("remote-session.json.corrupt-") })
      #expect(try String(contentsOfFile: directory.path + "/" + kept, encoding: .utf8) == content)
      #expect(
        load.notice
          == "remote-session.json could not be read; moved it aside to \(kept); please log in again"
      )
    }
  }

  /// A renewal (a number edited) in one copy of remote mode does not replace another copy's
  /// later log-in of someone else on the same data directory: a walk-through's edit in copy A
  /// (alice) put alice back where copy B had logged bob in, and the next launch opened alice.
  @Test func aRemoteRenewalDoesNotReplaceAnotherAccountsLogIn() async throws {
    try await withLiveServer { url, _ in
      try await withTemporaryDirectory { root in
        let directory = try DataDirectory.prepare(path: root + "/app")
        let credentials = RemoteCredentials()
        let accounts = RemoteAccountService(
          server: RemoteServer(baseURL: url), credentials: credentials)
        let store = RemoteSessionStore(directory: directory, server: url, credentials: credentials)
        let alice = try await accounts.logIn(email: "registered@email.com", password: "password")
        try store.save(alice)
        var renewed = alice
        renewed.profile.mobile = "+60111111111"
        try store.renew(renewed)
        #expect(try Self.keptSubject(directory) == alice.accountID, "her own file is renewed")
        credentials.signedOut()
        let bob = try await accounts.signUp(Self.registration)
        try store.save(bob)
        try store.renew(renewed)
        #expect(try Self.keptSubject(directory) == bob.accountID, "bob's log-in stays")
        try store.delete()
        try store.renew(renewed)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/remote-session.json"))
      }
    }
  }

  /// Remote mode as embedded mode: another account's later log-in in another copy ends this
  /// copy's session (not kept: its edits and lessons say it expired), and this copy's log-out
  /// or expiry leaves that log-in alone (a walk-through's log-out in copy A removed copy B's).
  @Test func anotherAccountsLogInEndsThisSessionAndOutlivesItsLogOut() async throws {
    try await withLiveServer { url, _ in
      try await withTemporaryDirectory { root in
        let directory = try DataDirectory.prepare(path: root + "/app")
        let credentials = RemoteCredentials()
        let accounts = RemoteAccountService(
          server: RemoteServer(baseURL: url), credentials: credentials)
        let store = RemoteSessionStore(directory: directory, server: url, credentials: credentials)
        let alice = try await accounts.logIn(email: "registered@email.com", password: "password")
        #expect(!store.isSessionKept(alice), "nothing kept")
        try store.save(alice)
        #expect(store.isSessionKept(alice))
        credentials.signedOut()
        let bob = try await accounts.signUp(Self.registration)
        try store.save(bob)
        #expect(!store.isSessionKept(alice), "bob logged in since")
        #expect(store.isSessionKept(bob))
        try store.end(alice)
        #expect(try Self.keptSubject(directory) == bob.accountID, "bob's log-in stays")
        let elsewhere = RemoteSessionStore(
          directory: directory, server: "http://127.0.0.1:1", credentials: RemoteCredentials())
        #expect(!elsewhere.isSessionKept(bob), "another server's session is not this one")
        try elsewhere.end(bob)
        #expect(try Self.keptSubject(directory) == bob.accountID, "nor this copy's to end")
        try store.end(bob)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/remote-session.json"))
      }
    }
  }

  static func keptSubject(_ directory: DataDirectory) throws -> String? {
    struct Kept: Decodable { var idToken: String }
    let data = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/remote-session.json"))
    return RemoteSessionStore.subject(of: try JSONDecoder().decode(Kept.self, from: data).idToken)
  }
}
