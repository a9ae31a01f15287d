import Clocks
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

/// A read refused for the session itself (the server answers 401 to the signed-in person's
/// token: its data started over, its keys changed) ends the session as a refused change does:
/// `Your session has expired. Please log in again.` (SPEC §4). A walk-through's restarted
/// server showed the person's classes at 0 % and the Player at 00:00, `Watched 0%`, until a
/// save was refused.
@Suite struct ReadRefusalTests {
  typealias Statuses = OutboxAccountTests.Statuses

  @Test func aReadRefusedForTheSessionSaysTheSessionEnded() async throws {
    try await withLiveServer { url, _ in
      try await withTemporaryDirectory { root in
        let directory = try DataDirectory.prepare(path: root + "/app")
        let credentials = RemoteCredentials()
        let server = RemoteServer(baseURL: url)
        let accounts = RemoteAccountService(server: server, credentials: credentials)
        let session = try await accounts.logIn(email: "registered@email.com", password: "password")
        let statuses = Statuses()
        let progress = OutboxProgressService(
          remote: RemoteProgressService(server: server, credentials: credentials),
          directory: directory, server: url, clock: TestClock<Duration>(),
          backoff: Backoff(random: { 0 }), onStatus: statuses.add)
        let account = session.accountID
        // Readable while the token is one the server knows.
        _ = try await progress.progress(account: account, classID: "c1")
        #expect(!statuses.all.contains { $0.sessionRefused })
        // The server no longer takes the token.
        credentials.signedIn(
          .init(
            idToken: session.token, accessToken: "not.a.token",
            owner: .init(accountID: account, email: session.profile.email)), keys: nil)
        let danceClass = DanceClass(
          id: "c1", title: "A", instructor: "B", level: .beginner, song: "C", videoURL: "",
          thumbnailSlug: "", duration: 60)
        await #expect(throws: (any Error).self) {
          try await progress.progress(account: account, classID: "c1")
        }
        #expect(statuses.all.last?.sessionRefused == true, "\(statuses.all)")
        #expect(statuses.all.last?.account == account)
        let reads = statuses.all.count
        _ = try? await progress.watchedPercents(account: account, classes: [danceClass])
        _ = try? await progress.completions(account: account)
        #expect(statuses.all.count == reads + 2, "each refused read says so")
        #expect(statuses.all.suffix(2).allSatisfy { $0.sessionRefused })
      }
    }
  }
}
