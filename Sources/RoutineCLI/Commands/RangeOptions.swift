import Foundation
import RoutineCore
import RoutineStore

/// The `--from` and `--to` of `history` and `agenda`, read in the user's zone; a weekday is
/// the latest one for `history` (which looks back), the next one for `agenda` (`.upcoming`).
enum RangeOptions {
  static func bound(
    _ context: Context, _ name: String, now: Date, zone: Zone,
    meaning: TimeArgument.TimeOfDayMeaning = .today
  ) throws(UsageError) -> Int64? {
    try context.arguments.value(name).map { text throws(UsageError) in
      try TimeArgument.parse(
        text, option: name, now: now, zone: zone, timeOfDay: meaning, command: context.command
      )
      .secondsSince1970
    }
  }
}
