import CNcurses

extension Palette {
  /// Coloured text (`Style.colored`): the xterm colour on the terminal's own background, in a
  /// pair allocated on first use. With fewer than 256 colours, the nearest basic colour; one
  /// that comes out black or white is the default foreground instead, so the text stays
  /// readable on dark and light backgrounds. Without colours, plain text.
  func text(_ index: UInt8) -> (attr_t, Int32) {
    guard colorCount > 0 else { return (mw_attr_normal(), 0) }
    if colorCount >= 256 { return (mw_attr_normal(), max(0, alloc_pair(Int32(index), -1))) }
    let basic = Self.basic(index)
    guard basic != 0, basic != 7 else { return (mw_attr_normal(), 0) }
    return (mw_attr_normal(), max(0, alloc_pair(basic, -1)))
  }
}
