import Foundation

/// A change of a zone's UTC offset.
public struct ZoneTransition: Hashable, Sendable {
  /// The first instant of the new offset, seconds since 1970 UTC.
  public var at: Int64
  /// The offset before, in seconds.
  public var offsetBefore: Int64
  /// The offset from `at` on, in seconds.
  public var offsetAfter: Int64
  /// Whether daylight-saving time is in effect from `at` on.
  public var isDaylightSaving: Bool
  /// The abbreviation from `at` on (`CEST`), when the rules name one.
  public var abbreviation: String?

  /// A transition.
  public init(
    at: Int64, offsetBefore: Int64, offsetAfter: Int64, isDaylightSaving: Bool,
    abbreviation: String?
  ) {
    self.at = at
    self.offsetBefore = offsetBefore
    self.offsetAfter = offsetAfter
    self.isDaylightSaving = isDaylightSaving
    self.abbreviation = abbreviation
  }

  /// The wall-clock times that do not exist (`[start, end)`, naive local seconds), when the
  /// clock jumps forward; `nil` when it goes back.
  public var gap: Range<Int64>? {
    offsetAfter > offsetBefore ? (at + offsetBefore)..<(at + offsetAfter) : nil
  }

  /// The wall-clock times that exist twice (`[start, end)`, naive local seconds), when the
  /// clock goes back; `nil` when it jumps forward.
  public var repeated: Range<Int64>? {
    offsetAfter < offsetBefore ? (at + offsetAfter)..<(at + offsetBefore) : nil
  }
}

extension Zone {
  /// The changes of offset in `(from, to]`, in order.
  ///
  /// Found from the offsets alone, whatever the rules' source (the tz database, a POSIX rule,
  /// Foundation's): every 12 hours, then by bisection to the second. Real zones change offset at
  /// most once in 36 hours (docs/time.md), so none is missed.
  public func transitions(from: Int64, to: Int64) -> [ZoneTransition] {
    guard from < to else { return [] }
    let step: Int64 = 12 * 3600
    var result: [ZoneTransition] = []
    var low = from
    var lowOffset = offset(at: low)
    while low < to {
      let high = min(low + step, to)
      let highOffset = offset(at: high)
      if highOffset != lowOffset {
        var (before, after) = (low, high)
        while after - before > 1 {
          let middle = before + (after - before) / 2
          if offset(at: middle) == lowOffset { before = middle } else { after = middle }
        }
        result.append(
          ZoneTransition(
            at: after, offsetBefore: lowOffset, offsetAfter: offset(at: after),
            isDaylightSaving: isDaylightSavingTime(at: after), abbreviation: abbreviation(at: after)
          ))
      }
      low = high
      lowOffset = highOffset
    }
    return result
  }
}

/// The VTIMEZONE component of a zone (RFC 5545, 3.6.5), named by its IANA name.
///
/// Readers that know the name (Google Calendar, Apple Calendar, Thunderbird, Python's icalendar)
/// use their own rules for it; the component is for the others, and for zones no database names
/// (a POSIX rule from `$TZ`). It holds:
/// - the observance in effect at the start (its onset within 400 days before, else an
///   observance from 1970 with the offset at the start);
/// - every change of offset up to the end, as one STANDARD or DAYLIGHT sub-component per kind of
///   change (the same offsets and name) with its first onset as DTSTART and the others as RDATEs;
/// - after the end, when the tz database's rule for the years past its table is a yearly one on
///   a weekday of a month (`M3.5.0/2`, as almost every zone's is), that rule as an RRULE from its
///   first change after the end, so the component is right in every later year too. Otherwise
///   the last observance holds after the end.
public enum VTimeZone {
  /// The component for `zone` covering `from...to`, with the transitions of that range (as
  /// ``Zone/transitions(from:to:)`` finds them, from 400 days before `from`) given.
  public static func write(
    _ zone: Zone, from: Int64, to: Int64, transitions: [ZoneTransition],
    into writer: inout ICalendarWriter
  ) {
    let lookBack: Int64 = 400 * 86_400
    let previous = transitions.last { $0.at <= from && $0.at > from - lookBack }
    var listed = transitions.filter { $0.at > from && $0.at <= to }
    if let previous { listed.insert(previous, at: 0) }
    let future = yearlyRule(zone, after: to)

    writer.begin("VTIMEZONE")
    writer.property("TZID", ICalendarWriter.escaped(zone.identifier))
    if listed.isEmpty {
      // No change near the start: its offset from 1970 (then the yearly rules, if any).
      let offset = zone.offset(at: from)
      let transition = ZoneTransition(
        at: -offset, offsetBefore: offset, offsetAfter: offset,
        isDaylightSaving: zone.isDaylightSavingTime(at: from),
        abbreviation: zone.abbreviation(at: from))
      observance(transition, more: [], rule: nil, into: &writer)
    }
    // One sub-component per kind of change, in the order of their first onsets.
    var groups: [[ZoneTransition]] = []
    var index: [ObservanceKey: Int] = [:]
    for transition in listed {
      let key = ObservanceKey(transition)
      if let found = index[key] {
        groups[found].append(transition)
      } else {
        index[key] = groups.count
        groups.append([transition])
      }
    }
    for group in groups {
      observance(group[0], more: Array(group.dropFirst()), rule: nil, into: &writer)
    }
    for (transition, rule) in future {
      observance(transition, more: [], rule: rule, into: &writer)
    }
    writer.end("VTIMEZONE")
  }

  private struct ObservanceKey: Hashable {
    var offsetBefore: Int64
    var offsetAfter: Int64
    var isDaylightSaving: Bool
    var abbreviation: String?

    init(_ transition: ZoneTransition) {
      offsetBefore = transition.offsetBefore
      offsetAfter = transition.offsetAfter
      isDaylightSaving = transition.isDaylightSaving
      abbreviation = transition.abbreviation
    }
  }

  /// A STANDARD or DAYLIGHT sub-component: onsets are written as the wall clock before the
  /// change (RFC 5545: DTSTART and RDATE in local time, with TZOFFSETFROM's offset).
  private static func observance(
    _ first: ZoneTransition, more: [ZoneTransition], rule: String?,
    into writer: inout ICalendarWriter
  ) {
    let name = first.isDaylightSaving ? "DAYLIGHT" : "STANDARD"
    writer.begin(name)
    writer.property("DTSTART", ICalendarTime.local(first.at + first.offsetBefore))
    if let rule { writer.property("RRULE", rule) }
    for transition in more {
      writer.property("RDATE", ICalendarTime.local(transition.at + transition.offsetBefore))
    }
    writer.property("TZOFFSETFROM", ICalendarTime.offset(first.offsetBefore))
    writer.property("TZOFFSETTO", ICalendarTime.offset(first.offsetAfter))
    if let abbreviation = first.abbreviation, !abbreviation.isEmpty {
      writer.text("TZNAME", abbreviation)
    }
    writer.end(name)
  }

  /// The zone's yearly changes after `end` as RRULEs, each from its first change after `end`:
  /// only when its rules past the table (the tz database's footer, or the POSIX rule itself)
  /// decide from `end` on, and both changes are a weekday of a month at a time within the day.
  static func yearlyRule(_ zone: Zone, after end: Int64) -> [(
    transition: ZoneTransition, rule: String
  )] {
    guard let footer = zone.zoneRules?.footer, let daylight = footer.daylightSaving,
      let startRule = rule(daylight.start), let endRule = rule(daylight.end)
    else { return [] }
    // The table may run on past the end (zic's "fat" files list changes to 2037): the changes
    // found after the end must be the rule's, else the rule does not decide yet.
    let next = zone.transitions(from: end, to: end + 400 * 86_400)
    guard let starts = next.first(where: \.isDaylightSaving),
      let ends = next.first(where: { !$0.isDaylightSaving }),
      follows(
        starts, daylight.start, from: Int64(footer.standardOffset), to: Int64(daylight.offset)),
      follows(ends, daylight.end, from: Int64(daylight.offset), to: Int64(footer.standardOffset))
    else { return [] }
    return [(starts, startRule), (ends, endRule)].sorted { $0.0.at < $1.0.at }
  }

  /// Whether `transition` is the change `change` makes, from offset `from` to `to`.
  private static func follows(
    _ transition: ZoneTransition, _ change: PosixZoneRule.Change, from: Int64, to: Int64
  ) -> Bool {
    guard transition.offsetBefore == from, transition.offsetAfter == to,
      case .monthWeekDay(let month, _, _) = change.day
    else { return false }
    let local = transition.at + from
    let date = LocalDate(daysSince1970: floorDiv(Int(local), 86_400))
    return date.components.month == month
      && Int32(local - Int64(date.daysSince1970) * 86_400) == change.time
  }

  /// `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU` for `M3.5.0` at a time within its day, else `nil`.
  private static func rule(_ change: PosixZoneRule.Change) -> String? {
    guard case .monthWeekDay(let month, let week, let weekday) = change.day,
      (0..<86_400).contains(change.time), (1...12).contains(month), (1...5).contains(week),
      (0...6).contains(weekday)
    else { return nil }
    let day = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][weekday]
    return "FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(week == 5 ? -1 : week)\(day)"
  }
}
