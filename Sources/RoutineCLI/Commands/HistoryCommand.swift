import Foundation
import RoutineCore
import RoutineStore

/// One line of `routine history`: a delivery decision, an answer, or a cancellation made when an
/// activity was logged.
struct HistoryEntry {
  enum Kind: String {
    case delivery, answer, cancellation
  }

  var kind: Kind
  /// When it happened: the firing for a delivery, the answer's time, the cancelled firing.
  var at: Int64
  var requestID: String
  var occurrence: Int64
  var title: String
  /// delivered, missed, suppressed, cancelled, failed, sending; the action; cancelled/restored.
  var what: String
  var late = false
  var attempt = 0
  var alert = false
  var sink: String?
  var reason: String?
  /// The reminder a delivery came from (a snoozed alert's too).
  var reminderID: String?
  /// For an answer: the event it logged was undone since.
  var isUndone = false

  init(_ record: DeliveryRecord) {
    kind = .delivery
    reminderID = record.request.metadata?.reminderID
    at = record.occurrence.at + Int64(record.attempt) * Int64(Reminder.alarmInterval) * 60
    requestID = record.occurrence.requestID
    occurrence = record.occurrence.at
    title = record.request.title
    what = record.outcome.rawValue
    late = record.isLate
    attempt = record.attempt
    alert = record.request.origin == .outlier
    sink = record.sink
    reason = record.reason
  }

  init(_ answer: AnswerRecord) {
    kind = .answer
    at = answer.answeredAt
    requestID = answer.occurrence.requestID
    occurrence = answer.occurrence.at
    title = ""
    what = answer.action
    reason = answer.message
    isUndone = answer.undoneAt != nil
  }

  init(_ stored: StoredCancellation, clock: ClockStyle, title: String) {
    kind = .cancellation
    at = stored.cancellation.occurrence.at
    requestID = stored.cancellation.occurrence.requestID
    occurrence = stored.cancellation.occurrence.at
    self.title = title
    what = stored.restoredAt == nil ? "will skip" : "restored"
    reason = ForwardCheck.reason(
      kind: stored.cancellation.eventKind, at: stored.cancellation.eventAt, clock: clock)
  }

  func json(zone: Zone) -> JSON {
    var members: [(String, JSON)] = [
      ("type", .string(kind.rawValue)), ("at", .string(TimeArgument.stamp(at, zone).iso8601)),
      ("id", .string(requestID)),
      ("occurrence", .string(TimeArgument.stamp(occurrence, zone).iso8601)),
    ]
    switch kind {
    case .delivery:
      members += [
        ("outcome", .string(what)), ("late", .bool(late)), ("attempt", .integer(attempt)),
        ("alert", .bool(alert)), ("title", .string(title)), ("sink", .optional(sink)),
        ("reason", .optional(reason)),
      ]
    case .answer:
      members += [
        ("action", .string(what)), ("message", .optional(reason)), ("undone", .bool(isUndone)),
      ]
    case .cancellation:
      members += [
        ("restored", .bool(what == "restored")), ("title", .string(title)),
        ("reason", .optional(reason)),
      ]
    }
    return .object(members)
  }

  /// `Sat 2026-11-21 06:50`, or with seconds when they are not zero.
  func stamp(zone: Zone) -> String {
    EventFormatting.localDateTime(TimeArgument.stamp(at, zone))
  }

  /// `Sat 2026-11-21 06:50  delivered   reminder-5  Do Stretch (late)`.
  func text(zone: Zone, clock: ClockStyle, idWidth: Int, stampWidth: Int) -> String {
    let stamp = HelpFormatter.padded(self.stamp(zone: zone), to: stampWidth)
    var label: String
    var detail: String
    switch kind {
    case .delivery:
      label = alert && what == "delivered" ? "alerted" : what
      if attempt > 0 { label += " again" }
      detail = TerminalText.escaped(title)
      var notes: [String] = []
      if late && what == "delivered" { notes.append("late") }
      if attempt > 0 { notes.append("ring \(attempt + 1)") }
      if let reason { notes.append(TerminalText.escaped(reason)) }
      if !notes.isEmpty { detail += " (\(notes.joined(separator: "; ")))" }
    case .answer:
      label = "answered"
      let firing = EventFormatting.localDateTime(TimeArgument.stamp(occurrence, zone))
      detail = "'\(TerminalText.escaped(what))' to the firing of \(firing)"
      if let reason { detail += ": \(TerminalText.escaped(reason))" }
      if isUndone { detail += " (undone: the event it logged was removed)" }
    case .cancellation:
      label = what
      detail =
        TerminalText.escaped(title)
        + (reason.map {
          " (\(what == "restored" ? "restored after " : "")\(TerminalText.escaped($0)))"
        }
          ?? "")
    }
    return "\(stamp)  \(HelpFormatter.padded(label, to: 17))"
      + "\(HelpFormatter.padded(TerminalText.escaped(requestID), to: idWidth + 2))\(detail)"
  }
}

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

/// `routine history [--from TIME] [--to TIME] [--id ID]`
enum HistoryCommand: Command {
  static let spec = CommandSpec(
    name: "history",
    summary: "List what became of each firing: delivered, late, missed, skipped, answered.",
    discussion: """
      Deliveries (late or not), alarms ringing again, outlier alerts, firings missed after
      downtime, firings skipped because the activity was logged (suppressed at fire time, or
      cancelled when it was logged), failed deliveries, and answers with what they logged; and
      the cancellations still ahead. The range defaults to the 7 days before now; --from is
      inclusive, --to exclusive.
      """,
    options: [
      .value(
        "from", "TIME",
        "The start: a date and time, a date, yesterday, 'mon', '-3d' or a time today (see 'routine help dates'; default: 7 days ago)."
      ),
      .value("to", "TIME", "The end, in the same forms (default: now, and what is ahead)."),
      .value("id", "ID", "Only this request, or every request of reminder ID."),
    ])

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.requireNow()
    let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
    let only = context.arguments.value("id")
    let output = context.output
    return try context.reading { store, settings, zone in
      let clock = context.clockStyle(settings)
      let from =
        try RangeOptions.bound(context, "from", now: now, zone: zone) ?? seconds - 7 * 86_400
      let explicitEnd = try RangeOptions.bound(context, "to", now: now, zone: zone)
      guard from < explicitEnd ?? Int64.max else {
        throw UsageError(
          context.arguments.value("from") == nil
            ? "--to must come after the start, 7 days ago (--from not given)"
            : "--to must come after --from",
          command: spec.name)
      }
      if store == nil, let only { throw HistoryCommand.unknown(only, known: []) }
      let to = explicitEnd ?? Int64.max
      func matches(_ id: String) -> Bool { id == only || id.hasPrefix((only ?? "") + "-") }
      var keep: ((String) -> Bool)?
      if let store, only != nil {
        // A snoozed reminder comes back as an alert of its own id: it belongs to it too.
        let alerts = Set(
          try store.deliveredRequests(from: from, to: to)
            .filter { $0.reminderID.map(matches) == true }.map(\.requestID))
        keep = { matches($0) || alerts.contains($0) }
      }
      // Read as they are printed: a year of deliveries every minute is never held in memory.
      func entries() throws -> HistoryMerge? {
        try store.map {
          try HistoryMerge(store: $0, from: from, to: to, now: seconds, clock: clock, keep: keep)
        }
      }
      // Nothing in the range is an answer; an id nothing ever had is a typo, as in 'why'.
      func checkKnown() throws {
        guard let store, let only, try store.reminder(id: only) == nil else { return }
        let pending = try store.pendingRequests(clock: clock).map(\.id)
        if !pending.contains(where: matches),
          !(try store.deliveredRequests().contains { matches($0.requestID) })
        {
          throw HistoryCommand.unknown(only, known: pending + (try store.reminders().map(\.id)))
        }
      }
      if context.isJSON {
        var list = JSONListWriter(output, key: "entries")
        var merge = try entries()
        while let entry = try merge?.next() { list.append(entry.json(zone: zone)) }
        if list.count == 0 { try checkKnown() }
        list.finish()
        return .ok
      }
      // Two passes over the same snapshot: the first measures the columns, the second prints.
      var (count, width, stampWidth) = (0, 0, 0)
      var measuring = try entries()
      while let entry = try measuring?.next() {
        count += 1
        width = max(width, entry.requestID.count)
        stampWidth = max(stampWidth, entry.stamp(zone: zone).count)
      }
      guard count > 0 else {
        try checkKnown()
        output.line(
          only == nil
            ? "Nothing in that range: 'routine deliver' records each firing it decides about."
            : "Nothing about '\(TerminalText.escaped(only ?? ""))' in that range.")
        return .ok
      }
      var printing = try entries()
      while let entry = try printing?.next() {
        output.line(entry.text(zone: zone, clock: clock, idWidth: width, stampWidth: stampWidth))
      }
      return .ok
    }
  }
}

extension HistoryCommand {
  /// The error for an id that no request, reminder or firing ever had.
  static func unknown(_ id: String, known: [String]) -> CommandError {
    CommandError(
      .dataError,
      "there is no request or reminder '\(id)'"
        + (Suggestion.nearest(to: id, among: known).map { "; did you mean '\($0)'?" }
          ?? "; 'routine pending' lists the requests"))
  }
}

/// `routine why ID`
enum WhyCommand: Command {
  static let spec = CommandSpec(
    name: "why",
    summary: "Explain the last decisions about a request: why it fired, or why not.",
    discussion: """
      For a pending request (or every request of a reminder): where it comes from, when it fires
      next and whether that firing will be skipped; then its last five firings and what became
      of each (delivered, late, missed, suppressed by the forward check, cancelled when the
      activity was logged), with the answers given.
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
      let requests = pending.filter { $0.id == id || $0.metadata?.reminderID == id }
      // The last five, found by the store: a long history is not read whole (and answers are
      // looked up for those five only).
      let recent = try store.latestDeliveries(of: id, limit: 5)
      let reminder = try store.reminder(id: id)
      guard !requests.isEmpty || !recent.isEmpty || reminder != nil else {
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
      let skips = try Skips(store: store, requests: requests, now: now, zone: zone, clock: clock)
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
        var text = "  \(when) \(record.occurrence.requestID): " + explanation
        let given = try store.answers(to: record.occurrence)
        for answer in given {
          let at = clock.formatClock(stamp(answer.answeredAt).timeOfDay)
          text += "; answered '\(answer.action)' at \(at)"
        }
        lines.append(text + ".")
        firingsJSON.append(
          .object([
            ("id", .string(record.occurrence.requestID)),
            ("occurrence", .string(stamp(record.occurrence.at).iso8601)),
            ("attempt", .integer(record.attempt)), ("outcome", .string(record.outcome.rawValue)),
            ("late", .bool(record.isLate)), ("explanation", .string(explanation)),
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
        + (minutes == 1 ? "minute" : "\(minutes) minutes") + " before (its usual range)"
    }
  }

  /// What became of `record`, in words; `rangAt` is the clock time an alarm's later ring went
  /// out, so that its rings read apart ("ring 3 at 08:10").
  static func explain(_ record: DeliveryRecord, rangAt: String? = nil) -> String {
    let reason = record.reason.map { ": \($0)" } ?? ""
    switch record.outcome {
    case .delivered:
      let ring = "ring \(record.attempt + 1)" + (rangAt.map { " at \($0)" } ?? "")
      return (record.attempt > 0 ? "rang again, \(ring) (unanswered alarm)" : "delivered")
        + (record.isLate ? ", late (delivery ran after downtime)" : "")
        + (record.sink.map { " through \($0)" } ?? "") + reason
    case .sending:
      return "claimed, but the sink never confirmed (delivery was interrupted)" + reason
    case .missed: return "missed" + reason
    case .suppressed: return "not delivered: already done" + reason
    case .cancelled: return "not delivered: cancelled when it was logged" + reason
    case .failed: return "could not be delivered" + reason
    }
  }
}
