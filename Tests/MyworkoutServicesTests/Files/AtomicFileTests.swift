import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

@Suite struct AtomicFileTests {
  @Test func writeReplacesWithAPrivateFileAndLeavesNoTemporary() async throws {
    try await withTemporaryDirectory { root throws in
      let path = root + "/secret.json"
      put(Array("old".utf8), at: path, mode: 0o644)
      try AtomicFile.write(Data("new".utf8), to: path)
      #expect(contents(path) == Data("new".utf8))
      #expect(permissions(path) == 0o600)
      #expect(listing(root) == ["secret.json"])
    }
  }

  @Test func writeIntoAMissingDirectoryFailsCleanly() async throws {
    try await withTemporaryDirectory { root throws in
      let error = #expect(throws: FileError.self) {
        try AtomicFile.write(Data("x".utf8), to: root + "/missing/file")
      }
      #expect(error?.message == "Cannot write \(root)/missing/file: No such file or directory")
    }
  }

  @Test func readReportsMissingLargeAndOddFiles() async throws {
    try await withTemporaryDirectory { root throws in
      #expect(try AtomicFile.read(path: root + "/none") == nil)
      put([UInt8](repeating: 65, count: 10), at: root + "/ten")
      #expect(try AtomicFile.read(path: root + "/ten", limit: 10)?.count == 10)
      let large = #expect(throws: FileError.self) {
        try AtomicFile.read(path: root + "/ten", limit: 9)
      }
      #expect(large?.isDamage == true)
      let directory = #expect(throws: FileError.self) { try AtomicFile.read(path: root) }
      #expect(directory?.message == "\(root) is not a regular file")
    }
  }

  @Test func lockExcludesOtherHolders() async throws {
    try await withTemporaryDirectory { root throws in
      let path = root + "/accounts.lock"
      try FileLock.withExclusiveLock(path: path) {
        let other = open(path, O_RDWR)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0)
        #expect(errno == EWOULDBLOCK)
      }
      #expect(permissions(path) == 0o600)
      let other = open(path, O_RDWR)
      defer { close(other) }
      #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
    }
  }

  @Test func quarantineKeepsEveryDamagedCopy() async throws {
    try await withTemporaryDirectory { root throws in
      let path = root + "/accounts.json"
      put(Array("first".utf8), at: path)
      let first = try Quarantine.moveAside(path: path, now: fixedNow)
      put(Array("second".utf8), at: path)
      let second = try Quarantine.moveAside(path: path, now: fixedNow)
      #expect(mkdir(path, 0o700) == 0)
      let third = try Quarantine.moveAside(path: path, now: fixedNow)
      #expect(first == "accounts.json.corrupt-20261121T141500Z")
      #expect(second == first + "-2")
      #expect(third == first + "-3")
      #expect(contents(root + "/" + first) == Data("first".utf8))
      #expect(contents(root + "/" + second) == Data("second".utf8))
      #expect(!exists(path))
    }
  }
}
