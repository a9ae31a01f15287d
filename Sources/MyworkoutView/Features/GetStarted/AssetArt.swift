/// The art from `Assets/logo.txt` (a dumbbell), shown above `Myworkout GO` when there is room.
/// A test checks that this copy matches the asset file byte for byte.
package enum AssetArt {
  package static let logo = """
    ▗▄▖              ▗▄▖
    ▐█▌━━━━━━━━━━━━━━▐█▌
    ▝▀▘              ▝▀▘
    """
}
