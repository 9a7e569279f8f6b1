import Foundation
import RoutineCore
import RoutineStore

/// The `--sink` and `--exec` options, shared by `deliver` and `watch`.
enum SinkOptions {
  static let options: [OptionSpec] = [
    .value(
      "sink", "stdout|exec|notify-send",
      "Where notifications go: JSON lines on stdout (default), a command, or the desktop."),
    .value(
      "exec", "CMD",
      "With --sink exec: the command to run for each notification (sh -c CMD; the notification in ROUTINE_* variables and as JSON on stdin)."
    ),
  ]

  /// The sink the options name.
  static func sink(_ context: Context) throws -> NotificationSink {
    let name = context.arguments.value("sink") ?? SinkKind.stdout.rawValue
    guard let kind = SinkKind(rawValue: name) else {
      let names = SinkKind.allCases.map(\.rawValue)
      throw UsageError(
        "--sink: expected \(names.dropLast().joined(separator: ", ")) or \(names.last!), found '\(name)'"
          + Suggestion.clause(for: name, among: names),
        command: context.command)
    }
    let command = context.arguments.value("exec")
    if command != nil, kind != .exec {
      throw UsageError("--exec goes with --sink exec", command: context.command)
    }
    switch kind {
    case .stdout:
      return StandardOutputSink(output: context.output)
    case .exec:
      guard let command, !command.isEmpty else {
        throw UsageError("--sink exec needs --exec CMD", command: context.command)
      }
      return ExecSink(
        command: command, environment: context.environment.variables, errors: context.errors)
    case .notifySend:
      return try NotifySendSink.make(
        environment: context.environment.variables, storePath: try context.storePath())
    }
  }
}

/// `routine deliver [--sink stdout|exec|notify-send] [--exec CMD]`
enum DeliverCommand: Command {
  static let spec = CommandSpec(
    name: "deliver",
    summary:
      "Deliver the reminders that fell due since the last run (run it from cron every minute).",
    discussion: """
      Each firing due since the last run is claimed once, in one transaction, then handed to the
      sink: overlapping runs deliver nothing twice. Firings up to the grace period late (15
      minutes, 'routine settings --grace') are delivered marked late; older ones are recorded as
      missed. An activity reminder whose activity was logged in its look-back window is skipped,
      and so is a firing cancelled when the activity was logged. 'routine history' shows what
      became of each firing. docs/delivery.md has the crontab line.
      """,
    options: SinkOptions.options, globals: ["store", "now", "tz"],
    jsonNote: "its stdout sink writes each notification as a line of JSON")

  static func run(_ context: Context) throws -> ExitCode {
    let sink = try SinkOptions.sink(context)
    let now = try context.nowSeconds()
    guard let existing = try context.openExistingStore() else {
      // Nothing is planned without a store, so nothing falls due; creating one here would fix
      // its locale to cron's (docs/planner.md) before the person's first command.
      _ = try context.userTimeZone(PlannerSettings())
      return .ok
    }
    let store = try context.recordingLocale(existing)
    let report = try Deliverer(store: store, context: context).run(sink: sink, now: now)
    try show(report, sink: sink, store: store, context: context)
    return report.failureCode ?? .ok
  }

  /// Says what a run did: JSON lines are the stdout sink's whole output; other sinks get a
  /// line per delivery and per answer their command gave; failures go to stderr.
  static func show(
    _ report: Deliverer.Report, sink: NotificationSink, store: EventStore, context: Context
  ) throws {
    if sink.kind.reportsDeliveries {
      let zone = try context.userTimeZone(try store.settings())
      for record in report.delivered {
        let at = TimeArgument.stamp(record.occurrence.at, zone)
        context.output.line(
          "delivered \(record.occurrence.requestID) (\(EventFormatting.localDateTime(at)))"
            + (record.isLate ? ", late" : "") + ": " + TerminalText.escaped(record.request.title))
      }
      for answer in report.answers { context.output.line(TerminalText.escaped(answer)) }
    }
    for (record, reason) in report.failed {
      context.errors.line(
        "error: \(record.occurrence.requestID) could not be delivered: \(TerminalText.escaped(reason))"
      )
    }
    context.output.flush()
    context.errors.flush()
  }
}

/// `routine respond ID ACTION [--occurrence TIME]`
enum RespondCommand: Command {
  static let spec = CommandSpec(
    name: "respond",
    summary: "Answer a notification: onit, snooze, dismiss, done, a quick-log level, or open.",
    discussion: """
      The action handler: 'onit' and 'done' log the reminder's event now; 'snooze' brings the
      notification back in 5 minutes ('routine settings --snooze'); 'dismiss' and 'open' log
      nothing; NoAlc's 'steady', 'easy' and 'wild' log an alcohol entry. The answer, the event
      and what follows from it are stored in one transaction; the same answer to the same firing
      twice is stored once. Without --occurrence, the firing delivered last is answered.
      """,
    arguments: [
      ArgumentSpec(
        "ID",
        "The notification's identifier (as 'routine pending' lists it), or a reminder's id (its firing delivered last, or the one at --occurrence).",
        completes: .reminder),
      ArgumentSpec("ACTION", "One of the actions its category offers, or open."),
    ],
    options: [
      .value(
        "occurrence", "TIME",
        "The firing answered (ISO 8601 with offset, as delivery gives it; default: the latest delivered)."
      )
    ])

  static func run(_ context: Context) throws -> ExitCode {
    let (id, action) = (context.arguments.arguments[0], context.arguments.arguments[1].lowercased())
    let now = try context.requireNow()
    // An answer to a request that does not exist creates no store.
    _ = try context.withWritableStore { store in
      var occurrence: Int64?
      if let text = context.arguments.value("occurrence") {
        // A local time is the user's, as every time typed on the command line.
        occurrence = try TimeArgument.parse(
          text, option: "occurrence", now: now,
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
    return .ok
  }
}

/// `routine await-answer ID --occurrence TIME -- PROGRAM ARGS...`: routine's own plumbing for
/// the notify-send sink. Runs the program (`notify-send --wait ...`), and answers the action it
/// prints. Started detached, with nobody to read its output: a failure is recorded with the
/// delivery, where 'routine history' shows it.
enum AwaitAnswerCommand: Command {
  static let spec = CommandSpec(
    name: "await-answer",
    summary:
      "Wait for a desktop notification's button and answer it (started by the notify-send sink).",
    arguments: [
      ArgumentSpec("ID", "The notification's identifier."),
      ArgumentSpec("COMMAND", "The program that waits and prints the action.", repeatable: true),
    ],
    options: [.value("occurrence", "TIME", "The firing.")],
    globals: ["store", "now", "tz"], isHidden: true)

  static func run(_ context: Context) throws -> ExitCode {
    let words = context.arguments.arguments
    let id = words[0]
    guard words.count >= 2 else { throw UsageError("missing COMMAND", command: spec.name) }
    let occurrence = context.arguments.value("occurrence").flatMap(Timestamp.init(iso8601:))
    let firing = occurrence.map { Occurrence(requestID: id, at: $0.secondsSince1970) }
    let result: ChildProcess.Finished
    do {
      result = try ChildProcess.run(
        words[1], Array(words.dropFirst(2)), environment: context.environment.variables,
        input: Data(), timeout: 7 * 86_400)
    } catch {
      if let firing {
        try context.openStore().noteDelivery(
          firing, "\(words[1]) failed: \(ErrorReport.describe(error).1)", outcome: .failed)
      }
      throw error
    }
    guard result.status == 0 else {
      // The notification was never shown (no daemon, a bad argument): history says so.
      let detail = result.errors.split(separator: "\n").first.map(String.init) ?? ""
      if let firing {
        try context.openStore().noteDelivery(
          firing,
          "\((words[1] as NSString).lastPathComponent) exited with status \(result.status)"
            + (detail.isEmpty ? "" : ": \(detail)"), outcome: .failed)
      }
      return .ioError
    }
    let action = result.output.split(separator: "\n").first.map {
      $0.trimmingBlanks
    }
    guard let action, !action.isEmpty else { return .ok }
    let store = try context.openStore()
    // The person answered now, whatever --now the delivery ran with.
    let now = Int64(context.environment.clock().timeIntervalSince1970.rounded(.down))
    for attempt in 0..<5 {
      do {
        _ = try Responder(store: store, context: context).answer(
          id: id, action: action, occurrence: occurrence?.secondsSince1970, now: now)
        return .ok
      } catch let error as StoreError where attempt < 4 && error.isBusy {
        continue
      }
    }
    return .ok
  }
}
