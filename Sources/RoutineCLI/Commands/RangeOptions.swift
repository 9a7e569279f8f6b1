import Foundation
import RoutineCore
import RoutineStore

/// The `--from` and `--to` of `history` and `agenda`, read in the user's zone; a weekday is
/// the latest one for `history` (which looks back), the next one for `agenda` (`.upcoming`).
enum RangeOptions {
  /// `--from TIME`; a command rewords it with `describing` to say what its range holds.
  static let from = Option(
    "from", .time(),
    "The first instant: a date and time, a date, today, 'mon', '-3d' or a time today (see 'routine help dates')."
  )
  /// `--to TIME`.
  static let to = Option("to", .time(), "The end (exclusive), in the same forms.")

  /// The instant `option` names, read in `zone` with `meaning` for a time alone; `nil` when it
  /// was not given.
  static func bound(
    _ context: Context, _ option: Option<String>, now: Date, zone: Zone,
    meaning: TimeArgument.TimeOfDayMeaning = .today
  ) throws(UsageError) -> Int64? {
    try context.arguments.text(option).map { text throws(UsageError) in
      try TimeArgument.parse(
        text, option: option.name, now: now, zone: zone, timeOfDay: meaning,
        command: context.command
      )
      .secondsSince1970
    }
  }
}
