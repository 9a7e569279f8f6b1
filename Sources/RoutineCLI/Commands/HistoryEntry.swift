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
  /// For a delivery of a wall-clock trigger, or an answer to one: the local date and time it
  /// fired by.
  var slot: FiringSlot?
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
  /// For a delivery: what became of the firing (acted on, ignored, ...), when judged.
  var result: FiringOutcome?
  /// For a delivery: the kind whose logging does its act.
  var actKind: String?
  /// For a delivery skipped by a rule: the rule.
  var rule: SkipRule?
  /// For a delivery held while the person was away: why.
  var heldReason: String?
  /// For a held delivery delivered since: when.
  var releasedAt: Int64?

  init(_ record: DeliveryRecord) {
    kind = .delivery
    reminderID = record.request.metadata?.reminderID
    at = record.attempt == 0 ? record.occurrence.at : record.due.dueAt
    requestID = record.occurrence.requestID
    occurrence = record.occurrence.at
    slot = record.occurrence.slot
    title = record.request.title
    what = record.outcome.rawValue
    late = record.isLate
    attempt = record.attempt
    alert = record.request.origin == .outlier
    sink = record.sink
    reason = record.reason
    actKind = record.request.actKind?.name
    rule = record.rule
    heldReason = record.heldReason
    releasedAt = record.releasedAt
  }

  /// Delivered after being held.
  var isReleased: Bool {
    attempt == 0 && releasedAt != nil && (what == "delivered" || what == "sending")
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
      ("type", .string(kind.rawValue)), ("at", .string(shown(at, zone: zone).stamp.iso8601)),
      ("id", .string(requestID)),
      ("occurrence", .string(shown(occurrence, zone: zone).stamp.iso8601)),
    ]
    switch kind {
    case .delivery:
      members += [
        ("outcome", .string(what)), ("late", .bool(late)), ("attempt", .integer(attempt)),
        ("alert", .bool(alert)), ("title", .string(title)), ("sink", .optional(sink)),
        ("reason", .optional(reason)), ("rule", .optional(rule?.rawValue)),
        ("result", .optional(result?.name)),
        ("resultMinutes", HistoryEntry.minutes(result).map(JSON.integer) ?? .null),
        (
          "held",
          heldReason.map { reason in
            .object([
              ("reason", .string(reason)),
              (
                "releasedAt",
                releasedAt.map { .string(TimeArgument.stamp($0, zone).iso8601) } ?? .null
              ),
            ])
          } ?? .null
        ),
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

  /// The colour of the entry's label: what reached the person green, what did not red, what
  /// was skipped for them yellow.
  var color: Paint? {
    switch (kind, what) {
    case (.answer, _): .green
    case (.delivery, "delivered"): late || releasedAt != nil ? .yellow : .green
    case (.delivery, "held"): .yellow
    case (.delivery, "missed"), (.delivery, "failed"): .red
    case (.delivery, "skipped"), (.delivery, "suppressed"), (.delivery, "cancelled"),
      (.cancellation, "will skip"):
      .yellow
    default: nil
    }
  }

  /// The minutes after the firing its act came, for an outcome that has them.
  static func minutes(_ outcome: FiringOutcome?) -> Int? {
    switch outcome {
    case .acted(let minutes), .snoozedThenActed(let minutes): minutes
    default: nil
    }
  }

  /// `instant` as the person saw it. A firing of a wall-clock trigger happened on the clock of
  /// the zone it fired in, which after a trip is not today's: its slot and instant give that
  /// zone's offset, and it is shown there (`elsewhere`), so that New York's 07:00 does not read
  /// as Berlin's 13:00. Instants without a slot (alerts, answers) are shown in `zone`.
  func shown(_ instant: Int64, zone: Zone) -> (stamp: Timestamp, elsewhere: Bool) {
    let here = TimeArgument.stamp(instant, zone)
    guard let slot, WallClock.instant(on: slot.date, at: slot.time, in: zone) != occurrence
    else { return (here, false) }
    let offset = slot.localSeconds - occurrence
    // A slot's time can lie in a clock change's gap in the zone it fired in, which shifts the
    // derived offset by the gap; anything past the widest real offsets is no offset at all.
    guard abs(offset) <= 18 * 3600, offset != Int64(here.utcOffsetSeconds) else {
      return (here, false)
    }
    return (Timestamp(secondsSince1970: instant, utcOffsetSeconds: Int32(offset)), true)
  }

  /// `Sat 2026-11-21 06:50`, or with seconds when they are not zero; a firing in another zone
  /// than `zone` carries its offset (`Thu 2026-03-26 08:00 -04:00`).
  func stamp(zone: Zone) -> String {
    let (stamp, elsewhere) = shown(at, zone: zone)
    let text = EventFormatting.localDateTime(stamp)
    return elsewhere ? "\(text) \(stamp.offsetText)" : text
  }

  /// `Sat 2026-11-21 06:50  delivered   reminder-5  Do Stretch (late)`.
  func text(
    zone: Zone, clock: ClockStyle, idWidth: Int, stampWidth: Int, output: Output? = nil
  ) -> String {
    let stamp = HelpFormatter.padded(self.stamp(zone: zone), to: stampWidth)
    var label: String
    var detail: String
    switch kind {
    case .delivery:
      label = isReleased ? "released" : alert && what == "delivered" ? "alerted" : what
      if attempt > 0 { label += " again" }
      detail = TerminalText.escaped(title)
      var notes: [String] = []
      if isReleased, let releasedAt {
        notes.append(
          "held \(counted(Int(max(0, releasedAt - at) / 60), "minute")): "
            + TerminalText.escaped(heldReason ?? "away"))
      } else if what == "held", let heldReason {
        notes.append(
          (heldReason.hasPrefix("quiet hours") ? "until they end: " : "until you are back: ")
            + TerminalText.escaped(heldReason))
      } else if late && what == "delivered" {
        notes.append("late")
      }
      if attempt > 0 { notes.append("ring \(attempt + 1)") }
      if let rule, what == "skipped" { notes.append(rule.words) }
      if let reason { notes.append(TerminalText.escaped(reason)) }
      if let words = OutcomeReader.words(result, kind: actKind, zone: zone, clock: clock) {
        notes.append(TerminalText.escaped(words))
      }
      if !notes.isEmpty { detail += " (\(notes.joined(separator: "; ")))" }
    case .answer:
      label = "answered"
      let (firingStamp, elsewhere) = shown(occurrence, zone: zone)
      let firing =
        EventFormatting.localDateTime(firingStamp)
        + (elsewhere ? " \(firingStamp.offsetText)" : "")
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
    let paint = output.map { $0.paint(HelpFormatter.padded(label, to: 17), color) }
    return "\(stamp)  \(paint ?? HelpFormatter.padded(label, to: 17))"
      + "\(HelpFormatter.padded(TerminalText.escaped(requestID), to: idWidth + 2))\(detail)"
  }
}
