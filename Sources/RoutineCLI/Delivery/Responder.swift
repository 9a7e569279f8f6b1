import Foundation
import RoutineCore
import RoutineStore

/// Answers a notification (docs/delivery.md): `routine respond`, a command's printed action, a
/// desktop button. The core decides (``ActionHandler``); this applies the decision, the logged
/// event, the answer and the checks after logging, in one transaction of its own: all of it or
/// nothing, and the same answer to the same firing twice is stored once.
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
  /// delivered) at `now`. `deliverOutput` runs inside the transaction, before it commits: a
  /// result that cannot be written changes nothing.
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
      if let earlier = try store.answer(to: firing, action: action) {
        let when = TimeArgument.stamp(earlier.answeredAt, zone)
        let result = Result(
          message:
            "'\(id)' (\(firingText)) was answered '\(action)' at \(clock.format(when.timeOfDay)) already; nothing changed.",
          changed: false)
        try deliverOutput(result)
        return result
      }
      let handler = ActionHandler(snoozeMinutes: settings.snoozeMinutes, clock: clock)
      let outcome: ActionOutcome
      do {
        outcome = try handler.answer(action, to: target, now: now, in: zone)
      } catch let error as ActionError {
        throw CommandError(.dataError, error.description)
      }
      // A firing takes one answer: snooze and open leave it open, the others close it.
      if let closing = try store.answers(requestID: firing.requestID).first(where: {
        $0.occurrence == firing && !Responder.leavesOpen.contains($0.action)
      }) {
        let when = TimeArgument.stamp(closing.answeredAt, zone)
        throw CommandError(
          .dataError,
          "'\(id)' (\(firingText)) was answered '\(closing.action)' at \(clock.format(when.timeOfDay)) already; a firing takes one answer (snooze and open aside), so '\(action)' changes nothing"
        )
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
              "\(event.kind.name) at \(clock.format(event.timestamp.timeOfDay)) was logged already; it counts once."
          }
        case .schedule(let request):
          try store.schedule(request)
        case .completeTask(let taskID, let at):
          if var task = try store.task(id: taskID) {
            task.doneAt = at
            try store.updateTask(task)
          }
        }
      }
      let effects = try store.afterLogging(logged, now: now, in: zone, clock: clock)
      _ = try store.recordAnswer(
        firing, action: action, at: now, eventID: eventID, message: message)
      var result = Result(message: message, changed: true)
      result.notes = Responder.notes(effects, zone: zone, clock: clock)
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
      + effects.alerts.map { "Unusual: \($0.body) (an alert goes out with the next delivery)" }
  }

  /// The notification being answered: a pending request (stored or a reminder's), or, for one
  /// removed since it fired, what its delivery recorded.
  /// The answers after which a firing can still be answered otherwise.
  static let leavesOpen: Set<String> = ["snooze", "open"]

  private func target(id: String, occurrence: Int64?, now: Int64, zone: Zone, clock: ClockStyle)
    throws -> AnswerTarget
  {
    let delivered = try store.latestDelivery(requestID: id, occurrence: occurrence)
    if let request = try store.pendingRequest(id: id, clock: clock) {
      if let occurrence, delivered == nil {
        try check(occurrence, of: request, now: now, zone: zone)
      }
      let at =
        try occurrence ?? delivered?.occurrence.at ?? lastFiring(of: request, now: now, zone: zone)
      return AnswerTarget(
        requestID: id, occurrence: at, category: request.category, origin: request.origin,
        title: request.title, body: request.body, metadata: request.metadata)
    }
    if let delivered {
      let request = delivered.request
      return AnswerTarget(
        requestID: id, occurrence: delivered.occurrence.at, category: request.category,
        origin: request.origin, title: request.title, body: request.body,
        metadata: request.metadata)
    }
    let known = try store.pendingRequests(clock: clock).map(\.id)
    let hint = Suggestion.nearest(to: id, among: known).map { "; did you mean '\($0)'?" } ?? ""
    throw CommandError(
      .dataError,
      "there is no notification '\(id)': it is neither pending nor ever delivered\(hint) ('routine pending' lists them)"
    )
  }

  /// An answer names a firing that was delivered, or one of the request's firings that has
  /// come (answered from the command line before delivery ran): never another time.
  private func check(
    _ occurrence: Int64, of request: NotificationRequest, now: Int64, zone: Zone
  )
    throws
  {
    let fires = request.trigger.occurrences(from: occurrence, to: occurrence + 1, in: zone)
    guard !fires.contains(occurrence) || occurrence > now else { return }
    let named = EventFormatting.localDateTime(TimeArgument.stamp(occurrence, zone))
    let latest = request.trigger.occurrences(from: now - 7 * 86_400, to: now + 1, in: zone).last
    let hint =
      latest.map {
        "; its latest was \(EventFormatting.localDateTime(TimeArgument.stamp($0, zone)))"
      } ?? ""
    throw CommandError(
      .dataError,
      occurrence > now && fires.contains(occurrence)
        ? "'\(request.id)' fires at \(named), which has not come yet; answer it once it has"
        : "'\(request.id)' does not fire at \(named)\(hint) (--occurrence names a firing, as delivery gives it)"
    )
  }

  /// The latest firing of `request` at or before `now` within a day, for an answer that names
  /// none and was never delivered.
  private func lastFiring(of request: NotificationRequest, now: Int64, zone: Zone) throws
    -> Int64
  {
    guard let last = request.trigger.occurrences(from: now - 86_400, to: now + 1, in: zone).last
    else {
      throw CommandError(
        .dataError,
        "'\(request.id)' has not fired in the last day; name the firing with --occurrence TIME")
    }
    return last
  }
}
