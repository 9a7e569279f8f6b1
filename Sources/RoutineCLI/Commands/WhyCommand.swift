import Foundation
import RoutineCore
import RoutineStore

/// `routine why ID`
enum WhyCommand: Command {
  static let spec = CommandSpec(
    name: "why",
    summary: "Explain the last decisions about a request: why it fired, or why not.",
    discussion: """
      For a pending request (or every request of a reminder): where it comes from, when it fires
      next and whether that firing will be skipped; then its last five firings and what became
      of each (delivered, late, missed, suppressed by the forward check, cancelled when the
      activity was logged), with the answers given. A learned request that the last plan left
      out because nothing was logged for days says so.
      """,
    arguments: [ArgumentSpec("ID", "A request (as 'routine pending' lists it) or a reminder.")],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.nowSeconds()
    let (lines, json): ([String], JSON) = try context.reading { store, settings, zone in
      guard let store else {
        throw CommandError(
          .dataError,
          "there is no request '\(id)': there is no store at '\(context.displayPath(try context.storePath()))' yet"
        )
      }
      let clock = context.clockStyle(settings)
      let pending = try store.pendingRequests(clock: clock)
      let requests = pending.filter {
        $0.id == id || $0.metadata?.reminderID == id
          || ($0.origin == .learned && $0.adaptationKey == id)
      }
      // The last five, found by the store: a long history is not read whole (and answers are
      // looked up for those five only).
      let recent = try store.latestDeliveries(of: id, limit: 5)
      let reminder = try store.reminder(id: id)
      // A learned request the last plan left out because logging stopped is explained, not
      // unknown (a reminder you defined is never paused).
      let paused =
        reminder == nil && id.hasPrefix(Planner.learnedPrefix) && requests.isEmpty
        ? try LearnedPause.message(store) : nil
      guard !requests.isEmpty || !recent.isEmpty || reminder != nil || paused != nil
      else {
        throw HistoryCommand.unknown(
          id, known: pending.map(\.id) + (try store.reminders().map(\.id)))
      }
      func stamp(_ at: Int64) -> Timestamp { TimeArgument.stamp(at, zone) }
      var lines: [String] = []
      var members: [(String, JSON)] = [("id", .string(id))]
      if let reminder {
        let subject = ReminderFormatting.subject(
          reminder, habit: try store.habit(id: reminder.link ?? ""),
          task: try store.task(id: reminder.link ?? ""))
        let silent = reminder.isEnabled && requests.isEmpty
        lines.append(
          "\(reminder.id) is \(reminder.isEnabled ? "on" : "off"): \(subject)"
            + (silent ? " (it makes no request now)" : ""))
        members.append(
          (
            "reminder",
            .object([
              ("id", .string(reminder.id)), ("enabled", .bool(reminder.isEnabled)),
              ("subject", .string(subject)), ("makesNoRequest", .bool(silent)),
            ])
          ))
      } else {
        members.append(("reminder", .null))
      }
      if let paused {
        lines.append("\(id) makes no request now. Paused: \(paused) (the nightly plan decided).")
      }
      members.append(("learnedPaused", .optional(paused)))
      let skips = try Skips(store: store, requests: pending, now: now, zone: zone, clock: clock)
      // What adaptation decided, once per reminder (a learned one's requests share it).
      let records = settings.adapts ? try store.adaptations() : [:]
      var adaptationJSON: [JSON] = []
      var shown = Set<String>()
      for key in requests.compactMap(\.adaptationKey) + (reminder.map { [$0.id] } ?? [])
      where shown.insert(key).inserted {
        guard let record = records[key] else { continue }
        lines.append("\(key): \(WhyCommand.standing(record))")
        for explanation in record.explanations { lines.append("  \(explanation)") }
        adaptationJSON.append(WhyCommand.json(record))
      }
      members.append(("adaptation", .array(adaptationJSON)))
      let outcomes = OutcomeReader(store: store, zone: zone, now: now)
      var requestsJSON: [JSON] = []
      for request in requests {
        lines.append("\(request.id): \(WhyCommand.origin(request)).")
        let firing = request.trigger.nextFiring(after: now, in: zone)
        let skipped = firing.flatMap { skips.reason(request, at: $0) }
        if let firing {
          let when = EventFormatting.localDateTime(stamp(firing.at))
          lines.append(
            skipped.map { "  next \(when): will be skipped: \($0)." }
              ?? "  next \(when): will fire" + WhyCommand.condition(request) + ".")
        } else {
          lines.append("  it will not fire again.")
        }
        requestsJSON.append(
          .object([
            ("id", .string(request.id)), ("origin", .string(WhyCommand.origin(request))),
            ("next", .optional(firing.map { stamp($0.at).iso8601 })),
            ("nextSkipped", .optional(skipped)),
            ("condition", .optional(WhyCommand.conditionText(request))),
          ]))
      }
      members.append(("requests", .array(requestsJSON)))
      if recent.isEmpty {
        // Firings before the first delivery run are not recorded (docs/delivery.md): say so
        // rather than claim none came due.
        lines.append(
          try store.state(Deliverer.watermark) == nil
            ? "No firing of it is recorded: nothing has delivered reminders from this store yet ('routine deliver' from cron, or 'routine watch')."
            : "No firing of it is recorded yet.")
      } else {
        lines.append("Last firings:")
      }
      var firingsJSON: [JSON] = []
      for record in recent {
        let when = EventFormatting.localDateTime(stamp(record.occurrence.at))
        let rangAt = clock.formatClock(stamp(record.decidedAt).timeOfDay)
        let explanation = WhyCommand.explain(record, rangAt: rangAt)
        let result = try outcomes.outcome(of: record)
        var text = "  \(when) \(record.occurrence.requestID): " + explanation
        let given = try store.answers(to: record.occurrence)
        for answer in given {
          let at = clock.formatClock(stamp(answer.answeredAt).timeOfDay)
          text += "; answered '\(answer.action)' at \(at)"
        }
        if let words = OutcomeReader.words(
          result, kind: record.request.actKind?.name, zone: zone, clock: clock)
        {
          text += ": \(words)"
        }
        lines.append(text + ".")
        firingsJSON.append(
          .object([
            ("id", .string(record.occurrence.requestID)),
            ("occurrence", .string(stamp(record.occurrence.at).iso8601)),
            ("attempt", .integer(record.attempt)), ("outcome", .string(record.outcome.rawValue)),
            ("late", .bool(record.isLate)), ("explanation", .string(explanation)),
            ("result", .optional(result?.name)),
            (
              "answers",
              .array(
                given.map {
                  .object([
                    ("action", .string($0.action)), ("at", .string(stamp($0.answeredAt).iso8601)),
                    ("undone", .bool($0.undoneAt != nil)),
                  ])
                })
            ),
          ]))
      }
      members.append(("lastFirings", .array(firingsJSON)))
      return (lines, .object(members))
    }
    if context.isJSON {
      context.output.line(json.serialized())
    } else {
      for line in lines { context.output.line(TerminalText.escaped(line)) }
    }
    return .ok
  }

  /// "active, strength 72%, streak 5 days": a reminder's state as adaptation left it.
  static func standing(_ record: AdaptationRecord) -> String {
    var text = record.state == .paused ? "paused" : record.stateText
    if record.mode == .off { text = "adaptation off" }
    if let strength = record.strength {
      text += ", strength \(Int((strength * 100).rounded()))%"
    }
    if let streak = record.streak { text += ", streak \(counted(streak, "day"))" }
    return text
  }

  /// A record as `--json` shows it.
  static func json(_ record: AdaptationRecord) -> JSON {
    .object([
      ("key", .string(record.key)), ("state", .string(record.state.rawValue)),
      ("mode", .string(record.mode.rawValue)), ("spacingDays", .integer(record.spacing)),
      ("offsetMinutes", .integer(record.offsetMinutes)),
      ("strength", .rounded(record.strength, places: 3)),
      ("streak", record.streak.map(JSON.integer) ?? .null),
      ("explanations", .array(record.explanations.map { .string($0) })),
    ])
  }

  static func origin(_ request: NotificationRequest) -> String {
    switch request.origin {
    case .learned:
      let confidence = request.metadata?.confidence.map { JSON.format(($0 * 100).rounded()) }
      let usual = request.metadata?.suggestedTime.map { " around \($0)" } ?? ""
      return "learned from your log (\(request.metadata?.eventKind ?? request.title)\(usual)"
        + (confidence.map { ", confidence \($0)%" } ?? "") + ")"
    case .snooze: return "a snoozed reminder, one time"
    case .outlier: return "an outlier alert, one time"
    case .reminder:
      return "from \(request.metadata?.reminderID ?? "a reminder"), which you defined"
    }
  }

  static func condition(_ request: NotificationRequest) -> String {
    conditionText(request).map { " \($0)" } ?? ""
  }

  /// "unless Workout is logged in the 12 hours before", or `nil` when it always fires.
  static func conditionText(_ request: NotificationRequest) -> String? {
    guard let metadata = request.metadata, let lookBack = metadata.lookBack else { return nil }
    switch lookBack {
    case .hours(let hours):
      return "unless \(metadata.eventKind) is logged in the "
        + (hours == 1 ? "hour" : "\(hours) hours") + " before"
    case .sameDay:
      return "unless \(metadata.eventKind) is logged that day before it"
    case .minutes(let minutes):
      return "unless \(metadata.eventKind) is logged in the "
        + (minutes == 1 ? "minute" : "\(minutes) minutes") + " before"
    case .since(let time):
      return "unless \(metadata.eventKind) is logged since \(time) (its part of the day)"
    }
  }

  /// What became of `record`, in words; `rangAt` is the clock time an alarm's later ring went
  /// out, so that its rings read apart ("ring 3 at 08:10").
  static func explain(_ record: DeliveryRecord, rangAt: String? = nil) -> String {
    let reason = record.reason.map { ": \($0)" } ?? ""
    switch record.outcome {
    case .delivered where record.releasedAt != nil:
      let minutes = max(0, (record.releasedAt ?? 0) - record.occurrence.at) / 60
      return "held (\(record.heldReason ?? "you were away")), then delivered"
        + (record.sink.map { " through \($0)" } ?? "")
        + " \(counted(Int(minutes), "minute")) late, once that was over" + reason
    case .held:
      return "held: \(record.heldReason ?? "you are away"); delivered once that is over"
    case .delivered:
      let ring = "ring \(record.attempt + 1)" + (rangAt.map { " at \($0)" } ?? "")
      return (record.attempt > 0 ? "rang again, \(ring) (unanswered alarm)" : "delivered")
        + (record.isLate ? ", late (delivery ran after downtime)" : "")
        + (record.sink.map { " through \($0)" } ?? "") + reason
    case .sending:
      return "claimed, but the sink never confirmed (delivery was interrupted)" + reason
    case .missed: return "missed" + reason
    case .suppressed: return "not delivered: already done" + reason
    case .cancelled where record.heldReason != nil: return "not delivered after a hold" + reason
    case .cancelled: return "not delivered: cancelled when it was logged" + reason
    case .skipped: return "not delivered: \(record.rule?.rawValue ?? "skipped")" + reason
    case .failed: return "could not be delivered" + reason
    }
  }
}
