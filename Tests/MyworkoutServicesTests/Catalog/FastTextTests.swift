import Crypto
import MyworkoutCore
import Testing

@testable import MyworkoutServices

/// The import's shortcuts give exactly what the general code gives.
@Suite struct FastTextTests {
  static let corpus = [
    "", " ", "plain", " padded ", "\ttab\n", "Zoë", " Zoe\u{308} ", "\u{00A0}nbsp\u{00A0}",
    "\u{3000}wide\u{3000}", "é", "e\u{301}", "한국", "x\r\n", "~edge~", "\u{7F}del",
  ]

  @Test(arguments: corpus)
  func sameAsTheGeneralCode(_ text: String) {
    #expect(FastText.nfcBytes(text) == text._nfcCodeUnits)
  }

  @Test func hexIsLowercaseTwoDigitsAByte() {
    #expect(FastText.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
    let digest = SHA256.hash(data: Array("x".utf8))
    #expect(FastText.hex(digest) == digest.hexString)
  }
}
