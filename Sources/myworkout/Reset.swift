import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// `--reset`: sign out and restore the registry to its single seeded account, after a yes on a
/// terminal (without a terminal, as in scripts, it goes ahead).
enum Reset {
  static func run(dataDirectory path: String) throws {
    if isatty(STDIN_FILENO) == 1 {
      print(
        "This signs you out and removes every account but registered@email.com in \(path).\n"
          + "Reset? [y/N] ", terminator: "")
      guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
        print("Nothing was changed.")
        return
      }
    }
    let directory = try DataDirectory.prepare(path: path)
    try SessionStore(directory: directory, keys: SigningKeyFile.open(in: directory, now: .now))
      .delete()
    if let name = try AccountsStore(directory: directory).reset() {
      print("accounts.json could not be read; moved it aside to \(name) in \(path).")
    }
    print("Signed out; the registry holds only registered@email.com again.")
  }
}
