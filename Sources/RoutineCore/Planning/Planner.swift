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
  /// The settings (threshold, lead, buffer, enabled).
  public var settings: PlannerSettings
  /// The wording.
  public var messages: ReminderMessages

  /// A planner with `settings` and `messages`.
  public init(settings: PlannerSettings, messages: ReminderMessages) {
    self.settings = settings
    self.messages = messages
  }

  /// The learned requests for `analysis`, ordered by identifier (none when disabled).
  public func requests(for analysis: RoutineAnalysis) -> [NotificationRequest] {
    guard settings.isEnabled else { return [] }
    let chosen = analysis.routines.filter {
      $0.confidence > settings.threshold && !$0.kind.isArrival
    }
    let commute = analysis.durations.first {
      $0.from.known == .leavingHome && $0.to.known == .arrivingAtWork
    }?.minutes
    let names = Planner.identifierNames(for: Set(chosen.map(\.kind)))
    var requests: [NotificationRequest] = []
    for (kind, routines) in Dictionary(grouping: chosen, by: \.kind) {
      let ordered = routines.sorted { ($0.time, $0.dayKind) < ($1.time, $1.dayKind) }
      for (slot, routine) in ordered.enumerated() {
        let base = "routine_" + names[kind]! + (slot == 0 ? "" : "-\(slot + 1)")
        requests += self.requests(for: routine, id: base, commuteMinutes: commute)
      }
    }
    return requests.sorted { $0.id < $1.id }
  }

  private func requests(for routine: Routine, id base: String, commuteMinutes: Int?)
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
    // Logged already within the routine's range that day (from its earliest time to the
    // firing): the reminder is not needed. An earliest time after the firing leaves nothing.
    // Circular: the earliest time 23:50 is 8 minutes before a firing at 23:58, and 00:01 is
    // after it.
    let shifted = floorMod(
      routine.earliest.roundedToMinute.secondsSinceMidnight / 60 - fireSeconds / 60 + 720, 1440)
    let lookBackMinutes = max(720 - shifted, 0)
    let metadata = RequestMetadata(
      eventKind: routine.kind.name, suggestedTime: routine.time, confidence: routine.confidence,
      lookBack: lookBackMinutes > 0 ? .minutes(lookBackMinutes) : nil)
    func request(_ id: String, weekday: Int?) -> NotificationRequest {
      NotificationRequest(
        id: id, origin: .learned, category: .routineReminder, title: title, body: body,
        trigger: .calendar(CalendarTrigger(weekday: weekday, hour: fire.hour, minute: fire.minute)),
        metadata: metadata)
    }
    guard routine.dayKind != .all else { return [request(base, weekday: nil)] }
    return routine.dayKind.weekdays.map { weekday in
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
