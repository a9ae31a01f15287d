// hash-timing: times the app's real password hasher (PBKDF2-HMAC-SHA512 at the app's default
// work factor) for bench/bench.py. One warm-up hash, then 5 timed hashes; prints the median as
// `hash_seconds=<float>` (and the work factor as `iterations=<int>`).
import MyworkoutServices

let hasher = PasswordHasher()
precondition(hasher.iterations >= 210_000, "work factor below OWASP's 210,000 for PBKDF2-SHA512")
let password = "correct horse battery staple"
_ = try hasher.hash(password)

let clock = ContinuousClock()
var seconds: [Double] = []
for _ in 0..<5 {
  let elapsed = try clock.measure { _ = try hasher.hash(password) }
  seconds.append(
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}
seconds.sort()
print("hash_seconds=\(seconds[seconds.count / 2])")
print("iterations=\(hasher.iterations)")
