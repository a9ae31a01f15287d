import Foundation
import MyworkoutCore
import MyworkoutServices
import Testing

extension EndToEnd {
  /// Sessions that are expired or tampered with, and damaged files, met on relaunch (SPEC §7).
  @Suite(.timeLimit(.minutes(2)))
  struct SessionTests {
    static let profile = Profile(
      email: "registered@email.com", gender: .female, mobile: "+60123456789",
      firstName: "Registered", lastName: "User")

    /// Writes a session signed with the data directory's own key, issued at `issuedAt`.
    func saveSession(in app: TerminalSession, issuedAt: Date, lifetime: Duration) throws
      -> String
    {
      let directory = try DataDirectory.prepare(path: app.dataDirectory.path)
      let signer = TokenSigner(key: try SigningKey.load(in: directory, now: Date()).key)
      let token = signer.sign(
        Self.profile, accountID: "auth0|test", issuedAt: issuedAt, lifetime: lifetime)
      try SessionStore(directory: directory, signer: signer).save(
        Session(token: token, accountID: "auth0|ada", profile: Self.profile, gravatarHash: ""))
      return token
    }

    var sessionFile: (TerminalSession) -> URL {
      { $0.dataDirectory.appendingPathComponent("session.json") }
    }

    @Test func anExpiredSessionShowsTheMessageAndIsCleared() throws {
      let app = try TerminalSession()
      _ = try saveSession(
        in: app, issuedAt: Date().addingTimeInterval(-7200), lifetime: .seconds(3600))
      try app.launch()
      let screen = try app.waitFor("Your session has expired. Please log in again.")
      #expect(screen.contains("Profile"))
      #expect(!screen.contains("registered@email.com"), "no email without a valid session")
      #expect(!FileManager.default.fileExists(atPath: sessionFile(app).path))
      try app.press("Enter")
      try app.waitFor("Myworkout GO")
    }

    @Test func aTamperedSessionIsRefused() throws {
      let app = try TerminalSession()
      let token = try saveSession(in: app, issuedAt: Date(), lifetime: .seconds(3600))
      // Claim another email in the payload, keeping the signature: the signature no longer fits.
      let parts = token.split(separator: ".").map(String.init)
      var payload = parts[1]
      payload = String(payload.dropLast()) + (payload.last == "A" ? "B" : "A")
      let forged = [parts[0], payload, parts[2]].joined(separator: ".")
      var text = try String(contentsOf: sessionFile(app), encoding: .utf8)
      text = text.replacingOccurrences(of: token, with: forged)
      try text.write(to: sessionFile(app), atomically: true, encoding: .utf8)
      try app.launch()
      try app.waitFor("Your session has expired. Please log in again.")
    }

    @Test func aSessionExpiringWhileProfileIsShownTurnsIntoTheMessage() throws {
      let app = try TerminalSession()
      // Accepted until its exp, about two more seconds from now.
      let issued = Date().addingTimeInterval(-60 + 2)
      _ = try saveSession(in: app, issuedAt: issued, lifetime: .seconds(60))
      try app.launch()
      try app.waitFor("Log out")
      try app.waitFor("Your session has expired. Please log in again.", timeout: 8)
      try app.waitUntil("the session file removed") { _ in
        !FileManager.default.fileExists(atPath: sessionFile(app).path)
      }
    }

    /// SPEC §4 (Profile, session missing): a log-out in another copy of the app removes the
    /// session; this copy's number edit then says the session expired, is not made, and writes
    /// no session again (a walk-through's edit brought the logged-out session back).
    @Test func anEditAfterALogOutElsewhereSaysTheSessionExpired() throws {
      let app = try TerminalSession()
      _ = try saveSession(in: app, issuedAt: Date(), lifetime: .seconds(3600))
      try app.launch(["--latency", "0s"])
      try app.waitFor("Log out")
      try FileManager.default.removeItem(at: sessionFile(app))
      try app.press("e")
      try app.waitFor("Edit mobile number")
      try app.press("C-u")
      try app.type("011-1234 5678")
      try app.press("Enter")
      try app.waitFor("Your session has expired. Please log in again.")
      try app.press("q")
      #expect(try app.waitForExit() == 0)
      #expect(!FileManager.default.fileExists(atPath: sessionFile(app).path))
      // The registry (written at its first change) does not hold the number.
      let accounts = try? String(
        contentsOf: app.dataDirectory.appendingPathComponent("accounts.json"), encoding: .utf8)
      #expect(accounts?.contains("+601112345678") != true, "the number is not changed")
      try app.launch()
      try app.waitFor("Myworkout GO")
    }

    @Test func aValidSessionOpensProfileFromItsClaims() throws {
      let app = try TerminalSession()
      _ = try saveSession(in: app, issuedAt: Date(), lifetime: .seconds(3600))
      try app.launch()
      let screen = try app.waitFor("Log out")
      #expect(screen.contains("registered@email.com"))
      #expect(screen.contains("Registered User"))
    }

    @Test func theSessionLifetimeOptionIsCheckedAndUsed() throws {
      let app = try TerminalSession()
      try app.launch(["--session-lifetime", "soon"])
      try app.waitFor("not a duration")
      #expect(try app.waitForExit() != 0)

      try app.launch(["--session-lifetime", "2h"])
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.press("q")
      _ = try app.waitForExit()
      let file = try Data(contentsOf: sessionFile(app))
      let json = try JSONSerialization.jsonObject(with: file) as? [String: Any]
      let token = try #require(json?["token"] as? String)
      let payload = try #require(Self.decodePayload(token))
      let lifetime = try #require(payload["exp"] as? Int) - (payload["iat"] as? Int ?? 0)
      #expect(lifetime == 7200)
      #expect(payload["email"] as? String == "registered@email.com")
      #expect(!String(decoding: file, as: UTF8.self).contains("password"))
    }

    @Test func aDamagedRegistryIsMovedAsideAndTheAppGoesOn() throws {
      let app = try TerminalSession()
      try FileManager.default.createDirectory(
        at: app.dataDirectory, withIntermediateDirectories: true)
      let accounts = app.dataDirectory.appendingPathComponent("accounts.json")
      try Data("{\"version\":1,\"accounts\":[{\"prof".utf8).write(to: accounts)
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.type("registered@email.com")
      try app.press("Enter")
      let screen = try app.waitFor("moved it aside")
      #expect(screen.contains("accounts.json"))
      try app.waitFor("Welcome back")
      let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
      let aside = try #require(names.first { $0.hasPrefix("accounts.json.corrupt-") })
      let kept = try String(
        contentsOf: app.dataDirectory.appendingPathComponent(aside), encoding: .utf8)
      #expect(kept == "{\"version\":1,\"accounts\":[{\"prof", "the damaged bytes are kept")
    }

    static func decodePayload(_ token: String) -> [String: Any]? {
      let parts = token.split(separator: ".")
      guard parts.count == 3 else { return nil }
      var base64 = parts[1].replacingOccurrences(of: "-", with: "+")
        .replacingOccurrences(of: "_", with: "/")
      while base64.count % 4 != 0 { base64 += "=" }
      guard let data = Data(base64Encoded: base64) else { return nil }
      return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
  }
}
