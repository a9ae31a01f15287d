import Testing

@testable import MyworkoutServices

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct AtomicFileLeftoverTests {
  @Test func leftoversOfDeadWritersAreRemovedAndNothingElse() async throws {
    try await withTemporaryDirectory { root throws in
      // A process id that cannot be alive: above the kernel's pid_max (at most 2^22).
      let dead = ".accounts.json.tmp-99999999-ab12"
      let mine = ".session.json.tmp-\(getpid())-cd34"
      let parent = ".signing.key.tmp-\(getppid())-ef56"
      for name in [dead, mine, parent, "accounts.json", "notes.tmp-1-2", ".hidden"] {
        put(Array("x".utf8), at: root + "/" + name, mode: 0o600)
      }
      #expect(AtomicFile.removeLeftovers(in: root) == 1)
      #expect(
        listing(root) == [".hidden", mine, parent, "accounts.json", "notes.tmp-1-2"].sorted())
    }
  }

  @Test func preparingTheDirectorySweepsLeftovers() async throws {
    try await withTemporaryDirectory { root throws in
      put(Array("torn".utf8), at: root + "/.accounts.json.tmp-99999999-0000", mode: 0o600)
      _ = try DataDirectory.prepare(path: root)
      #expect(listing(root).isEmpty)
    }
  }

  @Test func namesAreReadStrictly() {
    #expect(AtomicFile.writerProcess(ofTemporary: ".accounts.json.tmp-123-abc") == 123)
    #expect(AtomicFile.writerProcess(ofTemporary: "accounts.json.tmp-123-abc") == nil)
    #expect(AtomicFile.writerProcess(ofTemporary: ".accounts.json.tmp-x-abc") == nil)
    #expect(AtomicFile.writerProcess(ofTemporary: ".accounts.json") == nil)
  }
}
