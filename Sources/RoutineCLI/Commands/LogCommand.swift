import Foundation
import RoutineCore
import RoutineStore

/// `routine log EVENT [--at TIME|HH:MM] [--value N] [--note TEXT]`
enum LogCommand: Command {
  static let spec = CommandSpec(
    name: "log",
    summary: "Log an event, now or at a given time.",
    discussion: """
      The event is stored with the UTC offset of your zone at that moment. Logging the same event
      (same second, kind, value and note) twice stores it once. 'routine undo' takes it out
      again (it reverts the latest change, whatever the command).
      """,
    arguments: [
      ArgumentSpec(
        "EVENT", "What happened, e.g. \"Wake Up\" (several words are joined).", repeatable: true,
        completes: .kind)
    ],
    options: [at.spec, value.spec, note.spec])

  /// `--at TIME`: read by the command, in the user's zone.
  static let at = Option(
    "at", .time(),
    "When: '2026-04-20 07:05', 'yesterday 23:10', 'fri 7am', '-90m', or 07:05 (the latest past one); see 'routine help dates'."
  )
  /// `--value N`: any finite number.
  static let value = Option(
    "value",
    ValueType(placeholder: "N", expected: "a number") {
      Double($0).flatMap { $0.isFinite ? $0 : nil }
    },
    "A number: cups, minutes, drinks.")
  /// `--note TEXT`.
  static let note = Option("note", .text("TEXT"), "A note.")

  static func run(_ context: Context) throws -> ExitCode {
    let arguments = context.arguments
    guard let typed = EventKind(arguments.arguments.joined(separator: " ")) else {
      throw UsageError("EVENT is empty", command: spec.name)
    }
    let value = try arguments.value(Self.value)
    let now = try context.requireNow()
    func timestamp(in zone: Zone) throws(UsageError) -> Timestamp {
      guard let text = arguments.text(at) else { return Timestamp(now, in: zone) }
      return try TimeArgument.parse(
        text, option: at.name, now: now, zone: zone, timeOfDay: .latestPast, command: spec.name)
    }
    // A mistyped --at must not create a store: check its form before opening one.
    _ = try timestamp(in: Zone.utc)
    // A new kind near a stored one (Coffe beside Coffee) is named, and asked about on a terminal.
    guard let kind = try NearNames.kindToLog(typed, context) else { return .ok }

    let nowSeconds = try context.nowSeconds()
    try context.writing { store, settings, zone in
      let event = Event(
        kind: kind, timestamp: try timestamp(in: zone), value: value,
        note: arguments.text(note), source: .cli)
      let added = try store.insert(event)
      let clock = context.clockStyle(settings)
      // Reminders this event makes unnecessary, and an alert if it is far off its routine: in
      // the same transaction as the event.
      let effects =
        added
        ? try store.afterLogging([event], now: nowSeconds, in: zone, clock: clock)
        : LoggingEffects()
      // Learned reminders paused while nothing was logged come back with this event.
      let resumed =
        added
        ? try LearnedPause.resume(
          store, settings: settings, zone: zone, now: nowSeconds, context: context) : nil
      if event.timestamp.date > now { context.warn("\(event.timestamp.iso8601) is in the future") }
      // Shown as the store spells the kind ("Workout" for a typed "workout"): that is the name
      // every other command shows.
      var shown = event
      shown.kind = try store.storedKind(kind) ?? kind
      let name = TerminalText.escaped(shown.kind.name)
      let when = EventFormatting.localDateTime(event.timestamp)
      if context.isJSON {
        context.output.line(
          JSON.object([("added", .bool(added)), ("event", EventFormatting.json(shown))])
            .serialized())
      } else if added {
        context.output.line(
          "Logged \(name) at \(when) (\(EventFormatting.offset(event.timestamp))).")
      } else {
        context.output.line("\(name) at \(when) was already logged; nothing changed.")
      }
      if !context.isJSON {
        for note in Responder.notes(effects, zone: zone, clock: clock) {
          context.output.line(TerminalText.escaped(note))
        }
        if let resumed { context.output.line(resumed) }
      }
      // Committed only once the result is out (docs/cli.md, exit 74).
      try context.output.deliver()
    }
    return .ok
  }
}
