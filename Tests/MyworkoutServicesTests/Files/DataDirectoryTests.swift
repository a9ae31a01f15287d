import Testing

@testable import MyworkoutServices

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct DataDirectoryTests {
  @Test func resolvePrefersOverrideThenEnvironment() {
    let all = [
      "MYWORKOUT_DATA_DIR": "/env/data", "XDG_DATA_HOME": "/xdg", "HOME": "/home/ali",
    ]
    #expect(DataDirectory.resolve(override: "/flag", environment: all) == "/flag")
    #expect(DataDirectory.resolve(override: nil, environment: all) == "/env/data")
    var noOwn = all
    noOwn["MYWORKOUT_DATA_DIR"] = ""
    #expect(DataDirectory.resolve(override: "", environment: noOwn) == "/xdg/myworkout")
    noOwn["XDG_DATA_HOME"] = ""
    #expect(
      DataDirectory.resolve(override: nil, environment: noOwn)
        == "/home/ali/.local/share/myworkout")
    noOwn.removeValue(forKey: "XDG_DATA_HOME")
    #expect(
      DataDirectory.resolve(override: nil, environment: noOwn)
        == "/home/ali/.local/share/myworkout")
  }

  /// The XDG Base Directory spec: a relative path in `XDG_DATA_HOME` is invalid and ignored (a
  /// walk-through's `XDG_DATA_HOME=rel/xdg` made the data dir depend on the current directory).
  /// The server already ignored one.
  @Test func aRelativeXDGDataHomeIsIgnored() {
    for relative in ["rel/xdg", "./xdg", "xdg", "~/xdg"] {
      #expect(
        DataDirectory.resolve(
          override: nil, environment: ["XDG_DATA_HOME": relative, "HOME": "/home/ali"])
          == "/home/ali/.local/share/myworkout", "\(relative)")
    }
    // A relative --data-dir or MYWORKOUT_DATA_DIR is the person's own choice, as before.
    #expect(DataDirectory.resolve(override: "rel", environment: [:]) == "rel")
    #expect(
      DataDirectory.resolve(override: nil, environment: ["MYWORKOUT_DATA_DIR": "rel"]) == "rel")
  }

  @Test func prepareCreatesParentsPrivately() async throws {
    try await withTemporaryDirectory { root throws in
      let directory = try DataDirectory.prepare(path: root + "/a/b/myworkout/")
      #expect(directory.path == root + "/a/b/myworkout")
      #expect(permissions(directory.path) == 0o700)
      #expect(permissions(root + "/a") == 0o700)
      #expect(directory.accountsPath == root + "/a/b/myworkout/accounts.json")
    }
  }

  @Test func prepareNarrowsAnOpenExistingDirectory() async throws {
    try await withTemporaryDirectory { root throws in
      #expect(mkdir(root + "/open", 0o755) == 0)
      _ = chmod(root + "/open", 0o755)
      _ = try DataDirectory.prepare(path: root + "/open")
      #expect(permissions(root + "/open") == 0o700)
    }
  }

  @Test func prepareRefusesAFile() async throws {
    try await withTemporaryDirectory { root throws in
      put(Array("x".utf8), at: root + "/file")
      #expect(throws: DataDirectoryError(message: "Data directory \(root)/file is not a directory"))
      {
        try DataDirectory.prepare(path: root + "/file")
      }
      let error = #expect(throws: DataDirectoryError.self) {
        try DataDirectory.prepare(path: root + "/file/sub")
      }
      #expect(error?.message == "Cannot create data directory \(root)/file/sub: Not a directory")
    }
  }
}
