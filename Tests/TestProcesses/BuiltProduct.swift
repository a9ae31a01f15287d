import Foundation

/// Finds an executable this package built, next to the running test bundle (in the same build
/// folder, whatever its scratch path or configuration).
public enum BuiltProduct {
  public static func path(_ name: String) -> String? {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while folder.path != "/" {
      let candidate = folder.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }
}
