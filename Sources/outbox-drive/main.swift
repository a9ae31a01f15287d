// outbox-drive: remote mode's outbox without the screen, for the tests and bench/bench.py
// (SPEC §18). It logs in to a myworkout-server as the sample account, then:
//
//   outbox-drive queue <server-url> <data-dir> <class> <count>
//       writes <count> progress changes for <class> to the account's outbox (nothing sent):
//       change i plays [i, i+1) seconds and adds 1 s of time in class.
//   outbox-drive drain <server-url> <data-dir>
//       sends what the outbox holds, as the app does, and prints
//       `drained <count> changes in <seconds> s` once it is empty (exit 1 when the server
//       refused some, put aside).
//
// A `drain` killed with SIGKILL at any moment loses nothing and counts nothing twice: that is
// what the process tests check.

import MyworkoutCore
import MyworkoutRemote
import MyworkoutServices

#if canImport(Glibc)
  import Glibc
#endif

func fail(_ message: String) -> Never {
  let bytes = Array("outbox-drive: \(message)\n".utf8)
  _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
  exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, ["queue", "drain"].contains(arguments[0]) else {
  fail(
    """
    usage: outbox-drive queue <server-url> <data-dir> <class> <count>
           outbox-drive drain <server-url> <data-dir>
    """)
}
let url = arguments[1]
let directory = try DataDirectory.prepare(path: arguments[2])
let server = RemoteServer(baseURL: url)
let credentials = RemoteCredentials()
let session: Session
do {
  session = try await RemoteAccountService(server: server, credentials: credentials)
    .logIn(email: "registered@email.com", password: "password")
} catch {
  fail("could not log in to \(url): \(error)")
}
let store = OutboxStore(directory: directory, server: url, account: session.accountID)

switch (arguments[0], arguments.count) {
case ("queue", 5):
  guard let count = Int(arguments[4]), count >= 0 else { fail("count must be a whole number") }
  for index in 0..<count {
    try await store.append(
      .progress(
        classID: arguments[3], position: (index + 1) * 1_000,
        played: [[index * 1_000, (index + 1) * 1_000]], addedTimeInClass: 1_000))
  }
case ("drain", 3):
  let remote = RemoteProgressService(server: server, credentials: credentials)
  let count = try await store.count()
  let clock = ContinuousClock()
  let start = clock.now
  let sender = OutboxSender(
    store: store, clock: clock, backoff: Backoff(base: .milliseconds(100), cap: .seconds(2)),
    deliver: { await remote.deliver($0, of: session.accountID) })
  await sender.kick()
  await sender.settled()
  while await sender.state != .idle {
    if await sender.state == .signedOut { fail("the server refused the session") }
    try await clock.sleep(for: .milliseconds(50))
    await sender.settled()
  }
  let milliseconds = (clock.now - start) / .milliseconds(1)
  print("drained \(count) changes in \((milliseconds * 1_000).rounded() / 1_000_000) s")
  if try await !store.putAside().isEmpty { fail("the server refused some changes") }
default:
  fail("wrong number of arguments for \(arguments[0])")
}
