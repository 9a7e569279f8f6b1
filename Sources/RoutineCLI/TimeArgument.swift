import Foundation
import RoutineCore

/// Times typed on the command line.
enum TimeArgument {
  /// What a bare time of day (`07:05`) means.
  enum TimeOfDayMeaning {
    /// The latest such wall-clock time at or before now (`log --at`: something that happened).
    case latestPast
    /// That time today (`--from`, `--to`).
    case today
  }

  /// Parses the value of option `option`:
  /// - ISO 8601 with an offset (`2026-04-20T07:05+02:00`): exactly that, offset kept;
  /// - a local date, with or without a time (`2026-04-20`, `2026-04-20 07:05`, `2026-04-20T7:05`):
  ///   in the user's zone, through the time rules; a date alone is its midnight;
  /// - `today`, `yesterday` or `tomorrow`, with or without a time (`yesterday 23:10`);
  /// - a time of day, `H:MM` or `HH:MM[:SS]`, meaning `timeOfDay` decides.
  static func parse(
    _ text: String, option: String, now: Date, zone: Zone, timeOfDay: TimeOfDayMeaning,
    command: String?
  ) throws(UsageError) -> Timestamp {
    let trimmed = text.trimmingBlanks
    if let timestamp = Timestamp(iso8601: trimmed) { return timestamp }
    let nowInstant = Int64(now.timeIntervalSince1970.rounded(.down))
    let today = WallClock.localDate(at: nowInstant, in: zone)
    if let time = TimeArgument.time(trimmed) {
      var instant = WallClock.instant(on: today, at: time, in: zone)
      if timeOfDay == .latestPast, instant > nowInstant {
        instant = WallClock.instant(on: today.adding(days: -1), at: time, in: zone)
      }
      return stamp(instant, zone)
    }
    if let (day, time) = dayAndTime(trimmed, today: today) {
      let midnight = TimeOfDay(secondsSinceMidnight: 0)
      return stamp(WallClock.instant(on: day, at: time ?? midnight, in: zone), zone)
    }
    if let day = impossibleDate(in: trimmed) {
      throw UsageError("--\(option): there is no day \(day)", command: command)
    }
    throw UsageError(
      "--\(option): expected an ISO 8601 timestamp (2026-04-20T07:05+02:00), a local date and time "
        + "(2026-04-20 07:05), a date, today, yesterday, tomorrow, or a time (07:05), found '\(text)'",
      command: command)
  }

  /// A day and a time of day as typed (`2026-04-20 07:05`, `tomorrow 09:00`), not resolved to
  /// an instant: a one-time reminder keeps the wall-clock time it was given, and the time rules
  /// decide at each firing what it means (a time in a gap, a zone changed meanwhile).
  static func localDateTime(_ text: String, now: Date, zone: Zone) -> (LocalDate, TimeOfDay)? {
    let today = WallClock.localDate(at: Int64(now.timeIntervalSince1970.rounded(.down)), in: zone)
    guard let (day, time) = dayAndTime(text.trimmingBlanks, today: today), let time else {
      return nil
    }
    return (day, time)
  }

  /// A day with or without a time of day, as typed (`2026-04-20`, `tomorrow 09:00`), or a time
  /// alone (that time today): not resolved to an instant.
  static func localDate(_ text: String, now: Date, zone: Zone) -> (LocalDate, TimeOfDay?)? {
    let today = WallClock.localDate(at: Int64(now.timeIntervalSince1970.rounded(.down)), in: zone)
    let trimmed = text.trimmingBlanks
    if let time = time(trimmed) { return (today, time) }
    return dayAndTime(trimmed, today: today)
  }

  /// "2026-04-20 07:05", "2026-04-20T07:05", "yesterday 23:10", "2026-04-20": a day, then
  /// maybe a time (nil when there is none).
  private static func dayAndTime(_ trimmed: String, today: LocalDate) -> (LocalDate, TimeOfDay?)? {
    var head = trimmed
    var tail: String?
    if let space = trimmed.firstIndex(of: " ") {
      head = String(trimmed[..<space])
      tail = trimmed[space...].trimmingBlanks
    } else if let separator = trimmed.firstIndex(where: { $0 == "T" || $0 == "t" }),
      trimmed.first?.isNumber == true
    {
      head = String(trimmed[..<separator])
      tail = String(trimmed[trimmed.index(after: separator)...])
    }
    let day: LocalDate?
    switch head.lowercased() {
    case "today": day = today
    case "yesterday": day = today.adding(days: -1)
    case "tomorrow": day = today.adding(days: 1)
    default: day = date(head)
    }
    guard let day else { return nil }
    guard let tail else { return (day, nil) }
    guard let time = TimeArgument.time(tail) else { return nil }
    return (day, time)
  }

  /// The instant with the zone's offset.
  static func stamp(_ instant: Int64, _ zone: Zone) -> Timestamp {
    Timestamp(
      secondsSince1970: instant, utcOffsetSeconds: Int32(WallClock.offset(at: instant, in: zone)))
  }

  /// `H:MM`, `HH:MM`, `H:MM:SS` or `HH:MM:SS` on a 24-hour clock.
  static func time(_ text: String) -> TimeOfDay? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, (1...2).contains(parts[0].count),
      parts.dropFirst().allSatisfy({ $0.count == 2 }),
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
      let hour = Int(parts[0]), let minute = Int(parts[1])
    else { return nil }
    let second = parts.count == 3 ? Int(parts[2]) ?? -1 : 0
    return TimeOfDay(hour: hour, minute: minute, second: second)
  }

  /// `HH:MM` (or `HH:MM:00`) for a time reminders repeat at: they fire on the minute, so a
  /// time with seconds is refused rather than shown rounded and fired truncated.
  static func minuteTime(_ text: String) -> TimeOfDay? {
    time(text).flatMap { $0.secondsSinceMidnight % 60 == 0 ? $0 : nil }
  }

  /// The `YYYY-MM-DD` at the start of `text` when it has that shape but names no day
  /// (`2026-02-30`): worth its own error.
  static func impossibleDate(in text: String) -> String? {
    let head = String(text.trimmingBlanks.prefix(10))
    let shaped =
      head.count == 10
      && head.enumerated().allSatisfy { index, character in
        index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
      }
    return shaped && date(head) == nil ? head : nil
  }

  static func date(_ text: String) -> LocalDate? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    // Digits only: `Int` would take a sign (`+999`).
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    return LocalDate(year: year, month: month, day: day)
  }
}

/// Shared wording and shapes for events.
enum EventFormatting {
  /// `1`, `2.5`: numbers without a needless fraction.
  static func value(_ number: Double) -> String { JSON.format(number) }

  /// `Mon 2026-04-20 07:05` (with seconds when there are any: `07:05:30`): the event's own
  /// local date and time.
  static func localDateTime(_ timestamp: Timestamp) -> String {
    "\(timestamp.localDate.weekdayName) \(timestamp.localDate) \(clock(timestamp.timeOfDay))"
  }

  /// `07:05`, or `07:05:30` when there are seconds: a time not to be rounded (a firing).
  static func clock(_ time: TimeOfDay) -> String {
    let seconds = time.secondsSinceMidnight % 60
    return seconds == 0
      ? "\(pad(time.hour)):\(pad(time.minute))"
      : "\(pad(time.hour)):\(pad(time.minute)):\(pad(seconds))"
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// `+02:00`: the offset of a timestamp.
  static func offset(_ timestamp: Timestamp) -> String { String(timestamp.iso8601.suffix(6)) }

  /// `Coffee (value 2) at Mon 2026-04-27 07:40 (+02:00)`: an event in a sentence, escaped.
  static func summary(_ event: Event) -> String {
    var text = TerminalText.escaped(event.kind.name)
    if let number = event.value { text += " (value \(value(number)))" }
    return text + " at \(localDateTime(event.timestamp)) (\(offset(event.timestamp)))"
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

  /// One line of `routine events` (names and notes escaped for the terminal).
  static func line(_ event: Event) -> String {
    var text = "\(event.timestamp.iso8601)  \(TerminalText.escaped(event.kind.name))"
    if let number = event.value { text += "  value=\(value(number))" }
    if let note = event.note {
      // In quotes, with quotes and backslashes escaped and control characters shown as
      // everywhere else in text output (`\x1B`, `\n`).
      let quoted = note.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"")
      text += "  note=\"\(TerminalText.escaped(quoted))\""
    }
    return text + "  (\(event.source.rawValue))"
  }
}
