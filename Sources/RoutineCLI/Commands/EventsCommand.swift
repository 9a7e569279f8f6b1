import Foundation
import RoutineCore

/// `routine events [--from TIME] [--to TIME] [--event EVENT]`
enum EventsCommand: Command {
  static let spec = CommandSpec(
    name: "events",
    summary: "List stored events in time order.",
    discussion:
      "--from is inclusive, --to exclusive; a bare date means local midnight in your zone.",
    options: [
      .value(
        "from", "TIME", "The first instant: ISO 8601 with offset, a local date and time, or a date."
      ),
      .value("to", "TIME", "The end (exclusive), in the same forms."),
      .value(
        "event", "EVENT",
        "Only events of this kind (matched as 'routine log' does: case and spacing ignored)."),
    ])

  static func run(_ context: Context) throws -> ExitCode {
    let arguments = context.arguments
    let now = try context.requireNow()
    let zone = try context.requireTimeZone()
    func bound(_ name: String) throws(UsageError) -> Int64? {
      try arguments.value(name).map { text throws(UsageError) in
        try TimeArgument.parse(
          text, option: name, now: now, zone: zone, allowsTimeOfDay: false, command: spec.name
        )
        .secondsSince1970
      }
    }
    let from = try bound("from")
    let to = try bound("to")
    var kind: EventKind?
    if let name = arguments.value("event") {
      guard let parsed = EventKind(name) else {
        throw UsageError("--event: the name is empty", command: spec.name)
      }
      kind = parsed
    }
    let store = try context.openStore()
    let output = context.output
    if context.isJSON {
      // Streamed, so that a large store is not held in memory twice.
      output.write("{\n  \"events\": [")
      var first = true
      try store.forEachEvent(from: from, to: to, kind: kind) { event in
        output.write(first ? "\n    " : ",\n    ")
        first = false
        output.write(
          EventFormatting.json(event).serialized().replacingOccurrences(of: "\n", with: "\n    "))
      }
      output.line(first ? "]\n}" : "\n  ]\n}")
    } else {
      var count = 0
      try store.forEachEvent(from: from, to: to, kind: kind) { event in
        output.line(EventFormatting.line(event))
        count += 1
      }
      if count == 0 { context.errors.line("No events.") }
    }
    return .ok
  }
}
