import Foundation
import RoutineCore

/// Times typed on the command line.
enum TimeArgument {
  /// Parses the value of option `option`:
  /// - ISO 8601 with an offset (`2026-04-20T07:05+02:00`): exactly that, offset kept;
  /// - a local date and time without offset (`2026-04-20T07:05`, `2026-04-20 07:05`), or a local
  ///   date (`2026-04-20`, midnight): in the user's zone, through the time rules;
  /// - `HH:MM`, when `allowsTimeOfDay`: the latest such wall-clock time at or before `now`.
  static func parse(
    _ text: String, option: String, now: Date, zone: TimeZone, allowsTimeOfDay: Bool,
    command: String
  ) throws(UsageError) -> Timestamp {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let timestamp = Timestamp(iso8601: trimmed) { return timestamp }
    if allowsTimeOfDay, let time = TimeOfDay(parsing: trimmed) {
      let nowInstant = Int64(now.timeIntervalSince1970.rounded(.down))
      let today = WallClock.localDate(at: nowInstant, in: zone)
      var instant = WallClock.instant(on: today, at: time, in: zone)
      if instant > nowInstant {
        instant = WallClock.instant(on: today.adding(days: -1), at: time, in: zone)
      }
      return timestamp(instant, zone)
    }
    if let (date, time) = localDateTime(trimmed) {
      return timestamp(WallClock.instant(on: date, at: time, in: zone), zone)
    }
    let forms =
      allowsTimeOfDay
      ? "an ISO 8601 timestamp (2026-04-20T07:05+02:00), a local date and time (2026-04-20 07:05) or HH:MM"
      : "an ISO 8601 timestamp (2026-04-20T07:05+02:00), a local date and time (2026-04-20 07:05) or a date (2026-04-20)"
    throw UsageError("--\(option): expected \(forms), found '\(text)'", command: command)
  }

  private static func timestamp(_ instant: Int64, _ zone: TimeZone) -> Timestamp {
    Timestamp(
      secondsSince1970: instant, utcOffsetSeconds: Int32(WallClock.offset(at: instant, in: zone)))
  }

  /// `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]` or `YYYY-MM-DD HH:MM[:SS]`.
  private static func localDateTime(_ text: String) -> (LocalDate, TimeOfDay)? {
    let parts = text.split(whereSeparator: { $0 == "T" || $0 == " " }).map(String.init)
    guard parts.count == 1 || parts.count == 2 else { return nil }
    let dateParts = parts[0].split(separator: "-", omittingEmptySubsequences: false)
    guard dateParts.count == 3, dateParts[0].count == 4, dateParts[1].count == 2,
      dateParts[2].count == 2,
      let year = Int(dateParts[0]), let month = Int(dateParts[1]), let day = Int(dateParts[2]),
      let date = LocalDate(year: year, month: month, day: day)
    else { return nil }
    guard parts.count == 2 else { return (date, TimeOfDay(secondsSinceMidnight: 0)) }
    let timeParts = parts[1].split(separator: ":", omittingEmptySubsequences: false)
    guard timeParts.count == 2 || timeParts.count == 3, timeParts.allSatisfy({ $0.count == 2 }),
      let hour = Int(timeParts[0]), let minute = Int(timeParts[1]),
      let time = TimeOfDay(
        hour: hour, minute: minute, second: timeParts.count == 3 ? Int(timeParts[2]) ?? -1 : 0)
    else { return nil }
    return (date, time)
  }
}

/// Shared wording and shapes for events.
enum EventFormatting {
  /// `1`, `2.5`: numbers without a needless fraction.
  static func value(_ number: Double) -> String { JSON.format(number) }

  /// `Mon 2026-04-20 07:05`: the event's own local date and time.
  static func localDateTime(_ timestamp: Timestamp) -> String {
    "\(timestamp.localDate.weekdayName) \(timestamp.localDate) \(timestamp.timeOfDay)"
  }

  /// The event as documented for `routine events --json`.
  static func json(_ event: Event) -> JSON {
    .object([
      ("timestamp", .string(event.timestamp.iso8601)),
      ("event", .string(event.kind.name)),
      ("value", .optional(event.value)),
      ("note", .optional(event.note)),
      ("source", .string(event.source.rawValue)),
    ])
  }

  /// One line of `routine events`.
  static func line(_ event: Event) -> String {
    var text = "\(event.timestamp.iso8601)  \(event.kind.name)"
    if let number = event.value { text += "  value=\(value(number))" }
    if let note = event.note {
      var quotedNote = ""
      JSON.writeString(note, to: &quotedNote)
      text += "  note=\(quotedNote)"
    }
    return text + "  (\(event.source.rawValue))"
  }
}
