import RoutineCore

/// `routine log EVENT [--at TIME|HH:MM] [--value N] [--note TEXT]`
enum LogCommand: Command {
  static let spec = CommandSpec(
    name: "log",
    summary: "Log an event, now or at a given time.",
    discussion: """
      The event is stored with the UTC offset of your zone at that moment. Logging the same event
      (same time, kind, value and note) twice stores it once.
      """,
    arguments: [
      ArgumentSpec(
        "EVENT", "What happened, e.g. \"Wake Up\" (several words are joined).", repeatable: true)
    ],
    options: [
      .value(
        "at", "TIME|HH:MM",
        "When: ISO 8601 with offset, a local '2026-04-20 07:05', or HH:MM (the latest past one)."),
      .value("value", "N", "A number: cups, minutes, drinks."),
      .value("note", "TEXT", "A note."),
    ])

  static func run(_ context: Context) throws -> ExitCode {
    let arguments = context.arguments
    guard let kind = EventKind(arguments.arguments.joined(separator: " ")) else {
      throw UsageError("EVENT is empty", command: spec.name)
    }
    let now = try context.requireNow()
    let zone = try context.requireTimeZone()
    let timestamp =
      try arguments.value("at").map { text throws(UsageError) in
        try TimeArgument.parse(
          text, option: "at", now: now, zone: zone, allowsTimeOfDay: true, command: spec.name)
      } ?? Timestamp(now, in: zone)
    var value: Double?
    if let text = arguments.value("value") {
      guard let number = Double(text), number.isFinite else {
        throw UsageError("--value: expected a number, found '\(text)'", command: spec.name)
      }
      value = number
    }
    let event = Event(
      kind: kind, timestamp: timestamp, value: value, note: arguments.value("note"), source: .cli)
    if timestamp.date > now { context.warn("\(timestamp.iso8601) is in the future") }

    let added = try context.openStore().insert(event)
    if context.isJSON {
      context.output.line(
        JSON.object([("added", .bool(added)), ("event", EventFormatting.json(event))]).serialized())
    } else if added {
      context.output.line(
        "Logged \(kind.name) at \(EventFormatting.localDateTime(timestamp)) (\(offsetText(timestamp)))."
      )
    } else {
      context.output.line(
        "\(kind.name) at \(EventFormatting.localDateTime(timestamp)) was already logged; nothing changed."
      )
    }
    return .ok
  }

  private static func offsetText(_ timestamp: Timestamp) -> String {
    String(timestamp.iso8601.suffix(6))
  }
}
