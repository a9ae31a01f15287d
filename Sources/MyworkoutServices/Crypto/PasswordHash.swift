/// A stored password: the algorithm and work factor it was hashed with (so the work factor can
/// be raised later without breaking old accounts), the salt and the derived key, both base64.
package struct PasswordHash: Codable, Equatable, Sendable {
  package var algorithm: String
  package var iterations: Int
  package var salt: String
  package var hash: String

  package init(algorithm: String, iterations: Int, salt: String, hash: String) {
    self.algorithm = algorithm
    self.iterations = iterations
    self.salt = salt
    self.hash = hash
  }
}
