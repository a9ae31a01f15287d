#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An 8-bit sRGB colour.
package struct RGB: Hashable, Sendable {
  package var r: UInt8
  package var g: UInt8
  package var b: UInt8

  package init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
    self.r = r
    self.g = g
    self.b = b
  }

  package static let black = RGB(0, 0, 0)
}

/// A colour in Björn Ottosson's OKLab space, where straight-line distance follows perceived
/// difference: what the quantiser measures in. `l` is perceived lightness, 0 (black) to 1.
package struct OKLab: Sendable {
  package var l: Float
  package var a: Float
  package var b: Float

  package init(_ color: RGB) {
    let table = Self.linear
    let red = table[Int(color.r)]
    let green = table[Int(color.g)]
    let blue = table[Int(color.b)]
    let long = cbrtf(0.412_221_470_8 * red + 0.536_332_536_3 * green + 0.051_445_992_9 * blue)
    let medium = cbrtf(0.211_903_498_2 * red + 0.680_699_545_1 * green + 0.107_396_956_6 * blue)
    let short = cbrtf(0.088_302_461_9 * red + 0.281_718_837_6 * green + 0.629_978_700_5 * blue)
    l = 0.210_454_255_3 * long + 0.793_617_785_0 * medium - 0.004_072_046_8 * short
    a = 1.977_998_495_1 * long - 2.428_592_205_0 * medium + 0.450_593_709_9 * short
    b = 0.025_904_037_1 * long + 0.782_771_766_2 * medium - 0.808_675_766_0 * short
  }

  /// sRGB byte → linear light (the sRGB transfer function), for all 256 values.
  static let linear: [Float] = (0...255).map { value in
    let v = Float(value) / 255
    return v <= 0.040_45 ? v / 12.92 : powf((v + 0.055) / 1.055, 2.4)
  }
}
