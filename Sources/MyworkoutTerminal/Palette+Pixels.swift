import CNcurses

extension Palette {
  /// A picture cell (`Style.pixels`): a colour pair for its two xterm colours, allocated by
  /// ncurses on first use and found again after (`alloc_pair`; when all 65,536 are taken it
  /// reuses the least recently used). With fewer than 256 colours each index becomes its
  /// nearest basic colour; without colours, the lit half follows the lighter pixel (`▀` as it
  /// is, or reversed).
  func pixels(foreground: UInt8, background: UInt8) -> (attr_t, Int32) {
    guard colorCount > 0 else {
      let lowerLighter = Self.lightness(background) > Self.lightness(foreground)
      return (lowerLighter ? mw_attr_reverse() : mw_attr_normal(), 0)
    }
    let pair =
      colorCount >= 256
      ? alloc_pair(Int32(foreground), Int32(background))
      : alloc_pair(Self.basic(foreground), Self.basic(background))
    return (mw_attr_normal(), max(0, pair))
  }

  /// The basic colour (0–7) nearest an xterm index, channel by channel (xterm's basic colours
  /// are 0 or 205 per channel). Pictures for 8-colour terminals are made with the basic colours
  /// already (perceptually); this covers one that was not.
  static func basic(_ index: UInt8) -> Int32 {
    switch index {
    case 0..<8: return Int32(index)
    case 8..<16: return Int32(index - 8)
    case 16..<232:
      let cube = Int32(index) - 16
      let (red, green, blue) = (cube / 36, cube / 6 % 6, cube % 6)
      // Cube level 2 (135) and up is nearer 205 than 0.
      return (red >= 2 ? 1 : 0) | (green >= 2 ? 2 : 0) | (blue >= 2 ? 4 : 0)
    default:
      return index >= 242 ? 7 : 0  // grey 108 and up
    }
  }

  /// A rough lightness (0–255) of an xterm index: green counts most, blue least.
  static func lightness(_ index: UInt8) -> Int {
    let levels = [0, 95, 135, 175, 215, 255]
    switch index {
    case 0..<16:
      let bits = Int(basic(index))
      let level = index >= 8 ? 255 : 205
      return ((bits & 1) * 2 + (bits >> 1 & 1) * 5 + (bits >> 2 & 1)) * level / 8
    case 16..<232:
      let cube = Int(index) - 16
      return (2 * levels[cube / 36] + 5 * levels[cube / 6 % 6] + levels[cube % 6]) / 8
    default:
      return 8 + 10 * (Int(index) - 232)
    }
  }
}
