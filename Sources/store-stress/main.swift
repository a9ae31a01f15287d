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
//   store-stress progress <data-dir> <account> <class> <lane> <lanes> <count>
//       records <count> one-second intervals of lane <lane> of <lanes> (ProgressStress) for
//       <account> and <class> in progress.sqlite; exit 0 when all are saved.

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
  case ("progress", 7):
    guard let lane = Int(arguments[4]), let lanes = Int(arguments[5]),
      let count = Int(arguments[6]),
      lanes > 0, (0..<lanes).contains(lane), count >= 0
    else { fail("lane, lanes and count must be whole numbers, lane below lanes") }
    try await ProgressStress(path: arguments[1], account: arguments[2], classID: arguments[3])
      .play(lane: lane, of: lanes, count: count)
  default:
    fail(
      """
      usage: store-stress signup <data-dir> <prefix> <count>
             store-stress churn <data-dir> <prefix>
             store-stress progress <data-dir> <account> <class> <lane> <lanes> <count>
      """)
  }
} catch {
  fail(String(describing: error))
}
