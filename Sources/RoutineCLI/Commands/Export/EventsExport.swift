import Foundation
import RoutineCore
import RoutineStore

/// `routine export --format csv|jsonl`: events that `routine import` reads back.
enum EventsExport {
  static func run(_ context: Context, format: EventFileFormat) throws -> ExitCode {
    throw UsageError(
      "export --format \(format.rawValue) is not written yet", command: context.command)
  }
}
