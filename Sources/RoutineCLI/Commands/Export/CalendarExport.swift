import Foundation
import RoutineCore
import RoutineStore

/// `routine export --format ics`: an RFC 5545 calendar.
enum CalendarExport {
  static func run(_ context: Context) throws -> ExitCode {
    throw UsageError("export --format ics is not written yet", command: context.command)
  }
}
