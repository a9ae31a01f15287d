import Foundation
import Testing

extension EndToEnd {
  /// SPEC §14: the Images screen in a real terminal, with real files decoded by libpng and
  /// libjpeg-turbo, one of them damaged.
  @Suite(.timeLimit(.minutes(2)))
  struct ImagesTests {
    /// The project's own images.
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Assets/images")

    /// A folder of three good images and a truncated PNG (`broken.png`, second by name).
    static func folder() throws -> URL {
      let folder = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("myworkout-images-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for name in ["aurora.png", "fog-grey.jpg", "leaf-alpha.png"] {
        try FileManager.default.copyItem(
          at: assets.appendingPathComponent(name), to: folder.appendingPathComponent(name))
      }
      let png = try Data(contentsOf: assets.appendingPathComponent("aurora.png"))
      try png.prefix(png.count / 3).write(to: folder.appendingPathComponent("broken.png"))
      return folder
    }

    /// Logs in and opens Images (`i`) on a folder; returns the session.
    func openImages(
      in folder: URL, width: Int = 80, height: Int = 24, environment: [String: String] = [:]
    ) throws -> TerminalSession {
      let app = try TerminalSession()
      try app.launch(
        ["--latency", "0s", "--images-dir", folder.path], width: width, height: height,
        environment: environment)
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.type("i")
      return app
    }

    /// Whether every tile in view is drawn (no `Loading…` left).
    static func settled(_ screen: String) -> Bool {
      !screen.contains("Loading") && screen.contains("▸ ")
    }

    @Test func aDamagedFileFailsInItsOwnTileWhileTheOthersDrawAndEnterShowsOneLarge() throws {
      let folder = try Self.folder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let app = try openImages(in: folder)
      let grid = try app.waitUntil("the tiles drawn") {
        Self.settled($0) && $0.contains("Can't show this image")
      }
      #expect(grid.contains("Images"))
      #expect(grid.contains("▸ aurora"))
      #expect(grid.contains("broken"))
      #expect(grid.contains("fog-grey"))
      #expect(grid.contains("leaf-alpha"))
      #expect(grid.contains("1 of 4"))
      // The good files are pictures: rows of half blocks beside the failed tile.
      let rows = grid.split(separator: "\n")
      let failedRow = try #require(rows.first { $0.contains("Can't show this image") })
      #expect(failedRow.contains("▀"), "aurora's tile is drawn beside it:\n\(grid)")
      #expect(rows.filter { $0.contains("▀") }.count >= 8, "\(grid)")

      // Down and right to leaf-alpha, Enter: it alone, as large as the terminal allows.
      try app.press("Down", "Right")
      try app.waitFor("▸ leaf-alpha")
      try app.press("Enter")
      let large = try app.waitUntil("leaf-alpha large") {
        $0.contains("Esc back to the grid") && !$0.contains("Loading") && $0.contains("4 of 4")
      }
      #expect(!large.contains("fog-grey"))
      // Rows of picture cells: in colour (a background from the 256 colours) on most rows.
      let coloured = try app.screenWithAttributes().split(separator: "\n").filter {
        $0.contains("48;5;")
      }
      #expect(coloured.count >= 15, "\(large)")

      // Esc: back to the grid, the selection where it was.
      try app.press("Escape")
      try app.waitUntil("the grid again") { Self.settled($0) && $0.contains("▸ leaf-alpha") }

      // ← from the large image goes back too.
      try app.press("Enter")
      try app.waitFor("Esc back to the grid")
      try app.press("Left")
      try app.waitFor("Enter show large")

      // Resized to 40x12: one row of tiles, the selected one in view, redrawn.
      try app.resize(width: 40, height: 12)
      let small = try app.waitUntil("the grid at 40x12") {
        Self.settled($0) && $0.contains("▸ leaf-alpha") && !$0.contains("aurora")
      }
      #expect(small.contains("▀"), "\(small)")

      // Backspace: back to Profile.
      try app.press("BSpace")
      try app.waitFor("Log out")
    }

    @Test func withNoColorTheTilesAreShadedAndWithout256ColoursTheyStillDraw() throws {
      let folder = try Self.folder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let app = try openImages(in: folder, environment: ["NO_COLOR": "1"])
      let grid = try app.waitUntil("shaded tiles") {
        Self.settled($0) && $0.contains("Can't show this image")
      }
      #expect(!grid.contains("▀"), "no colour, no half blocks:\n\(grid)")
      #expect(grid.contains { "░▒▓█".contains($0) }, "luminance shading:\n\(grid)")

      let eight = try openImages(in: folder, environment: ["TERM": "xterm"])
      let basic = try eight.waitUntil("tiles in 8 colours") { Self.settled($0) }
      #expect(basic.contains("▀"), "\(basic)")
    }

    @Test func imagesDirMustBeAFolderThatExists() throws {
      let app = try TerminalSession()
      try app.launchInShell("--images-dir /nonexistent/pictures", width: 200, waitingFor: "$APP")
      let (status, screen) = try app.waitForShellStatus()
      #expect(status != 0)
      #expect(screen.contains("--images-dir: '/nonexistent/pictures' does not exist."))

      let other = try TerminalSession()
      try other.launchInShell("--images-dir /etc/hostname", width: 200, waitingFor: "$APP")
      let file = try other.waitForShellStatus()
      #expect(file.status != 0)
      #expect(file.screen.contains("--images-dir: '/etc/hostname' is not a folder."))
    }

    @Test func aClickOnATileShowsItLargeAndAnotherComesBack() throws {
      let folder = try Self.folder()
      defer { try? FileManager.default.removeItem(at: folder) }
      let app = try openImages(in: folder)
      let grid = try app.waitUntil("the tiles drawn") { Self.settled($0) }
      let rows = grid.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let row = try #require(rows.firstIndex { $0.contains("fog-grey") })
      let caption = try #require(rows[row].range(of: "fog-grey"))
      let column = rows[row].distance(from: rows[row].startIndex, to: caption.lowerBound)
      try app.click(row: row, column: column)
      try app.waitUntil("fog-grey large") {
        $0.contains("fog-grey") && $0.contains("3 of 4") && !$0.contains("aurora")
      }
      try app.click(row: 10, column: 10)
      try app.waitUntil("back to the grid, the clicked image selected") {
        $0.contains("▸ fog-grey") && $0.contains("aurora")
      }
    }
  }
}
