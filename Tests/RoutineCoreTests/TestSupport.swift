import Foundation
import RoutineCore

/// A named zone that must exist (tests use only real IANA names).
func zone(_ identifier: String) -> Zone {
  guard let zone = TimeZone(identifier: identifier) else { fatalError("no zone \(identifier)") }
  return Zone(foundation: zone)
}

/// Every daylight-saving transition of `timeZone` in 2026 and 2027, as seconds since 1970, found
/// by Foundation rather than by the code under test.
func transitions2026And2027(in zone: Zone) -> [Int64] {
  let timeZone = TimeZone(identifier: zone.identifier)!
  var found: [Int64] = []
  var probe = Date(timeIntervalSince1970: Double(stamp("2026-01-01T00:00Z").secondsSince1970))
  let end = Double(stamp("2028-01-01T00:00Z").secondsSince1970)
  while let next = timeZone.nextDaylightSavingTimeTransition(after: probe),
    next.timeIntervalSince1970 < end
  {
    found.append(Int64(next.timeIntervalSince1970))
    probe = next
  }
  return found
}

/// A timestamp from ISO 8601 text that must be valid.
func stamp(_ text: String) -> Timestamp {
  guard let timestamp = Timestamp(iso8601: text) else { fatalError("bad timestamp \(text)") }
  return timestamp
}

/// A date that must be valid.
func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
  LocalDate(year: year, month: month, day: day)!
}

/// A Gregorian calendar in `identifier`.
func calendar(_ identifier: String) -> Calendar {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: identifier)!
  return calendar
}

/// Builds logs day by day in a zone: `at(day, "07:05")` adds an event at that wall time, resolved
/// through the time rules with the zone's offset.
struct LogBuilder {
  var events: [(EventKind, Timestamp)] = []
  let timeZone: Zone

  init(_ zoneName: String = "Europe/Berlin") {
    timeZone = zone(zoneName)
  }

  mutating func add(_ kind: String, _ day: LocalDate, _ time: String) {
    let parsed = TimeOfDay(parsing: time)!
    let instant = WallClock.instant(on: day, at: parsed, in: timeZone)
    let offset = Int32(WallClock.offset(at: instant, in: timeZone))
    events.append(
      (EventKind(kind)!, Timestamp(secondsSince1970: instant, utcOffsetSeconds: offset)))
  }

  /// Adds `kind` at `minutes` past midnight (may exceed a day) on `day`.
  mutating func add(_ kind: String, _ day: LocalDate, minutes: Int) {
    let local = Int64(day.daysSince1970) * 86_400 + Int64(minutes * 60)
    let instant = WallClock.resolve(localSeconds: local, in: timeZone).instant
    let offset = Int32(WallClock.offset(at: instant, in: timeZone))
    events.append(
      (EventKind(kind)!, Timestamp(secondsSince1970: instant, utcOffsetSeconds: offset)))
  }

  /// Adds `kind` at `seconds` past midnight on `day`.
  mutating func add(_ kind: String, _ day: LocalDate, seconds: Int) {
    let local = Int64(day.daysSince1970) * 86_400 + Int64(seconds)
    let instant = WallClock.resolve(localSeconds: local, in: timeZone).instant
    let offset = Int32(WallClock.offset(at: instant, in: timeZone))
    events.append(
      (EventKind(kind)!, Timestamp(secondsSince1970: instant, utcOffsetSeconds: offset)))
  }

  var log: EventLog { EventLog(events) }
}

/// A window whose "now" is `text` in `zoneName`.
func window(now text: String, days: Int, zone zoneName: String = "Europe/Berlin") -> AnalysisWindow
{
  AnalysisWindow(now: stamp(text).date, days: days, zone: zone(zoneName))
}
