import Foundation
import RoutineCore
import RoutineStore

/// `routine respond ID ACTION [--occurrence TIME]`
enum RespondCommand: Command {
  static let spec = CommandSpec(
    name: "respond",
    summary:
      "Answer a notification: onit, snooze, dismiss, done, start, a quick-log level, or open.",
    discussion: """
      The action handler: 'onit' and 'done' log the reminder's event now; 'snooze' brings the
      notification back in 5 minutes ('routine settings --snooze'); 'dismiss' and 'open' log
      nothing; 'start' (a workout's or meditation's) logs nothing and says to log it when done;
      NoAlc's 'steady', 'easy' and 'wild' log an alcohol entry. The answer, the event and what
      follows from it are stored in one transaction; the same answer to the same firing twice
      is stored once. Without --occurrence, the firing delivered last is answered.
      """,
    arguments: [
      ArgumentSpec(
        "ID",
        "The notification's identifier (as 'routine pending' lists it), or a reminder's id (its firing delivered last, or the one at --occurrence).",
        completes: .notification),
      ArgumentSpec(
        "ACTION", "One of the actions its category offers, or open.", completes: .action),
    ],
    options: [occurrence.spec])

  /// `--occurrence TIME`: which firing is answered.
  static let occurrence = Option(
    "occurrence", .time(),
    "The firing answered: as delivery gives it (ISO 8601 with offset), or any time of 'routine help dates' (default: the latest delivered)."
  )

  static func run(_ context: Context) throws -> ExitCode {
    let (id, typed) = (context.arguments.arguments[0], context.arguments.arguments[1].lowercased())
    let now = try context.requireNow()
    // An action near an offered one (snoze) is named, and asked about on a terminal.
    return try NearNames.answering(typed, context) { action in try answer(id, action, now, context)
    }
  }

  private static func answer(_ id: String, _ action: String, _ now: Date, _ context: Context)
    throws
  {
    // An answer to a request that does not exist creates no store.
    _ = try context.withWritableStore { store in
      var occurrence: Int64?
      if let text = context.arguments.text(Self.occurrence) {
        // A local time is the user's, as every time typed on the command line.
        occurrence = try TimeArgument.parse(
          text, option: Self.occurrence.name, now: now,
          zone: try context.userTimeZone(try store.settings()), timeOfDay: .latestPast,
          command: spec.name
        ).secondsSince1970
      }
      return try Responder(store: store, context: context).answer(
        id: id, action: action, occurrence: occurrence, now: try context.nowSeconds()
      ) { result in
        if context.isJSON {
          context.output.line(
            JSON.object([
              ("id", .string(id)), ("action", .string(action)), ("recorded", .bool(result.changed)),
              ("message", .string(result.message)),
              ("notes", .array(result.notes.map(JSON.string))),
            ]).serialized())
        } else {
          context.output.line(TerminalText.escaped(result.message))
          for note in result.notes { context.output.line(TerminalText.escaped(note)) }
        }
        try context.output.deliver()
      }
    }
  }
}
