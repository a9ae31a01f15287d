import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct TokenSignerTests {
  let signer = TokenSigner(key: .random())
  let profile = SeedAccount.profile

  var token: String {
    signer.sign(profile, accountID: "auth0|test", issuedAt: fixedNow, lifetime: .seconds(3600))
  }

  @Test func roundTrips() throws {
    #expect(try signer.verify(token, now: fixedNow) == profile)
    #expect(try signer.verify(token, now: fixedNow + 3599) == profile)
  }

  @Test func acceptedUntilIsExactlyTheExpiryAndMatchesVerify() throws {
    let until = try #require(TokenSigner.acceptedUntil(token))
    #expect(until == fixedNow + 3600)
    #expect(try signer.verify(token, now: until - 1) == profile)
    #expect(throws: TokenError.expired) { try signer.verify(token, now: until) }
    #expect(TokenSigner.acceptedUntil("not.a.token") == nil)
  }

  @Test func carriesTheClaims() throws {
    let payload = String(token.split(separator: ".")[1])
    let json = try #require(Base64URL.decode(Substring(payload)))
    let text = String(decoding: json, as: UTF8.self)
    #expect(text.contains(#""sub":"auth0|test""#), "the subject is the account id")
    #expect(text.contains(#""iat":1795270500"#))
    #expect(text.contains(#""exp":1795274100"#))
    #expect(text.contains(#""gender":"female""#))
    #expect(text.contains(#""mobile":"+60123456789""#))
    #expect(text.contains(#""given_name":"Registered""#))
    #expect(text.contains(#""family_name":"User""#))
    let header = try #require(Base64URL.decode(token.split(separator: ".")[0]))
    #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"HS256","typ":"JWT"}"#)
  }

  @Test(arguments: 0..<3) func refusesATamperedPart(part: Int) {
    var parts = token.split(separator: ".").map(String.init)
    var characters = Array(parts[part])
    let middle = characters.count / 2
    characters[middle] = characters[middle] == "A" ? "B" : "A"
    parts[part] = String(characters)
    #expect(throws: TokenError.self) {
      try signer.verify(parts.joined(separator: "."), now: fixedNow)
    }
  }

  @Test func refusesTheLastSignatureCharacterSpelledAnotherWay() {
    // 32 bytes end in a character carrying 2 unused bits: other spellings decode to the same
    // bytes with a lenient decoder.
    var characters = Array(token)
    let last = characters.removeLast()
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    let index = alphabet.firstIndex(of: last)!
    let sibling = alphabet[index ^ 1]
    #expect(throws: TokenError.malformed) {
      try signer.verify(String(characters + [sibling]), now: fixedNow)
    }
  }

  @Test func refusesOtherAlgorithms() {
    let payload = token.split(separator: ".")[1]
    for alg in ["none", "None", "HS512", "RS256"] {
      let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","typ":"JWT"}"#.utf8))
      #expect(throws: TokenError.unsupportedAlgorithm) {
        try signer.verify("\(header).\(payload).", now: fixedNow)
      }
    }
  }

  @Test func refusesAnotherKey() {
    #expect(throws: TokenError.badSignature) {
      try TokenSigner(key: .random()).verify(token, now: fixedNow)
    }
  }

  @Test func refusesTokensFromTheirExpiryWithNoAllowance() throws {
    #expect(try signer.verify(token, now: fixedNow + 3599.999) == profile)
    #expect(throws: TokenError.expired) { try signer.verify(token, now: fixedNow + 3600) }
    #expect(throws: TokenError.expired) {
      try signer.verify(token, now: fixedNow + 3600, leeway: .seconds(3600))
    }
  }

  @Test func refusesTokensIssuedInTheFuture() throws {
    #expect(try signer.verify(token, now: fixedNow - 30) == profile)
    #expect(throws: TokenError.issuedInFuture) { try signer.verify(token, now: fixedNow - 31) }
  }

  @Test(arguments: ["", "abc", "a.b", "a.b.c.d", "..", "e30=.e30=.AA", "e30.e30.AA"])
  func refusesMalformedTokens(token: String) {
    #expect(throws: TokenError.self) { try signer.verify(token, now: fixedNow) }
  }

  @Test(arguments: [
    #"{"sub":"a@b.co","email":"a@b.co","iat":1795270500,"exp":1795274100}"#,
    #"{"sub":"a@b.co","email":"a@b.co","iat":"1795270500","exp":1795274100,"gender":"male","#
      + #""mobile":"+60123456789","given_name":"","family_name":""}"#,
    #"{"sub":"a@b.co","email":"a@b.co","iat":1795270500,"exp":1795274100,"gender":"robot","#
      + #""mobile":"+60123456789","given_name":"","family_name":""}"#,
    #"{"sub":"","email":"a@b.co","iat":1795270500,"exp":1795274100,"gender":"male","#
      + #""mobile":"+60123456789","given_name":"","family_name":""}"#,
    #"{"sub":"auth0|1","email":"","iat":1795270500,"exp":1795274100,"gender":"male","#
      + #""mobile":"+60123456789","given_name":"","family_name":""}"#,
    #"[1,2,3]"#,
  ])
  func refusesMissingOrMistypedClaims(payload: String) {
    let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8)
    let forged = signer.signed(header: header, payload: Data(payload.utf8))
    #expect(throws: TokenError.invalidClaims) { try signer.verify(forged, now: fixedNow) }
  }
}
