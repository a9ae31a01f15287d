import Crypto
import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(Glibc)
  import Glibc
#endif

/// Importing classes files (SPEC §11): columns by name, defaults, bad rows, ids.
@Suite struct CatalogImportTests {
  @Test func theShippedCatalog() async throws {
    try await withDataDirectory { directory throws in
      let notices = NoticeLog()
      let store = makeCatalogStore(directory, notices: notices)
      let classes = try await store.all("")
      #expect(classes.count >= 40)
      #expect(notices.all.isEmpty)
      #expect(Set(classes.map(\.id)).count == classes.count)
      #expect(classes.contains { $0.title == "Salsa, Step by Step" })
      #expect(classes.contains { $0.song == "The \"Last\" Train" })
      #expect(classes.contains { $0.instructor == "Zoë Okafor" })
      // Each class lasts as long as its sample clip (Assets/videos; SPEC §19).
      #expect(classes.first { $0.title.hasPrefix("Heels") }?.duration == 300)
      #expect(classes.first { $0.title.hasPrefix("Cardio") }?.duration == 240)
      #expect(try await store.all("ZOË").count == 3)
      #expect(try await store.all("jose").count == 3)
      #expect(permissions(directory.catalogPath) == 0o600)
    }
  }

  @Test func columnsByNameInAnyOrderWithOthersIgnored() async throws {
    try await withTemporaryDirectory { root throws in
      let file = writeCatalog(
        [
          "\u{FEFF}Song, LEVEL ,notes,thumbnailSlug,videoUrl,instructor,duration,title",
          "Tune,Advanced,ignored,t.jpg,https://v/1.mp4,  Ana  ,95,  Quick Salsa  ",
          "\"Other, tune\",beginner,,t2.jpg,https://v/2.mp4,Bo,,Slow",
        ], to: root)
      let directory = try DataDirectory.prepare(path: root + "/data")
      let classes = try await makeCatalogStore(directory, file: file).all("")
      #expect(
        classes == [
          DanceClass(
            id: ClassID.make(
              title: "Quick Salsa", instructor: "Ana", level: .advanced, song: "Tune"),
            title: "Quick Salsa", instructor: "Ana", level: .advanced, song: "Tune",
            videoURL: "https://v/1.mp4", thumbnailSlug: "t.jpg", duration: 95),
          DanceClass(
            id: ClassID.make(
              title: "Slow", instructor: "Bo", level: .beginner, song: "Other, tune"),
            title: "Slow", instructor: "Bo", level: .beginner, song: "Other, tune",
            videoURL: "https://v/2.mp4", thumbnailSlug: "t2.jpg", duration: 600),
        ])
    }
  }

  /// A quoted field may hold line breaks (RFC 4180); a list row or heading is one line, so
  /// each run of them (and of other control characters) reads as one space. The id is the
  /// field's own, as before (progress kept under it stays).
  @Test func lineBreaksInAFieldReadAsASpace() async throws {
    try await withTemporaryDirectory { root throws in
      let file = writeCatalog(
        [
          "title,instructor,level,song,videoUrl,thumbnailSlug,duration",
          "\"Multi\nLine Title\",\"Ana\r\n\tB\",beginner,\"Tab\u{1}Song\",,,60",
        ], to: root)
      let directory = try DataDirectory.prepare(path: root + "/data")
      let classes = try await makeCatalogStore(directory, file: file).all("")
      #expect(classes.map(\.title) == ["Multi Line Title"])
      #expect(classes.map(\.instructor) == ["Ana B"])
      #expect(classes.map(\.song) == ["Tab Song"])
      #expect(
        classes.map(\.id) == [
          ClassID.make(
            title: "Multi\nLine Title", instructor: "Ana\r\n\tB", level: .beginner,
            song: "Tab\u{1}Song")
        ])
      #expect(try await makeCatalogStore(directory, file: file).all("line title").count == 1)
      // A catalog imported by a version before this rule (no `source.rules`) is imported again:
      // its titles kept their line breaks until the file changed (a review).
      let raw = try SQLiteDatabase(path: directory.catalogPath)
      try raw.execute("UPDATE classes SET title = 'Multi' || char(10) || 'Line Title'")
      try raw.execute("DELETE FROM meta WHERE key = 'source.rules'")
      let again = try await makeCatalogStore(directory, file: file).all("")
      #expect(again.map(\.title) == ["Multi Line Title"])
    }
  }

  @Test func badRowsAreSkippedWithOneNotice() async throws {
    try await withTemporaryDirectory { root throws in
      let file = writeCatalog(
        [
          header + ",duration",
          row("Good") + ",60",
          row("Short row").split(separator: ",").dropLast().joined(separator: ","),  // line 3
          row("Also good") + ",",
          row("   ") + ",60",  // line 5: empty title
          row("Odd level", "A", "expert") + ",60",  // line 6
          "",  // a blank line is not a row
          row("Zero", "A") + ",0",  // line 8
          row("Half", "A") + ",1.5",  // line 9
          row("Negative", "A") + ",-5",  // line 10
          row("Good") + ",120",  // line 11: same title, instructor, level and song as line 2
          "\"Broken \"quote," + row("x").dropFirst(2),  // line 12
          row("Too", "many") + ",60,extra",  // line 13
          row("Huge", "A") + ",99999999999999999999",  // line 14
          row("No level", "A", "") + ",60",  // line 15
          row("Last good", "B", "Advanced") + ",75",
        ], to: root, name: "classes-bad.csv")
      let directory = try DataDirectory.prepare(path: root + "/data")
      let notices = NoticeLog()
      let store = makeCatalogStore(directory, file: file, notices: notices)
      let classes = try await store.all("")
      #expect(classes.map(\.title) == ["Good", "Also good", "Last good"])
      #expect(classes.map(\.duration) == [60, 600, 75])
      #expect(
        notices.all == [
          "Skipped 11 rows of classes-bad.csv: lines 3, 5, 6, 8, 9, 10, 11, 12, 13, 14 and 1 more"
        ])
    }
  }

  @Test(arguments: [
    ([3, 5, 6], "Skipped 3 rows of classes-bad.csv: lines 3, 5, 6"),
    ([7], "Skipped 1 row of classes-bad.csv: line 7"),
    (
      Array(2...13),
      "Skipped 12 rows of classes-bad.csv: lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2 more"
    ),
  ])
  func skippedRowsNotice(lines: [Int], expected: String) {
    var skipped = SkippedRows(path: "/somewhere/classes-bad.csv")
    for line in lines { skipped.add(line: line) }
    #expect(skipped.notice == expected)
    #expect(SkippedRows(path: "x.csv").notice == nil)
  }

  /// Issue 24, item 3: a field over 1,000 characters makes its row a bad row (a 5 MB name would
  /// slow every search and screen that shows it); 1,000 characters is still a good row.
  @Test func aFieldOverAThousandCharactersIsABadRow() async throws {
    try await withTemporaryDirectory { root throws in
      let long = String(repeating: "é", count: 1_000)
      let file = writeCatalog(
        [
          header, row("Fits", long), row("Too long", long + "x"),
          row(String(repeating: "t", count: 5_000)), row("Song", "A", "beginner", long + "ü"),
          row("Last"),
        ], to: root, name: "classes-long.csv")
      let directory = try DataDirectory.prepare(path: root + "/data")
      let notices = NoticeLog()
      let classes = try await makeCatalogStore(directory, file: file, notices: notices).all("")
      #expect(classes.map(\.title) == ["Fits", "Last"])
      #expect(notices.all == ["Skipped 3 rows of classes-long.csv: lines 3, 4, 5"])
    }
  }

  @Test func theSpecsExampleNotice() async throws {
    try await withTemporaryDirectory { root throws in
      let file = writeCatalog(
        [header, row("A"), row("B", "x", "unknown"), row("C"), row(""), row("D", "x", "pro")],
        to: root, name: "classes-bad.csv")
      let directory = try DataDirectory.prepare(path: root + "/data")
      let notices = NoticeLog()
      #expect(
        try await makeCatalogStore(directory, file: file, notices: notices).all("").count == 2)
      #expect(notices.all == ["Skipped 3 rows of classes-bad.csv: lines 3, 5, 6"])
    }
  }

  @Test func idsAreTheHashOfTheTrimmedNormalisedFields() {
    // Netstrings of title, instructor, level and song, composed (NFC) and trimmed.
    let expected = SHA256.hash(data: Array("4:Zoë,3:Ann,8:beginner,4:Tune,".utf8)).hexString
    #expect(
      ClassID.make(title: " Zoë ", instructor: "Ann", level: .beginner, song: "Tune") == expected)
    #expect(
      ClassID.make(title: "Zoe\u{308}", instructor: "Ann ", level: .beginner, song: " Tune")
        == expected)
    // The joining is unambiguous: moving text between fields changes the id.
    #expect(
      ClassID.make(title: "a,b", instructor: "c", level: .beginner, song: "")
        != ClassID.make(title: "a", instructor: "b,c", level: .beginner, song: ""))
    #expect(expected.count == 64)
  }

  @Test func idsSurviveAReimportInAnotherOrder() async throws {
    try await withTemporaryDirectory { root throws in
      let directory = try DataDirectory.prepare(path: root + "/data")
      let first = writeCatalog([header, row("One"), row("Two", "B", "Advanced")], to: root)
      let before = try await makeCatalogStore(directory, file: first).all("")
      let second = writeCatalog(
        [
          "level,song,title,instructor,thumbnailSlug,videoUrl",
          "advanced,Song,Two,B,new.jpg,https://v/new.mp4", "BEGINNER,Song,One,Ann Teacher,t,u",
        ],
        to: root, name: "other.csv")
      let after = try await makeCatalogStore(directory, file: second).all("")
      #expect(after.map(\.title) == ["Two", "One"])
      #expect(Set(after.map(\.id)) == Set(before.map(\.id)))
    }
  }
}
