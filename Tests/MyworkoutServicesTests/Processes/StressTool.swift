import Foundation
import TestProcesses

/// The `store-stress` helper (Sources/store-stress), built beside the test bundle.
enum StressTool {
  /// What `store-stress` gives every account it makes (Stress.password and .iterations there).
  static let password = "stress-password"
  static let iterations = 1_000

  /// The built binary: the first executable `store-stress` found walking up from the test
  /// bundle's folder (the build folder), or `STORE_STRESS_BINARY`.
  static let binary: String? =
    ProcessInfo.processInfo.environment["STORE_STRESS_BINARY"]
    ?? BuiltProduct.path("store-stress")

  /// Starts `store-stress <arguments>`, its standard error going to `errorLog`.
  static func start(
    _ arguments: [String], errorLog: String, captureOutput: Bool = false
  ) throws -> ChildProcess {
    guard let binary else {
      throw ChildProcess.Failed(
        description: "store-stress is not built beside \(CommandLine.arguments[0])")
    }
    return try ChildProcess.spawn(
      [binary] + arguments, standardOutput: captureOutput ? .pipe : .null,
      standardError: .file(errorLog))
  }

  /// The stress account number `index` of `prefix`.
  static func email(_ prefix: String, _ index: Int) -> String {
    "\(prefix)-\(index)@stress.test"
  }

  /// What a child wrote on standard error, for failure messages.
  static func log(_ path: String) -> String {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.isEmpty ? "(nothing on standard error)" : text
  }
}
