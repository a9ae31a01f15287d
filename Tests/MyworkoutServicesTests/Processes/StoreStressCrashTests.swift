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

/// A writer killed with SIGKILL at any moment leaves every data file whole: the old contents or
/// the new, never a torn file that the next launch would have to move aside (SPEC §7).
@Suite struct StoreStressCrashTests {
  static let rounds = 20

  @Test func writersKilledMidWriteLeaveReadableFiles() async throws {
    try await withTemporaryDirectory { root throws in
      // One directory for every round, so each writer also starts from what the last kill left.
      let directory = try DataDirectory.prepare(path: root + "/data")
      var survivors: Set<String> = []
      for round in 0..<Self.rounds {
        let prefix = "churn\(round)"
        let log = root + "/\(prefix).log"
        let child = try StressTool.start(
          ["churn", directory.path, prefix], errorLog: log, captureOutput: true)
        // `ready` comes once accounts.json, signing.key and session.json have all been written.
        let ready = await child.firstLine(timeout: .seconds(20))
        if ready == "ready" {
          // The randomized delay is the thing under test (where in its write cycle the writer
          // dies), not a wait for something: 0-25 ms spans several write cycles.
          try await Task.sleep(for: .microseconds(Int.random(in: 0...25_000)))
        }
        child.send(SIGKILL)
        let end = await child.wait()
        try #require(ready == "ready", "round \(round): \(StressTool.log(log))")
        #expect(end == .signaled(SIGKILL), "round \(round): \(StressTool.log(log))")

        let emails = try Self.expectWholeFiles(in: directory, round: round)
        // This writer's accounts are 0, 1, 2, ... with no gap: it added them in that order.
        let own = emails.filter { $0.hasPrefix(prefix + "-") }
        #expect(!own.isEmpty, "round \(round) committed nothing before `ready`")
        #expect(own == Set((0..<own.count).map { StressTool.email(prefix, $0) }), "round \(round)")
        // Every account a previous writer had committed is still there.
        #expect(survivors.isSubset(of: emails), "round \(round) lost accounts")
        survivors = emails
      }
      // The store itself reads the result without a notice (nothing to repair).
      let notices = NoticeLog()
      #expect(DataFiles.emails(try makeStore(directory, notices: notices).load()) == survivors)
      #expect(notices.all.isEmpty)
    }
  }

  /// Checks the data files after a kill and returns the addresses in `accounts.json`.
  static func expectWholeFiles(in directory: DataDirectory, round: Int) throws -> Set<String> {
    // Looked at before anything loads them: a torn file would be moved aside to `.corrupt-...`.
    #expect(DataFiles.strangers(in: directory).isEmpty, "round \(round)")
    for name in ["accounts.json", "session.json", "signing.key"] {
      #expect(permissions(directory.path + "/" + name) == 0o600, "round \(round): \(name)")
    }

    let registry: Registry
    do {
      registry = try DataFiles.registry(in: directory)
    } catch {
      Issue.record("round \(round): accounts.json is not a registry: \(error)")
      throw error
    }
    #expect(registry.accounts.first?.profile == SeedAccount.profile, "round \(round)")
    let emails = DataFiles.emails(registry)
    let stress = emails.subtracting([SeedAccount.profile.email])
    #expect(stress.allSatisfy { $0.hasSuffix("@stress.test") }, "round \(round)")

    let signer = TokenSigner(key: try DataFiles.signingKey(in: directory))
    let loaded = SessionStore(directory: directory, signer: signer).load(now: Date())
    #expect(loaded.notice == nil, "round \(round)")
    switch loaded.restored {
    case .none: break
    case .valid(let session):
      // The session is saved after its account: the account is always there already.
      #expect(emails.contains(session.profile.email), "round \(round)")
    case .invalid:
      Issue.record("round \(round): session.json was not a valid session")
    }
    #expect(DataFiles.strangers(in: directory).isEmpty, "round \(round): moved aside")
    return emails
  }
}
