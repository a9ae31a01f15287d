// store-stress: a test helper (Tests/MyworkoutServicesTests/Processes) that drives the real
// account and session stores from separate processes, so that tests can run several at once or
// kill one with SIGKILL in the middle of its writes.
//
//   store-stress signup <data-dir> <prefix> <count>
//       signs up <prefix>-<i>@stress.test for i in 0..<count (MockAccountService, no latency);
//       exit 0 when all are written, 1 (message on standard error) otherwise.
//   store-stress churn <data-dir> <prefix>
//       adds <prefix>-<i>@stress.test accounts one after another and saves a session after each,
//       forever; prints `ready` on standard output once the first round is written.

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch (arguments.first, arguments.count) {
  case ("signup", 4):
    guard let count = Int(arguments[3]), count >= 0 else {
      fail("count must be a whole number, got \(arguments[3])")
    }
    try await Stress(path: arguments[1], prefix: arguments[2]).signUp(count: count)
  case ("churn", 3):
    try await Stress(path: arguments[1], prefix: arguments[2]).churn()
  default:
    fail(
      """
      usage: store-stress signup <data-dir> <prefix> <count>
             store-stress churn <data-dir> <prefix>
      """)
  }
} catch {
  fail(String(describing: error))
}
