import MyworkoutCore

/// The one account a fresh registry holds (SPEC §3).
package enum SeedAccount {
  package static let password = "password"
  package static let profile = Profile(
    email: "registered@email.com", gender: .female, mobile: "+60123456789",
    firstName: "Registered", lastName: "User")
}
