import Foundation
import RoutineCore
import RoutineStore

/// Answers a notification (docs/delivery.md): `routine respond`, a command's printed action, a
/// desktop button. The core decides (``ActionHandler``: which firing an answer refers to, the
/// one-answer-per-firing rule, what the action does); this gathers what the store knows and
/// applies the decision, the logged event, the answer and the checks after logging, in one
/// transaction of its own: all of it or nothing, and the same answer to the same firing twice is
/// stored once.
struct Responder {
  let store: EventStore
  let context: Context

  /// What an answer did.
  struct Result {
    /// The confirmation.
    var message: String
    /// Whether anything changed (not an answer given before).
    var changed: Bool
    /// Further lines: cancellations and alerts the logged event caused.
    var notes: [String] = []
  }

  /// Answers `action` to request `id`'s firing at `occurrence` (by default the latest one
  /// delivered) at `now`. `id` may also name a reminder whose firings were delivered: the last
  /// one delivered is answered. `deliverOutput` runs inside the transaction, before it commits:
  /// a result that cannot be written changes nothing.
  func answer(
    id: String, action: String, occurrence: Int64?, now: Int64,
    deliverOutput: (Result) throws -> Void = { _ in }
  ) throws -> Result {
    try store.write {
      let settings = try store.settings()
      let zone = try context.userTimeZone(settings)
      let clock = context.clockStyle(settings)
      let target = try self.target(
        id: id, occurrence: occurrence, now: now, zone: zone, clock: clock)
      let firing = Occurrence(requestID: target.requestID, at: target.occurrence)
      let firingText = EventFormatting.localDateTime(TimeArgument.stamp(firing.at, zone))
      // "'reminder-1' ('reminder-1-weekday-4', Wed 2026-05-06 09:00)" for a reminder's id.
      let subject =
        target.requestID == id
        ? "'\(id)' (\(firingText))" : "'\(id)' ('\(target.requestID)', \(firingText))"
      let given = try store.answers(requestID: firing.requestID).filter { $0.occurrence == firing }
        .map {
          PriorAnswer(action: $0.action, answeredAt: $0.answeredAt, isUndone: $0.undoneAt != nil)
        }
      let snoozes = try store.requests().filter { $0.origin == .snooze }
      let handler = ActionHandler(snoozeMinutes: settings.snoozeMinutes, clock: clock)
      let decision: AnswerDecision
      do throws(AnswerError) {
        decision = try handler.decide(
          action, to: target, given: given, pendingSnoozes: snoozes, now: now, in: zone)
      } catch .notOffered(let error) {
        throw CommandError(.dataError, error.description, suggestion: error.near)
      } catch .closed(let closing) {
        let when = TimeArgument.stamp(closing.answeredAt, zone)
        throw CommandError(
          .dataError,
          "\(subject) was answered '\(closing.action)' at \(clock.formatClock(when.timeOfDay)) already; a firing takes one answer (a snooze and opening it aside), so '\(action)' changes nothing"
        )
      }
      let outcome: ActionOutcome
      switch decision {
      case .unchanged(let earlier):
        let when = TimeArgument.stamp(earlier.answeredAt, zone)
        let result = Result(
          message:
            "\(subject) was answered '\(action)' at \(clock.formatClock(when.timeOfDay)) already; nothing changed.",
          changed: false)
        try deliverOutput(result)
        return result
      case .apply(let decided):
        outcome = decided
      }
      var eventID: Int64?
      var logged: [Event] = []
      var message = outcome.message
      for effect in outcome.effects {
        switch effect {
        case .log(let event):
          let inserted = try store.insertReturningID(event)
          eventID = inserted.id
          logged.append(event)
          // The same event in the same second (another answer a moment ago) is one event.
          if !inserted.added {
            message =
              "\(event.kind.name) at \(clock.formatClock(event.timestamp.timeOfDay)) was logged already; it counts once."
          }
        case .schedule(let request):
          try store.schedule(request)
        case .unschedule(let id):
          try store.cancelRequest(id: id)
        case .completeTask(let taskID, let at):
          if var task = try store.task(id: taskID) {
            task.doneAt = at
            try store.updateTask(task)
          }
        }
      }
      let effects = try store.afterLogging(logged, now: now, in: zone, clock: clock)
      let resumed =
        logged.isEmpty
        ? nil
        : try LearnedPause.resume(
          store, settings: settings, zone: zone, now: now, context: context)
      _ = try store.recordAnswer(
        firing, action: action, at: now, eventID: eventID, message: message)
      var result = Result(message: message, changed: true)
      result.notes =
        Responder.notes(effects, zone: zone, clock: clock) + (resumed.map { [$0] } ?? [])
      try deliverOutput(result)
      return result
    }
  }

  /// Lines about what logging an event caused: cancelled firings, outlier alerts.
  static func notes(_ effects: LoggingEffects, zone: Zone, clock: ClockStyle) -> [String] {
    effects.cancellations.map { cancellation in
      let at = TimeArgument.stamp(cancellation.occurrence.at, zone)
      return
        "Skipped \(cancellation.occurrence.requestID) at \(EventFormatting.localDateTime(at)): "
        + ForwardCheck.reason(kind: cancellation.eventKind, at: cancellation.eventAt, clock: clock)
        + "."
    }
      + effects.closed.map { closed in
        let back =
          closed.snooze.trigger.nextFire(after: Int64.min, in: zone).map {
            " (due \(clock.formatClock(TimeArgument.stamp($0, zone).timeOfDay)))"
          } ?? ""
        return "Removed the snoozed \(closed.snooze.id)\(back): "
          + ForwardCheck.reason(
            kind: closed.event.kind.name, at: closed.event.timestamp, clock: clock)
          + "."
      }
      + effects.alerts.map { "Unusual: \($0.body) (an alert goes out with the next delivery)" }
  }

  /// The notification being answered: a pending request (stored or a reminder's), or, for one
  /// removed since it fired, what its delivery recorded; for a reminder's id, its firing
  /// delivered last.
  private func target(id: String, occurrence: Int64?, now: Int64, zone: Zone, clock: ClockStyle)
    throws -> AnswerTarget
  {
    let delivered = try store.latestDelivery(requestID: id, occurrence: occurrence)
    if let request = try store.pendingRequest(id: id, clock: clock) {
      let at: Int64
      do {
        at = try ActionHandler.firing(
          of: request, named: occurrence, namedWasDelivered: occurrence != nil && delivered != nil,
          lastDelivered: delivered?.occurrence.at, now: now, in: zone)
      } catch {
        throw CommandError(.dataError, Responder.describe(error, of: request.id, zone: zone))
      }
      return AnswerTarget(
        requestID: id, occurrence: at, category: request.category, origin: request.origin,
        title: request.title, body: request.body, metadata: request.metadata)
    }
    if let delivered { return Responder.target(delivered) }
    // A reminder's own id (`reminder-1` for its requests `reminder-1-weekday-2`...): the firing
    // of its requests delivered last, when there is one.
    if let occurrence, let reminder = try store.reminder(id: id) {
      // With --occurrence: the request of the reminder that has that firing (delivered, or
      // one its trigger has).
      let requests = try store.pendingRequests(clock: clock).filter {
        $0.metadata?.reminderID == reminder.id
      }
      for request in requests {
        if let delivered = try store.latestDelivery(requestID: request.id, occurrence: occurrence) {
          return Responder.target(delivered)
        }
      }
      for request in requests {
        guard
          let at = try? ActionHandler.firing(
            of: request, named: occurrence, namedWasDelivered: false, lastDelivered: nil,
            now: now, in: zone)
        else { continue }
        return AnswerTarget(
          requestID: request.id, occurrence: at, category: request.category,
          origin: request.origin, title: request.title, body: request.body,
          metadata: request.metadata)
      }
      let text = EventFormatting.localDateTime(TimeArgument.stamp(occurrence, zone))
      throw CommandError(
        .dataError,
        "'\(id)' has no firing at \(text) (--occurrence names a firing, as delivery gives it)")
    }
    if occurrence == nil, let reminder = try store.reminder(id: id) {
      if let last = try store.latestDelivery(reminderID: reminder.id) {
        return Responder.target(last)
      }
      let requests = ReminderPlanner(clock: clock).requests(
        for: [reminder], habits: try store.habits(), tasks: try store.tasks()
      ).map(\.id)
      throw CommandError(
        .dataError,
        "'\(id)' is a reminder none of whose firings was delivered yet; answer a firing by its notification's id"
          + (requests.isEmpty ? "" : " (\(requests.joined(separator: ", ")))"))
    }
    let known = try store.pendingRequests(clock: clock).map(\.id)
    let hint = Suggestion.nearest(to: id, among: known).map { "; did you mean '\($0)'?" } ?? ""
    throw CommandError(
      .dataError,
      "there is no notification '\(id)': it is neither pending nor ever delivered\(hint) ('routine pending' lists them)"
    )
  }

  /// The target a delivery recorded (the request may be gone since).
  private static func target(_ delivered: DeliveryRecord) -> AnswerTarget {
    let request = delivered.request
    return AnswerTarget(
      requestID: delivered.occurrence.requestID, occurrence: delivered.occurrence.at,
      category: request.category, origin: request.origin, title: request.title,
      body: request.body, metadata: request.metadata)
  }

  /// The sentence for a firing an answer cannot name.
  private static func describe(_ error: FiringChoiceError, of id: String, zone: Zone) -> String {
    func text(_ at: Int64) -> String { EventFormatting.localDateTime(TimeArgument.stamp(at, zone)) }
    switch error {
    case .notYet(let at):
      return "'\(id)' fires at \(text(at)), which has not come yet; answer it once it has"
    case .doesNotFire(let at, let latest):
      let hint = latest.map { "; its latest was \(text($0))" } ?? ""
      return
        "'\(id)' does not fire at \(text(at))\(hint) (--occurrence names a firing, as delivery gives it)"
    case .noRecentFiring:
      return "'\(id)' has not fired in the last day; name the firing with --occurrence TIME"
    }
  }
}
