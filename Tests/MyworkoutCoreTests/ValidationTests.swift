import TestProcesses
import Testing

@testable import MyworkoutCore

@Suite struct EmailTests {
  /// An ASCII address is checked by its bytes; the answer is the one the character-by-character
  /// rules give, for random texts made of what addresses are made of (and what breaks them).
  @Test func anASCIIAddressIsJudgedAsByItsCharacters() {
    let seed = UInt64.random(in: 1...UInt64.max)
    print("EmailTests seed \(seed)")
    var generator = SplitMix64(seed: seed)
    let pieces = [
      "a", "Z", "7", "@", ".", "-", "_", "+", "!", "~", " ", "\t", "\r\n", "\u{7F}", "(", "[",
      "\"", "..", "co", "@b.com", "x.", ".y", "-z", "q-", "\u{0B}", "\u{0C}", "\u{1C}",
    ]
    for _ in 0..<5_000 {
      let count = Int(generator.next() % 9)
      let text = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
        .joined()
      let email = text.trimmingWhitespace()
      #expect(
        Email.isValidASCII(Array(email.utf8)) == Email.isValidText(email),
        "seed \(seed): \(text.debugDescription)")
      #expect(
        Email.isValid(text) == Email.isValidText(email),
        "seed \(seed): \(text.debugDescription) (trimmed by bytes)")
    }
    let long = String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 63) + ".io"
    for text in [long, "a" + long, String(long.dropLast(4)) + "b.io"] {
      #expect(Email.isValidASCII(Array(text.utf8)) == Email.isValidText(text), "\(text)")
    }
    // At RFC 5321's 254 bytes and one past, with white space around (trimmed by bytes).
    let domain = String(repeating: "b", count: 63) + "." + String(repeating: "c", count: 63) + "."
    let longest =
      String(repeating: "a", count: 64) + "@" + domain + String(repeating: "d", count: 61)
    #expect(longest.utf8.count == 254)
    #expect(Email.isValid(" \t" + longest + "\r\n"))
    #expect(!Email.isValid(" \t" + longest + "d\r\n"), "255 bytes")
  }

  /// Trimming by the ends' bytes, where both are printable ASCII, trims what the characters'
  /// rule trims.
  @Test func whiteSpaceIsTrimmedAsByItsCharacters() {
    func reference(_ text: String) -> String {
      var slice = text[...]
      while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
      while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
      return String(slice)
    }
    let seed = UInt64.random(in: 1...UInt64.max)
    print("trimming seed \(seed)")
    var generator = SplitMix64(seed: seed)
    let pieces = [
      "a", "~", "!", " ", "\t", "\r\n", "\u{0B}", "\u{1C}", "\u{7F}", "\u{85}", "\u{A0}",
      "\u{2028}", "\u{3000}", "\u{301}", "\u{600}", "é", "🙂",
    ]
    for _ in 0..<5_000 {
      let count = Int(generator.next() % 7)
      let text = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
        .joined()
      #expect(
        text.trimmingWhitespace() == reference(text), "seed \(seed): \(text.debugDescription)")
      #expect(
        text.trimmingWhitespace().utf8.elementsEqual(reference(text).utf8),
        "seed \(seed): \(text.debugDescription), as bytes")
    }
  }

  @Test(arguments: [
    "registered@email.com", "  Registered@Email.COM ", "a.b+c@sub.example.co", "zoë@exämple.de",
    "x@y.io",
  ])
  func valid(_ email: String) { #expect(Email.isValid(email)) }

  @Test(arguments: [
    "", "   ", "plain", "@email.com", "a@", "a@b", "a@b.c", "a@@b.com", "a b@c.com", "a@b..com",
    "a@-b.com", "a@b.c0m", ".a@b.com", "a.@b.com", "a@b.com\n",
  ])
  func invalid(_ email: String) {
    if email == "a@b.com\n" {
      #expect(Email.isValid(email), "surrounding white space is trimmed")
    } else {
      #expect(!Email.isValid(email))
    }
  }

  /// RFC 5321 bounds an address in octets (254, its local part 64): counted in characters, one
  /// `z` with 200,000 combining marks passed as 8 characters, was signed up on the server and
  /// signed into a token of 1 MB.
  @Test func anAddressIsBoundedInBytes() {
    #expect(!Email.isValid("z" + String(repeating: "\u{301}", count: 200_000) + "@ex.com"))
    #expect(!Email.isValid("é" + String(repeating: "a", count: 63) + "@ex.com"), "65-byte local")
    #expect(Email.isValid(String(repeating: "a", count: 64) + "@ex.com"))
    let domain = String(repeating: "b", count: 60) + "."
    let long = String(repeating: "a", count: 64) + "@" + String(repeating: domain, count: 3)
    #expect(Email.isValid(long + "c.com"), "253 bytes")
    #expect(!Email.isValid(long + "éc.com"), "255 bytes")
  }

  @Test func normalizesForComparison() {
    #expect(Email.normalized("  Registered@EMAIL.com\t") == "registered@email.com")
  }
}

@Suite struct PasswordTests {
  @Test func exactlyEightWithSpecialIsStrong() { #expect(Password.isStrong("passwor!")) }
  @Test func sevenIsWeak() { #expect(!Password.isStrong("passw!d")) }
  @Test func noSpecialIsWeak() { #expect(!Password.isStrong("password123")) }
  @Test func spaceIsNotSpecial() { #expect(!Password.isStrong("pass word")) }
  @Test func unicodeCountsCharacters() {
    #expect(Password.isStrong("pässwörd€"))
    #expect(!Password.isStrong("中文中文中文!"), "7 characters")
    #expect(Password.isStrong("中文中文中文中!"))
  }
  @Test func seededPasswordIsWeakButLoginDoesNotCare() {
    #expect(!Password.isStrong("password"))
    var form = LoginForm(email: "registered@email.com")
    form.password = TextInput("password")
    #expect(form.problem == nil)
  }
}

@Suite struct MobileNumberTests {
  @Test(arguments: [
    ("012-345 6789", "+60123456789"), ("0123456789", "+60123456789"),
    ("+60 12-345 6789", "+60123456789"), ("+60 12 345 6789", "+60123456789"),
    ("011-1234 5678", "+601112345678"), ("60123456789", "+60123456789"),
    ("019 876 5432", "+60198765432"), ("015-4000 1234", "+601540001234"),
    (" 012-3456789 ", "+60123456789"),
  ])
  func accepted(_ written: String, _ normalized: String) {
    #expect(MobileNumber.normalized(written) == normalized)
  }

  @Test(arguments: [
    "", "   ", "12345", "012-345 678", "012-345 67890", "011-123 4567", "03-1234 5678",
    "+61 12 345 6789", "+6012a3456789", "012--345 6789", "-0123456789", "０１２３４５６７８９",
    "+60 ", "0123456789 ext 2",
  ])
  func rejected(_ written: String) { #expect(MobileNumber.normalized(written) == nil) }

  @Test func displaysReadably() {
    #expect(MobileNumber.display("+60123456789") == "+60 12-345 6789")
    #expect(MobileNumber.display("+601112345678") == "+60 11-1234 5678")
  }
}

@Suite struct FormProblemTests {
  @Test func getStartedRefusesEmptyAndMalformedAtTheEmail() {
    #expect(Refusal(GetStartedForm().problem) == Refusal("Email is not valid", at: .email))
    #expect(
      Refusal(GetStartedForm(email: "nope").problem) == Refusal("Email is not valid", at: .email))
    #expect(GetStartedForm(email: "a@b.co").problem == nil)
  }

  @Test func loginRulesInScreenOrder() {
    var form = LoginForm(email: "")
    #expect(Refusal(form.problem) == Refusal("All fields are required", at: .email))
    form.email = TextInput("bad")
    #expect(Refusal(form.problem) == Refusal("Email is not valid", at: .email))
    form.email = TextInput("a@b.co")
    #expect(Refusal(form.problem) == Refusal("All fields are required", at: .password))
    form.password = TextInput("x")
    #expect(form.problem == nil)
  }

  @Test func signupRulesInScreenOrder() {
    var form = SignupForm(email: "")
    #expect(Refusal(form.problem) == Refusal("Please complete the form", at: .email))
    form.email = TextInput("bad")
    #expect(Refusal(form.problem) == Refusal("Email is not valid", at: .email))
    form.email = TextInput("new@email.com")
    #expect(Refusal(form.problem) == Refusal("Please complete the form", at: .password))
    form.password = TextInput("short!")
    #expect(
      Refusal(form.problem)
        == Refusal(
          "Password should contain one special character and minimum 8 characters required",
          at: .password))
    form.password = TextInput("longer!!")
    #expect(Refusal(form.problem) == Refusal("Please select a gender", at: .gender))
    form.gender = .male
    #expect(Refusal(form.problem) == Refusal("Please complete the form", at: .mobile))
    form.mobile = TextInput("12345")
    #expect(Refusal(form.problem) == Refusal("Mobile number is not valid", at: .mobile))
    form.mobile = TextInput("012-345 6789")
    #expect(form.problem == nil, "first and last name are optional")
  }

  @Test func editNumberRule() {
    #expect(
      Refusal(EditNumberDialog(mobile: "").problem)
        == Refusal("Mobile number is not valid", at: .mobile))
    #expect(
      Refusal(EditNumberDialog(mobile: "0123").problem)
        == Refusal("Mobile number is not valid", at: .mobile))
    #expect(EditNumberDialog(mobile: "011-1234 5678").problem == nil)
  }

  @Test func fieldColoursNeutralUntilTouched() {
    var form = SignupForm(email: "")
    #expect(form.validity(of: .email) == .neutral)
    form.email.insert("x")
    #expect(form.validity(of: .email) == .invalid)
    form.email.insert("@y.io")
    #expect(form.validity(of: .email) == .valid)
    #expect(form.validity(of: .gender) == .neutral)
    form.gender = .female
    #expect(form.validity(of: .gender) == .valid)
  }

  @Test func anUntouchedGenderTurnsRedOnlyAfterItsRefusal() {
    var form = SignupForm(email: "new@email.com")
    form.phase = .invalid(Message.completeTheForm)
    #expect(form.validity(of: .gender) == .neutral)
    form.phase = .invalid(Message.selectGender)
    #expect(form.validity(of: .gender) == .invalid)
    form.gender = .male
    #expect(form.validity(of: .gender) == .valid)
  }

  @Test func loginAndDialogColours() {
    var login = LoginForm(email: "")
    #expect(login.validity(of: .email) == .neutral)
    #expect(login.validity(of: .password) == .neutral)
    login.password.insert("x")
    #expect(login.validity(of: .password) == .valid)
    login.password.deleteBackward()
    #expect(login.validity(of: .password) == .invalid)
    #expect(login.validity(of: .logIn) == .neutral)
    #expect(EditNumberDialog(mobile: "").validity(of: .mobile) == .neutral)
    #expect(EditNumberDialog(mobile: "0123").validity(of: .mobile) == .invalid)
    #expect(EditNumberDialog(mobile: "+60 12-345 6789").validity(of: .mobile) == .valid)
  }
}
