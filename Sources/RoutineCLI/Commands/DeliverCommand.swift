import Foundation
import RoutineCore
import RoutineStore

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
    let report = try Deliverer.reading(store: store, context: context).run(sink: sink, now: now)
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
      // Each firing once, when it is first held (a run every minute says nothing new).
      for record in report.held {
        let at = TimeArgument.stamp(record.occurrence.at, zone)
        context.output.line(
          "held \(record.occurrence.requestID) (\(EventFormatting.localDateTime(at))): "
            + TerminalText.escaped(record.heldReason ?? "") + ": "
            + TerminalText.escaped(record.request.title))
      }
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
