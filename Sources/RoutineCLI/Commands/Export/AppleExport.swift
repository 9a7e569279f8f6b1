import Foundation
import RoutineCore
import RoutineStore

/// `routine export --format apple-json`: requests and categories for an iOS or macOS app.
enum AppleExport {
  static func run(_ context: Context) throws -> ExitCode {
    throw UsageError("export --format apple-json is not written yet", command: context.command)
  }
}
