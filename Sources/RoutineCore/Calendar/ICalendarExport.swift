import Foundation

/// Notification requests as an iCalendar document (RFC 5545), whose expansion by a calendar
/// program gives the instants `routine agenda` lists (docs/calendar.md).
///
/// - Each request is one VEVENT: SUMMARY its title, DESCRIPTION its body, a 5-minute event at
///   the firing with a VALARM at its start (an alarm rings again every
///   ``Reminder/alarmInterval`` minutes, ``Reminder/alarmRepeats`` times, as `deliver` does).
/// - A repeating calendar trigger is an RRULE from its first firing at or after the start:
///   DAILY, WEEKLY;BYDAY=..., or MONTHLY;BYMONTHDAY (day 31 is `-1`, the month's last day; days
///   29 and 30 are `29,-1;BYSETPOS=1`, the day or the month's last, as the trigger fires). With
///   an end, COUNT ends it there.
/// - A one-time trigger is a single DTSTART: a wall-clock one at the wall-clock time it fires
///   (03:00, not the 02:30 that does not exist), an instant in UTC.
/// - A wall-clock time in a daylight-saving gap fires at the end of the gap (docs/time.md), but
///   RFC 5545 reads it with the offset before the gap (02:30 as 03:30), and a repeated time
///   fires at the first of the two, which libical and khal read as the second: each such day up
///   to the end (or ``horizon`` when there is none) gets an override (RECURRENCE-ID the nominal
///   time, in UTC in a gap; DTSTART in UTC, the instant it fires). A one-time firing at a
///   repeated time is written in UTC.
/// - Firings known to be skipped (``excluded``) are EXDATEs on their nominal wall-clock time.
public struct ICalendarExport: Sendable {
  /// The user's zone: every wall-clock time is in it.
  public var zone: Zone
  /// When the calendar is made (DTSTAMP).
  public var now: Int64
  /// The start: series begin at their first firing at or after it.
  public var from: Int64
  /// The end (exclusive), or `nil` for series without an end.
  public var to: Int64?
  /// How far overrides for daylight-saving gaps, and the zone's listed changes, reach when
  /// there is no end.
  public var horizon: Int64
  /// The firings left out, by request: those already known to be skipped.
  public var excluded: [String: [Firing]]
  /// What follows the request id in each UID (`routine_WakeUp-weekday-2@routine`).
  public var uidDomain: String
  /// The PRODID's product (`routine 1.2`).
  public var product: String

  /// How many years ahead gap overrides reach by default.
  public static let defaultHorizonYears = 5
  /// The length of each event.
  public static let eventSeconds = 300

  /// An export in `zone` of the firings from `from` (to `to`, when given), made at `now`.
  public init(
    zone: Zone, now: Int64, from: Int64, to: Int64? = nil, horizon: Int64? = nil,
    excluded: [String: [Firing]] = [:], uidDomain: String = "routine", product: String = "routine"
  ) {
    self.zone = zone
    self.now = now
    self.from = from
    self.to = to
    self.horizon =
      horizon ?? to
      ?? Agenda.end(after: from, days: 365 * ICalendarExport.defaultHorizonYears + 1, in: zone)
    self.excluded = excluded
    self.uidDomain = uidDomain
    self.product = product
  }

  /// Whether times are written in UTC (`...Z`) rather than with a TZID: the zone is UTC.
  var isUTC: Bool { zone.source == .fixed && zone.offset(at: 0) == 0 }

  /// The end of what is written out in full (overrides, the zone's changes).
  var end: Int64 { to ?? horizon }

  /// The document for `requests` (snooze and outlier alerts are left out: they are one-off and
  /// not what a person would keep in a calendar).
  public func document(for requests: [NotificationRequest]) -> ICalendarWriter {
    var writer = ICalendarWriter()
    writer.begin("VCALENDAR")
    writer.property("VERSION", "2.0")
    writer.text("PRODID", "-//routine//\(product)//EN")
    writer.property("CALSCALE", "GREGORIAN")
    writer.property("METHOD", "PUBLISH")
    writer.text("X-WR-CALNAME", "routine")
    let transitions = zone.transitions(from: from - 400 * 86_400, to: max(end, from))
    if !isUTC {
      VTimeZone.write(zone, from: from, to: max(end, from), transitions: transitions, into: &writer)
    }
    let changes = transitions.filter { $0.offsetAfter != $0.offsetBefore }
    let days = ZoneDays(zone, from: from, to: max(end, from + 1))
    for request in requests where request.origin == .learned || request.origin == .reminder {
      event(request, changes: changes, days: days, into: &writer)
    }
    writer.end("VCALENDAR")
    return writer
  }

  // MARK: Events

  private func event(
    _ request: NotificationRequest, changes: [ZoneTransition], days: ZoneDays,
    into writer: inout ICalendarWriter
  ) {
    // Firings at or before the instant a reminder was defined or changed are not due.
    let start = max(from, (request.metadata?.activeSince).map { $0 + 1 } ?? from)
    let skipped = Set((excluded[request.id] ?? []).map(\.at))
    func inRange(_ at: Int64) -> Bool { at >= start && (to.map { at < $0 } ?? true) }
    switch request.trigger {
    case .date(let at):
      guard inRange(at), !skipped.contains(at) else { return }
      single(request, utc: at, into: &writer)
    case .local(let date, let time):
      let at = WallClock.instant(on: date, at: time, in: zone)
      guard inRange(at), !skipped.contains(at) else { return }
      single(request, at: at, changes: changes, into: &writer)
    case .calendar(let calendar):
      guard let first = calendar.nextFiring(after: start - 1, in: zone), inRange(first.at)
      else { return }
      guard calendar.repeats else {
        if !skipped.contains(first.at) {
          single(request, at: first.at, changes: changes, into: &writer)
        }
        return
      }
      guard let rule = ICalendarExport.rule(calendar), let slot = first.slot else {
        listed(
          request, from: first.at, days: days, skipped: skipped, changes: changes, into: &writer)
        return
      }
      series(
        request, calendar: calendar, rule: rule, first: first, slot: slot, changes: changes,
        days: days, skipped: skipped, into: &writer)
    }
  }

  /// A repeating trigger as an RRULE, its skipped firings as EXDATEs and its firings in
  /// daylight-saving gaps and repeated hours as overrides.
  private func series(
    _ request: NotificationRequest, calendar: CalendarTrigger, rule: String, first: Firing,
    slot: FiringSlot, changes: [ZoneTransition], days: ZoneDays, skipped: Set<Int64>,
    into writer: inout ICalendarWriter
  ) {
    var rule = rule
    if let to {
      // COUNT, not UNTIL: it counts the same firings whichever instant a reader gives a time in
      // a gap, and the skipped ones are still counted (RFC 5545 removes EXDATEs after).
      var count = 0
      var firings = request.trigger.firingSequence(from: first.at, to: to, days: days)
      while firings.next() != nil { count += 1 }
      rule += ";COUNT=\(count)"
    }
    writer.begin("VEVENT")
    common(request, into: &writer)
    start(slot.localSeconds, into: &writer)
    writer.property("RRULE", rule)
    let exdates = (excluded[request.id] ?? []).compactMap { firing -> Int64? in
      guard let slot = firing.slot, firing.at >= first.at, to.map({ firing.at < $0 }) ?? true
      else { return nil }
      return slot.localSeconds
    }
    for local in exdates.sorted() {
      if let change = changes.first(where: { $0.gap?.contains(local) == true }) {
        // In UTC, as the override's RECURRENCE-ID below: libical reads a time in a gap with the
        // offset after it, and would not find the firing to leave out.
        writer.property("EXDATE", ICalendarTime.utc(local - change.offsetBefore))
      } else {
        time("EXDATE", local: local, into: &writer)
      }
    }
    body(request, into: &writer)
    writer.end("VEVENT")

    for change in changes where change.at >= max(from, first.at) && change.at < end {
      guard let range = change.gap ?? change.repeated else { continue }
      // The dates whose wall clock the change covers (one, or two when it spans midnight).
      for day in floorDiv(
        Int(range.lowerBound), 86_400)...floorDiv(Int(range.upperBound - 1), 86_400)
      {
        let date = LocalDate(daysSince1970: day)
        let nominal = WallClock.localSeconds(on: date, at: calendar.time)
        guard range.contains(nominal), calendar.matches(date) else { continue }
        // routine fires a time in a gap at the gap's end, a repeated time at its first instant.
        let fires = change.gap != nil ? change.at : nominal - change.offsetBefore
        guard fires >= first.at, !skipped.contains(fires), to.map({ fires < $0 }) ?? true
        else { continue }
        writer.begin("VEVENT")
        common(request, into: &writer)
        if change.gap != nil {
          // RFC 5545 reads the series' 02:30 in a gap with the offset before it (03:30), and so
          // do libical's and Python's expansions of the RRULE; but libical reads an explicit
          // 02:30 with the offset after it (libical/libical#1402). Named by its instant in UTC,
          // the recurrence is the same one for every reader.
          writer.property("RECURRENCE-ID", ICalendarTime.utc(nominal - change.offsetBefore))
        } else {
          // Readers disagree on which of the two 01:30s the series holds (RFC 5545 and Python:
          // the first; libical and khal: the second), but each names this recurrence as it
          // reads the series, so the wall-clock name finds it in all of them.
          time("RECURRENCE-ID", local: nominal, into: &writer)
        }
        writer.property("DTSTART", ICalendarTime.utc(fires))
        body(request, into: &writer)
        writer.end("VEVENT")
      }
    }
  }

  /// A repeating trigger no RRULE says (a day of the month 29 or 30 on some weekdays only): its
  /// firings up to the end as RDATEs.
  private func listed(
    _ request: NotificationRequest, from first: Int64, days: ZoneDays, skipped: Set<Int64>,
    changes: [ZoneTransition], into writer: inout ICalendarWriter
  ) {
    let firings = request.trigger.firings(from: first, to: end, days: days).filter {
      !skipped.contains($0.at)
    }
    guard let head = firings.first else { return }
    writer.begin("VEVENT")
    common(request, into: &writer)
    instant("DTSTART", head.at, changes: changes, into: &writer)
    for firing in firings.dropFirst() {
      instant("RDATE", firing.at, changes: changes, into: &writer)
    }
    body(request, into: &writer)
    writer.end("VEVENT")
  }

  /// A request that fires once, at `at`, written as the wall-clock time it fires.
  private func single(
    _ request: NotificationRequest, at: Int64, changes: [ZoneTransition],
    into writer: inout ICalendarWriter
  ) {
    writer.begin("VEVENT")
    common(request, into: &writer)
    instant("DTSTART", at, changes: changes, into: &writer)
    body(request, into: &writer)
    writer.end("VEVENT")
  }

  /// A request that fires once at an instant, whatever the zone: in UTC.
  private func single(
    _ request: NotificationRequest, utc at: Int64, into writer: inout ICalendarWriter
  ) {
    writer.begin("VEVENT")
    common(request, into: &writer)
    writer.property("DTSTART", ICalendarTime.utc(at))
    body(request, into: &writer)
    writer.end("VEVENT")
  }

  private func common(_ request: NotificationRequest, into writer: inout ICalendarWriter) {
    writer.text("UID", "\(request.id)@\(uidDomain)")
    writer.property("DTSTAMP", ICalendarTime.utc(now))
  }

  private func start(_ local: Int64, into writer: inout ICalendarWriter) {
    time("DTSTART", local: local, into: &writer)
  }

  /// The instant `at` as the wall-clock time it is, or in UTC when that time exists twice
  /// (readers differ on which of the two a wall-clock time names).
  private func instant(
    _ name: String, _ at: Int64, changes: [ZoneTransition], into writer: inout ICalendarWriter
  ) {
    let local = at + zone.offset(at: at)
    if changes.contains(where: { $0.repeated?.contains(local) == true }) {
      writer.property(name, ICalendarTime.utc(at))
    } else {
      time(name, local: local, into: &writer)
    }
  }

  /// `NAME;TZID=zone:local`, or in UTC for UTC.
  private func time(_ name: String, local: Int64, into writer: inout ICalendarWriter) {
    if isUTC {
      writer.property(name, ICalendarTime.utc(local))
    } else {
      writer.property(name, ICalendarTime.local(local), parameters: ["TZID": zone.identifier])
    }
  }

  private func body(_ request: NotificationRequest, into writer: inout ICalendarWriter) {
    writer.property("DURATION", ICalendarTime.duration(seconds: ICalendarExport.eventSeconds))
    writer.text("SUMMARY", request.title)
    if !request.body.isEmpty { writer.text("DESCRIPTION", request.body) }
    writer.text("CATEGORIES", request.category.rawValue)
    writer.property("TRANSP", "TRANSPARENT")
    writer.begin("VALARM")
    writer.property("ACTION", "DISPLAY")
    writer.text("DESCRIPTION", request.title)
    writer.property("TRIGGER", "PT0S")
    if request.metadata?.isAlarm == true {
      writer.property("REPEAT", "\(Reminder.alarmRepeats)")
      writer.property("DURATION", ICalendarTime.duration(seconds: Reminder.alarmInterval * 60))
    }
    writer.end("VALARM")
  }

  // MARK: Rules

  /// The RRULE (without an end) of a repeating calendar trigger, or `nil` when none says it.
  public static func rule(_ calendar: CalendarTrigger) -> String? {
    let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    let byDay = [2, 3, 4, 5, 6, 7, 1].filter(calendar.weekdays.contains).map { names[$0 - 1] }
      .joined(separator: ",")
    if let day = calendar.dayOfMonth {
      guard (1...31).contains(day) else { return nil }
      var rule = "FREQ=MONTHLY"
      switch day {
      case 31: rule += ";BYMONTHDAY=-1"
      case 29, 30:
        // The day, or the month's last when it is shorter (February): the first of the two.
        guard calendar.weekdays.isEmpty else { return nil }
        return rule + ";BYMONTHDAY=\(day),-1;BYSETPOS=1"
      default: rule += ";BYMONTHDAY=\(day)"
      }
      if !calendar.weekdays.isEmpty { rule += ";BYDAY=\(byDay)" }
      return rule
    }
    if calendar.weekdays.isEmpty || calendar.weekdays == .everyDay { return "FREQ=DAILY" }
    return "FREQ=WEEKLY;BYDAY=\(byDay)"
  }
}
