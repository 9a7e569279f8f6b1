import Foundation
import RoutineCore
import RoutineStore

/// The options that select events, shared by `events` and `events delete`.
enum EventSelectionOptions {
  static let options: [OptionSpec] = [
    .value(
      "from", "TIME",
      "The first instant: a date and time, a date, today, 'mon', '-3d' or a time today (see 'routine help dates')."
    ),
    .value("to", "TIME", "The end (exclusive), in the same forms."),
    .value(
      "event", "EVENT",
      "Only events of this kind (matched as 'routine log' does: case and spacing ignored).",
      completes: .kind),
    .value("last", "N", "Only the latest N of them."),
  ]

  /// The selection the options describe, times read in `zone`.
  static func selection(_ context: Context, zone: Zone) throws(UsageError) -> EventSelection {
    let arguments = context.arguments
    let now = try context.requireNow()
    func bound(_ name: String) throws(UsageError) -> Int64? {
      try arguments.value(name).map { text throws(UsageError) in
        try TimeArgument.parse(
          text, option: name, now: now, zone: zone, timeOfDay: .today, command: context.command
        )
        .secondsSince1970
      }
    }
    var selection = EventSelection(from: try bound("from"), to: try bound("to"))
    if let from = selection.from, let to = selection.to, from >= to {
      throw UsageError("--to must come after --from", command: context.command)
    }
    if let name = arguments.value("event") {
      guard let kind = EventKind(name) else {
        throw UsageError("--event: the name is empty", command: context.command)
      }
      selection.kind = kind
    }
    if arguments.value("last") != nil {
      selection.last = try context.positiveInteger("last", default: 1, maximum: Int(Int32.max))
    }
    return selection
  }
}
