#if canImport(Glibc)
  import Glibc
#endif

/// What changed between two frames: the cells a terminal must be sent, and nothing else. Pure,
/// so that "typing one character sends one cell" is a unit test, not a hope.
package enum GridDiff {
  package struct Change: Equatable, Sendable {
    package var row: Int
    package var column: Int
    package var cell: Cell
  }

  /// The changes that turn `previous` into `next`; every cell (a full redraw) when there is no
  /// previous frame or its size differs. A wide character is sent again when its continuation
  /// cell (its right half) changed, and continuation cells are never sent themselves.
  package static func changes(from previous: Grid?, to next: Grid) -> [Change] {
    let full = previous.map { $0.width != next.width || $0.height != next.height } ?? true
    let before = full ? [] : previous?.cells ?? []
    let cells = next.cells
    var changes: [Change] = []
    for row in 0..<next.height {
      // Most rows are as they were (a key changes a field and the footer): a row compared
      // whole, word by word, is passed over without looking at its cells one by one.
      let rowCells = (row * next.width)..<((row + 1) * next.width)
      if !before.isEmpty, Self.same(before, cells, in: rowCells) { continue }
      for column in 0..<next.width {
        let index = row * next.width + column
        let cell = cells[index]
        if cell.isContinuation { continue }
        if !before.isEmpty, before[index] == cell {
          // Unchanged; a wide character (now or before) is sent again only when its right half
          // changed under it.
          let hasNext = column + 1 < next.width
          let wide =
            hasNext && (cells[index + 1].isContinuation || before[index + 1].isContinuation)
          if !wide || before[index + 1] == cells[index + 1] { continue }
        }
        changes.append(Change(row: row, column: column, cell: cell))
      }
    }
    return changes
  }

  /// Whether two frames' cells are equal in `range` (both hold it). A cell is three words
  /// compared as words (`Cell.isPlainWords`), so its bytes are compared with `memcmp`.
  private static func same(_ before: [Cell], _ after: [Cell], in range: Range<Int>) -> Bool {
    before.withUnsafeBufferPointer { before in
      after.withUnsafeBufferPointer { after in
        guard let was = before.baseAddress, let now = after.baseAddress else { return true }
        if Cell.isPlainWords {
          return memcmp(
            was + range.lowerBound, now + range.lowerBound,
            range.count * MemoryLayout<Cell>.stride) == 0
        }
        for index in range where before[index] != after[index] { return false }
        return true
      }
    }
  }

  /// Whether the terminal must be cleared first (no previous frame, or another size).
  package static func needsClear(from previous: Grid?, to next: Grid) -> Bool {
    previous.map { $0.width != next.width || $0.height != next.height } ?? true
  }
}
