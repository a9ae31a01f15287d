import CEventLoop
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
  /// What came back from the question `Reset? [y/N]`.
  enum Answer: Equatable {
    case line(String)
    /// Ctrl-D on an empty line, or the input closed.
    case endOfInput
    /// Ctrl-C while waiting (SIGINT).
    case interrupted
  }

  /// What to do about an answer.
  enum Decision: Equatable {
    case reset
    /// Change nothing and end with this status: 0 for a no, 130 for Ctrl-C (SPEC §5: Ctrl-C
    /// quits from anywhere with exit status 130).
    case keep(status: Int32)
  }

  static func decision(for answer: Answer) -> Decision {
    switch answer {
    case .interrupted: .keep(status: 130)
    case .endOfInput: .keep(status: 0)
    // Ctrl-C as a character, from a terminal that does not turn it into SIGINT.
    case .line(let text) where text.contains("\u{03}"): .keep(status: 130)
    case .line(let text):
      ["y", "yes"].contains(trimmed(text).lowercased()) ? .reset : .keep(status: 0)
    }
  }

  /// `text` without the spaces and tabs around it (` Y ` is a yes).
  private static func trimmed(_ text: String) -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(String(text.drop(while: blank).reversed()).drop(while: blank).reversed())
  }

  static func run(dataDirectory path: String) throws {
    if isatty(STDIN_FILENO) == 1 {
      print(
        "This signs you out and removes every account but registered@email.com in \(path).\n"
          + "Reset? [y/N] ", terminator: "")
      switch decision(for: readAnswer()) {
      case .reset:
        break
      case .keep(let status):
        // After Ctrl-C the terminal showed `^C` on the question's line.
        print(status == 0 ? "Nothing was changed." : "\nNothing was changed.")
        if status != 0 { exit(status) }
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

  /// Waits for a line on standard input, or for Ctrl-C. SIGINT is taken through a signalfd, as
  /// the app's loop takes it, rather than left to its inherited disposition: ignored (as under
  /// some launchers), Ctrl-C did nothing and the next Enter read as a no, with status 0. It
  /// stays blocked afterwards (the reset that may follow is short).
  private static func readAnswer() -> Answer {
    fflush(nil)
    let interrupt = [SIGINT].withUnsafeBufferPointer {
      mw_block_signals_into_fd($0.baseAddress, Int32($0.count))
    }
    if interrupt >= 0 {
      defer { close(interrupt) }
      var watched = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0),
      ]
      // A terminal in its usual line mode is readable once a whole line (or the end) is typed.
      while watched[0].revents == 0 {
        if poll(&watched, nfds_t(watched.count), -1) < 0, errno != EINTR { break }
        if watched[1].revents != 0, mw_read_signal(interrupt) == SIGINT { return .interrupted }
      }
    }
    return readLine().map(Answer.line) ?? .endOfInput
  }
}
