/// The art from `Assets/logo.txt` (a dumbbell), shown above `Myworkout GO` when there is room.
/// A test checks that this copy matches the asset file byte for byte.
package enum AssetArt {
  package static let logo = """
    ▗▄▖              ▗▄▖
    ▐█▌━━━━━━━━━━━━━━▐█▌
    ▝▀▘              ▝▀▘
    """

  /// The logo's lines with their widths, measured once (Get started draws them on every key).
  static let logoLines: [(text: String, columns: Int)] =
    logo.split(separator: "\n", omittingEmptySubsequences: false).map {
      (String($0), DisplayWidth.of($0))
    }
}
