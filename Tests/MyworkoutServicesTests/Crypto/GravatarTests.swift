import Testing

@testable import MyworkoutServices

@Suite struct GravatarTests {
  // printf '%s' registered@email.com | sha256sum
  static let registered = "e1dc3fe7a42aeb217a0169da2f700c0391724f3332011d7fb20dce382761dfd9"

  @Test func hashesTheNormalisedAddress() {
    #expect(Gravatar.hash(email: "registered@email.com") == Self.registered)
    #expect(Gravatar.hash(email: "  Registered@EMAIL.com \n") == Self.registered)
    // printf '%s' someone@example.org | sha256sum
    #expect(
      Gravatar.hash(email: "someone@example.org")
        == "79a6123c2db3b110c92f2872d217545dfc5ff5147bbdd47e67e72f223747a538")
  }

  @Test func urlAsksForAnIdenticon() {
    #expect(
      Gravatar.url(email: "registered@email.com")
        == "https://gravatar.com/avatar/\(Self.registered)?d=identicon")
  }
}
