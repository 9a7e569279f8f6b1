import Foundation

/// The notification being answered: what its request said when it fired.
public struct AnswerTarget: Hashable, Sendable {
  /// The request.
  public var requestID: String
  /// The firing answered.
  public var occurrence: Int64
  /// Its category: which actions it offers.
  public var category: NotificationCategory.ID
  /// Who made the request.
  public var origin: RequestOrigin
  /// The title it showed.
  public var title: String
  /// The body it showed.
  public var body: String
  /// What it is about (the kind "I'm on it" logs), and more.
  public var metadata: RequestMetadata?

  /// A target.
  public init(
    requestID: String, occurrence: Int64, category: NotificationCategory.ID,
    origin: RequestOrigin, title: String, body: String, metadata: RequestMetadata?
  ) {
    self.requestID = requestID
    self.occurrence = occurrence
    self.category = category
    self.origin = origin
    self.title = title
    self.body = body
    self.metadata = metadata
  }
}

/// What an answer makes happen; the store applies the effects in one transaction with the
/// record of the answer.
public enum ActionEffect: Hashable, Sendable {
  /// Log this event.
  case log(Event)
  /// Schedule this one-time request (a snooze).
  case schedule(NotificationRequest)
  /// Remove this pending request (a snoozed copy of a firing now answered).
  case unschedule(id: String)
  /// Mark this task done.
  case completeTask(id: String, at: Timestamp)
}

/// An answer already given to a firing.
public struct PriorAnswer: Hashable, Sendable {
  /// The action.
  public var action: String
  /// When it was given (seconds since 1970).
  public var answeredAt: Int64
  /// Whether the event it logged was undone since (`routine undo`): it no longer counts.
  public var isUndone: Bool

  /// An answer.
  public init(action: String, answeredAt: Int64, isUndone: Bool = false) {
    self.action = action
    self.answeredAt = answeredAt
    self.isUndone = isUndone
  }
}

/// What an answer to a firing comes to, given the answers it already had.
public enum AnswerDecision: Hashable, Sendable {
  /// The same answer was given already: it is stored once, nothing changes.
  case unchanged(PriorAnswer)
  /// Apply this outcome.
  case apply(ActionOutcome)
}

/// Why an answer is refused.
public enum AnswerError: Error, Equatable, Sendable {
  /// The notification does not offer the action.
  case notOffered(ActionError)
  /// The firing was closed by an earlier answer (done, dismiss, a quick-log level...): a firing
  /// takes one answer; snooze and open leave it open.
  case closed(by: PriorAnswer)
}

/// Why an answer cannot name the firing it asked for.
public enum FiringChoiceError: Error, Equatable, Sendable {
  /// `--occurrence` names a firing that has not come yet.
  case notYet(Int64)
  /// `--occurrence` names a time the request does not fire at; its latest firing, if any.
  case doesNotFire(Int64, latest: Int64?)
  /// Nothing was delivered and the request has not fired in the last day.
  case noRecentFiring
}

/// The decision about an answer.
public struct ActionOutcome: Hashable, Sendable {
  /// The action answered (its short id).
  public var action: String
  /// What it makes happen.
  public var effects: [ActionEffect]
  /// The confirmation for the person ("Logged! Leaving Home recorded at 8:05 AM.").
  public var message: String
}

/// An answer the notification does not offer.
public struct ActionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The action asked for.
  public var action: String
  /// The request.
  public var requestID: String
  /// The category's actions (and `open`).
  public var valid: [String]

  /// The offered action `action` is likely a typo of (``NearName``), if any.
  public var near: String? { NearName.nearest(to: action, among: valid) }

  /// "'reminder-3-weekday-2' offers done, snooze, dismiss and open, not 'onit'", with "; did
  /// you mean 'snooze'?" for a typo.
  public var description: String {
    let list = valid.dropLast().joined(separator: ", ") + " and " + (valid.last ?? "")
    let typo = near.map { "; did you mean '\($0)'?" } ?? ""
    return "'\(requestID)' offers \(list), not '\(action)'\(typo)"
  }
}

/// The action handler (docs/delivery.md): decides what an answer to a notification does. Pure:
/// it returns effects; the store applies them, with the answer, in one transaction.
public struct ActionHandler: Sendable {
  /// Minutes until a snoozed reminder comes back.
  public var snoozeMinutes: Int
  /// How times are written in messages.
  public var clock: ClockStyle

  /// A handler.
  public init(snoozeMinutes: Int = 5, clock: ClockStyle) {
    self.snoozeMinutes = snoozeMinutes
    self.clock = clock
  }

  /// The answers after which a firing can still be answered otherwise: a snooze brings it back,
  /// and opening it is only a look.
  public static let leavesOpen: Set<String> = [
    NotificationCategory.snooze.id, NotificationCategory.open.id,
  ]

  /// What answering `action` to `target` at `now` does, given the answers the firing already
  /// had (`answers`) and the snoozed copies pending (`pendingSnoozes`, stored snooze alerts):
  /// - the same answer again is stored once and changes nothing;
  /// - an action the notification does not offer is refused;
  /// - a firing takes one answer: after one that closes it (anything but snooze and open), only
  ///   `open` is taken; an answer whose event was undone no longer counts;
  /// - an answer that closes the firing removes its snoozed copies, so they do not come back.
  public func decide(
    _ action: String, to target: AnswerTarget, given answers: [PriorAnswer],
    pendingSnoozes: [NotificationRequest] = [], now: Int64, in zone: Zone
  ) throws(AnswerError) -> AnswerDecision {
    let counted = answers.filter { !$0.isUndone }
    if let same = counted.first(where: { $0.action == action }) { return .unchanged(same) }
    var outcome: ActionOutcome
    do {
      outcome = try answer(action, to: target, now: now, in: zone)
    } catch {
      throw .notOffered(error)
    }
    if action != NotificationCategory.open.id,
      let closing = counted.first(where: { !ActionHandler.leavesOpen.contains($0.action) })
    {
      throw .closed(by: closing)
    }
    if !ActionHandler.leavesOpen.contains(action) {
      outcome.effects += pendingSnoozes.filter { $0.isSnoozedCopy(of: target) }.map {
        .unschedule(id: $0.id)
      }
    }
    return .apply(outcome)
  }

  /// The firing an answer to `request` refers to: the one `named` (`--occurrence`), which must
  /// have been delivered (`namedWasDelivered`) or have come by `now`; without a name, the one
  /// delivered last, else the request's latest firing within a day.
  public static func firing(
    of request: NotificationRequest, named: Int64?, namedWasDelivered: Bool,
    lastDelivered: Int64?, now: Int64, in zone: Zone
  ) throws(FiringChoiceError) -> Int64 {
    if let named {
      guard !namedWasDelivered else { return named }
      let fires = request.trigger.occurrences(from: named, to: named + 1, in: zone)
      if fires.contains(named) {
        guard named <= now else { throw .notYet(named) }
        return named
      }
      throw .doesNotFire(
        named,
        latest: request.trigger.occurrences(from: now - 7 * 86_400, to: now + 1, in: zone).last)
    }
    if let lastDelivered { return lastDelivered }
    guard let last = request.trigger.occurrences(from: now - 86_400, to: now + 1, in: zone).last
    else { throw .noRecentFiring }
    return last
  }

  /// What answering `action` to `target` at `now` (in `zone`) does, by the action alone.
  public func answer(_ action: String, to target: AnswerTarget, now: Int64, in zone: Zone)
    throws(ActionError) -> ActionOutcome
  {
    let category = NotificationCategory.category(target.category)
    guard category.action(action) != nil else {
      throw ActionError(action: action, requestID: target.requestID, valid: category.actionIDs)
    }
    let stamp = Timestamp(Date(timeIntervalSince1970: Double(now)), in: zone)
    let kindName = target.metadata?.eventKind
    func outcome(_ effects: [ActionEffect], _ message: String) -> ActionOutcome {
      ActionOutcome(action: action, effects: effects, message: message)
    }
    func logged(
      _ kind: EventKind, at time: Timestamp = stamp, value: Double? = nil, note: String? = nil
    )
      -> ActionEffect
    {
      .log(Event(kind: kind, timestamp: time, value: value, note: note, source: .notification))
    }

    switch action {
    case NotificationCategory.open.id:
      return outcome([], "Would open routine at '\(target.title)'; nothing logged.")
    case NotificationCategory.dismiss.id:
      return outcome([], "Dismissed '\(target.title)'; nothing logged.")
    case NotificationCategory.snooze.id:
      let fire = now + Int64(snoozeMinutes) * 60
      let alert = NotificationRequest.snoozeAlert(
        of: target, firingAt: fire)
      let back = Timestamp(Date(timeIntervalSince1970: Double(fire)), in: zone)
      // A long snooze comes back another day: say which.
      let day =
        back.localDate == stamp.localDate ? "" : "\(back.localDate.weekdayName) \(back.localDate) "
      return outcome(
        [.schedule(alert)],
        "Snoozed: '\(target.title)' comes back at \(day)\(clock.formatExact(back.timeOfDay)).")
    case "start":
      let what = target.category == .mindfulness ? "the meditation timer" : "the workout"
      let kind = kindName ?? (target.category == .mindfulness ? "Meditation" : "Workout")
      return outcome(
        [],
        "Would open \(what); nothing logged. Log it when it is done: routine log \(kind)")
    case "steady", "easy", "wild":
      // The 09:00 check-in asks about the evening before: an answer before noon counts for
      // yesterday (logged at 23:59 that day), a later one for today (logged now).
      let value = ActivityPreset.levels.first { $0.action == action }?.value ?? 0
      let today = stamp.localDate
      let day = stamp.timeOfDay.hour < 12 ? today.adding(days: -1) : today
      let time =
        day == today
        ? stamp
        : Timestamp(
          secondsSince1970: WallClock.instant(
            on: day, at: TimeOfDay(hour: 23, minute: 59)!, in: zone),
          utcOffsetSeconds: Int32(
            WallClock.offset(
              at: WallClock.instant(on: day, at: TimeOfDay(hour: 23, minute: 59)!, in: zone),
              in: zone)))
      let kind = EventKind(kindName ?? "Alcohol") ?? ActivityPreset.noalc.kind
      return outcome(
        [logged(kind, at: time, value: value, note: action)],
        "Logged \(kind.name) (\(action)) for \(day.weekdayName) \(day).")
    case NotificationCategory.onIt.id, NotificationCategory.done.id:
      if target.category == .reminder {
        return outcome([], "Done: '\(target.title)'.")
      }
      guard let kind = kindName.flatMap(EventKind.init) else {
        return outcome([], "Done: '\(target.title)'.")
      }
      var effects = [logged(kind)]
      if target.category == .taskReminder, let link = target.metadata?.link {
        effects.append(.completeTask(id: link.id, at: stamp))
      }
      let confirmation =
        target.category == .taskReminder
        ? "Done! \(kind.name) marked done at \(clock.formatClock(stamp.timeOfDay))."
        : "Logged! \(kind.name) recorded at \(clock.formatClock(stamp.timeOfDay))."
      return outcome(effects, confirmation)
    default:
      // An action of the category this handler does not know: nothing to do.
      return outcome([], "Answered '\(action)'; nothing logged.")
    }
  }
}

extension NotificationRequest {
  /// Whether this is a snoozed copy of `target`'s notification: a snooze alert of the same
  /// reminder (or, for a learned one, of the same kind and title).
  public func isSnoozedCopy(of target: AnswerTarget) -> Bool {
    guard origin == .snooze, id != target.requestID else { return false }
    if let reminder = target.metadata?.reminderID { return metadata?.reminderID == reminder }
    let title = target.title.hasPrefix("Reminder: ") ? target.title : "Reminder: \(target.title)"
    return metadata?.eventKind == target.metadata?.eventKind
      && self.title == ReminderMessages.fit(title, maximum: ReminderMessages.maximumTitleLength)
  }

  /// The one-time alert "Remind me in 5 min" makes of `target`: `alert_<Kind>_<unix seconds>`,
  /// firing at `fire`. A learned reminder's alert is in the early-warning category ("I'm on it",
  /// "Dismiss"), as in the original design; a reminder people defined keeps its own category, so
  /// that its buttons still make sense (NoAlc's levels, "Done").
  public static func snoozeAlert(of target: AnswerTarget, firingAt fire: Int64)
    -> NotificationRequest
  {
    let kindName = target.metadata?.eventKind ?? target.title
    let kind = EventKind(kindName) ?? EventKind("Reminder")!
    let compact = kind.compactName.isEmpty ? shortHash(kind.key) : kind.compactName
    let keepsCategory =
      target.origin == .reminder
      || (target.origin == .snooze && target.category != .earlyWarning)
    let title = target.title.hasPrefix("Reminder: ") ? target.title : "Reminder: \(target.title)"
    var alert = NotificationRequest(
      id: "alert_\(compact)_\(fire)", origin: .snooze,
      category: keepsCategory ? target.category : .earlyWarning,
      title: ReminderMessages.fit(title, maximum: ReminderMessages.maximumTitleLength),
      body: ReminderMessages.fit(target.body), trigger: .date(fire),
      metadata: target.metadata ?? RequestMetadata(eventKind: kind.name))
    // The copy is not needed once the act is logged after the firing it copies (back to the
    // first firing, for a copy of a copy): logging closes it, and delivery skips it.
    let original = NotificationRequest(
      id: target.requestID, origin: target.origin, category: target.category, title: target.title,
      body: target.body, trigger: .date(target.occurrence), metadata: target.metadata)
    if original.actKind != nil {
      var minutes = Int(max(0, fire - target.occurrence) / 60)
      if target.origin == .snooze, case .minutes(let before) = target.metadata?.lookBack {
        minutes += before
      }
      alert.metadata?.lookBack = .minutes(minutes)
    } else {
      alert.metadata?.lookBack = nil
    }
    return alert
  }
}
