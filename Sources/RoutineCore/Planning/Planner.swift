/// Turns routines into learned reminder requests.
///
/// Each routine with a confidence above the threshold becomes a calendar trigger `leadMinutes`
/// before its usual time (and `bufferMinutes` more for Leaving Home), repeating every day, or on
/// each of its weekdays. Identifiers follow the original design: `routine_<Kind>` (white space
/// removed) for a daily one, with `-weekday-<1..7>` (the weekday it fires) for day-specific ones.
/// A kind with several routines (breakfast, lunch, dinner) numbers the later ones by time of day:
/// `routine_Meal`, `routine_Meal-2`, `routine_Meal-3`. Two kinds whose names differ only in white
/// space ("Wake Up", "WakeUp") get a short hash of their key appended, so no two requests ever
/// share an identifier.
public struct Planner: Sendable {
  /// What every learned request's identifier starts with.
  public static let learnedPrefix = "routine_"

  /// The settings (threshold, lead, buffer, enabled).
  public var settings: PlannerSettings
  /// The wording.
  public var messages: ReminderMessages

  /// A planner with `settings` and `messages`.
  public init(settings: PlannerSettings, messages: ReminderMessages) {
    self.settings = settings
    self.messages = messages
  }

  /// The learned requests for `analysis`, ordered by identifier (none when disabled, or when
  /// nothing was logged for ``LoggingSilence/pauseDays`` days).
  ///
  /// One reminder per act (docs/reminders.md): two chosen routines of one kind less than 3 hours
  /// apart on a day are one act, reminded once, by the routine of the fewer days (the weekend's
  /// wake-up over the every-day one), else the more confident. Each request's look-back and act
  /// window are its routine's slot among every routine of its kind (``ActWindow``).
  public func requests(for analysis: RoutineAnalysis) -> [NotificationRequest] {
    // Nothing logged for days: reminders of habits no longer recorded remind of nothing
    // (``LoggingSilence``).
    guard settings.isEnabled, !analysis.silence.pausesLearned else { return [] }
    let chosen = analysis.routines.filter {
      $0.confidence > settings.threshold && !$0.kind.isArrival
    }
    let commute = analysis.durations.first {
      $0.from.known == .leavingHome && $0.to.known == .arrivingAtWork
    }?.minutes
    let names = Planner.identifierNames(for: Set(chosen.map(\.kind)))
    let byKind = Dictionary(grouping: analysis.routines, by: \.kind)
    var requests: [NotificationRequest] = []
    for (kind, routines) in Dictionary(grouping: chosen, by: \.kind) {
      let ordered = routines.sorted { ($0.time, $0.dayKind) < ($1.time, $1.dayKind) }
      let days = Planner.daysOfOneAct(ordered)
      for (slot, routine) in ordered.enumerated() where !days[slot].isEmpty {
        let base = Planner.learnedPrefix + names[kind]! + (slot == 0 ? "" : "-\(slot + 1)")
        requests += self.requests(
          for: routine, on: days[slot], id: base, commuteMinutes: commute,
          kindRoutines: byKind[kind] ?? [])
      }
    }
    return requests.sorted { $0.id < $1.id }
  }

  /// The days each of `routines` (one kind's, in order) reminds on: its own, less those where
  /// a preferred routine of the kind lies less than ``ActWindow/sameActSeconds`` away (on that
  /// day, or across midnight on the day before or after, where it holds then).
  static func daysOfOneAct(_ routines: [Routine]) -> [WeekdaySet] {
    var days = routines.map(\.dayKind.days)
    func preferred(_ a: Routine, over b: Routine) -> Bool {
      if a.dayKind.days.count != b.dayKind.days.count {
        return a.dayKind.days.count < b.dayKind.days.count
      }
      if a.confidence != b.confidence { return a.confidence > b.confidence }
      return a.time < b.time
    }
    for i in routines.indices {
      let t = routines[i].time.secondsSinceMidnight
      for j in routines.indices where i != j && preferred(routines[j], over: routines[i]) {
        let other = routines[j].time.secondsSinceMidnight
        let theirs = routines[j].dayKind.days
        for weekday in days[i] {
          let before = weekday == 1 ? 7 : weekday - 1
          let after = weekday % 7 + 1
          let near = [(0, weekday), (-86_400, before), (86_400, after)].contains { shift, day in
            theirs.contains(day) && abs(other + shift - t) < ActWindow.sameActSeconds
          }
          if near { days[i] = WeekdaySet(rawValue: days[i].rawValue & ~(1 << UInt8(weekday))) }
        }
      }
    }
    return days
  }

  /// The slot of `routine` on its days `days`: the narrowest window over those days, among the
  /// kind's routines of each day, the day before and the day after.
  static func slot(of routine: Routine, on days: WeekdaySet, among kindRoutines: [Routine]) -> (
    start: TimeOfDay, end: TimeOfDay
  ) {
    let t = routine.time.secondsSinceMidnight
    var narrowest: (back: Int, forward: Int)?
    for weekday in days {
      var others: [Int] = []
      for other in kindRoutines where other != routine {
        let time = other.time.secondsSinceMidnight
        for (shift, day) in [
          (-86_400, weekday == 1 ? 7 : weekday - 1), (0, weekday), (86_400, weekday % 7 + 1),
        ]
        where other.dayKind.days.contains(day) {
          others.append(time + shift)
        }
      }
      let slot = ActWindow.slot(at: routine.time, others: others)
      let back = floorMod(t - slot.start.secondsSinceMidnight, 86_400)
      let forward = floorMod(slot.end.secondsSinceMidnight - t, 86_400)
      narrowest = (min(narrowest?.back ?? back, back), min(narrowest?.forward ?? forward, forward))
    }
    let (back, forward) = narrowest ?? (ActWindow.reach, ActWindow.reach)
    return (routine.time.adding(seconds: -back), routine.time.adding(seconds: forward))
  }

  private func requests(
    for routine: Routine, on days: WeekdaySet, id base: String, commuteMinutes: Int?,
    kindRoutines: [Routine]
  )
    -> [NotificationRequest]
  {
    let lead =
      settings.leadMinutes + (routine.kind.known == .leavingHome ? settings.bufferMinutes : 0)
    let fireSeconds = routine.time.roundedToMinute.secondsSinceMidnight - lead * 60
    // A reminder for 00:03 with five minutes' lead fires at 23:58 the evening before.
    let dayShift = fireSeconds < 0 ? -1 : 0
    let fire = TimeOfDay(secondsSinceMidnight: fireSeconds)
    let title = messages.title(for: routine.kind)
    let body = messages.body(
      for: routine, bufferMinutes: settings.bufferMinutes, commuteMinutes: commuteMinutes)
    // Logged already in the routine's slot that day, before the firing: the reminder is not
    // needed. The slot starts at the day's start (04:00), 12 hours before the usual time, or
    // half-way to the kind's previous routine, whichever is latest (``ActWindow``); one that
    // starts after the firing (a routine at 04:03) leaves nothing to look back on.
    let slot = Planner.slot(of: routine, on: days, among: kindRoutines)
    let back = floorMod(
      routine.time.roundedToMinute.secondsSinceMidnight - slot.start.secondsSinceMidnight,
      86_400)
    let metadata = RequestMetadata(
      eventKind: routine.kind.name, suggestedTime: routine.time, confidence: routine.confidence,
      lookBack: back > lead * 60 ? .since(slot.start.roundedToMinute) : nil,
      actUntil: slot.end.roundedToMinute)
    func request(_ id: String, weekday: Int?) -> NotificationRequest {
      NotificationRequest(
        id: id, origin: .learned, category: .routineReminder, title: title, body: body,
        trigger: .calendar(CalendarTrigger(weekday: weekday, hour: fire.hour, minute: fire.minute)),
        metadata: metadata)
    }
    guard days != .everyDay else { return [request(base, weekday: nil)] }
    return days.map { weekday in
      let firing = (weekday - 1 + dayShift + 7) % 7 + 1
      return request("\(base)-weekday-\(firing)", weekday: firing)
    }
  }

  /// Each kind's name in identifiers: its display name's letters and digits, plus a short hash
  /// of its key when another kind's name would read the same (a hash alone when none is left).
  static func identifierNames(for kinds: Set<EventKind>) -> [EventKind: String] {
    var result: [EventKind: String] = [:]
    for (compact, group) in Dictionary(grouping: kinds, by: \.compactName) {
      for kind in group {
        result[kind] =
          compact.isEmpty
          ? shortHash(kind.key)
          : group.count == 1 ? compact : "\(compact)_\(shortHash(kind.key))"
      }
    }
    return result
  }
}

/// Eight hex digits of FNV-1a over `text`: short, stable across runs and platforms.
func shortHash(_ text: String) -> String {
  var hash: UInt32 = 0x811C_9DC5
  for byte in text.utf8 {
    hash ^= UInt32(byte)
    hash = hash &* 0x0100_0193
  }
  let digits = String(hash, radix: 16)
  return String(repeating: "0", count: 8 - digits.count) + digits
}

extension NotificationRequest {
  /// The immediate alert about an event far off its pattern: `outlier_<8 hex>`, the hex digits a
  /// hash of the event's kind and time, so the same outlier never alerts twice.
  public static func outlierAlert(for outlier: Outlier, firingAt fire: Int64) -> NotificationRequest
  {
    NotificationRequest(
      id: "outlier_\(shortHash(outlier.kind.key + " " + outlier.timestamp.iso8601))",
      origin: .outlier,
      category: .outlierAlert, title: "Unusual pattern detected",
      body: ReminderMessages.fit(outlier.message), trigger: .date(fire),
      metadata: RequestMetadata(eventKind: outlier.kind.name, suggestedTime: outlier.expected))
  }
}
