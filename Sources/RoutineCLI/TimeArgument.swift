import Foundation
import RoutineCore

/// Times typed on the command line, in one grammar for every option that takes one (`--at`,
/// `--from`, `--to`, `--due`, `--occurrence`; not `--now`, a machine's clock): see
/// ``helpText`` (`routine help dates`) and docs/dates.md.
enum TimeArgument {
  /// What a time without a day (`07:05`, `9am`) or a weekday (`fri 12:00`) means: the options
  /// that look back (`log --at`) and those that look ahead (`--due`) need different days.
  enum TimeOfDayMeaning {
    /// The latest such wall-clock time at or before now (`log --at`: something that happened);
    /// a weekday too (`fri 07:00` on a Friday at 06:00 is last week's).
    case latestPast
    /// That time today; a weekday the latest one at or before now (`events`, `history`
    /// `--from`/`--to`: commands that look back).
    case today
    /// That time today; a weekday the next one after now (`agenda`, `--due`, reminders'
    /// `--at`: commands that look ahead; `fri 12:00` on a Friday at 11:00 is today's).
    case upcoming
  }

  /// What typed text names, before a command decides what it needs.
  enum Typed: Equatable {
    /// An instant: ISO 8601 with an offset (kept), `now`, or an elapsed time (`+90m`).
    case instant(Timestamp)
    /// A wall-clock day, with or without a time: kept as typed by what fires at a wall-clock
    /// time (a one-time reminder, a task's due time), resolved through the time rules by the rest.
    case wallClock(LocalDate, TimeOfDay?)
  }

  /// How far a relative time may reach (`+99999999999d` is refused, not wrapped).
  static let maximumDays = 36_600

  /// Parses the value of option `option` into an instant (a day alone is its midnight, through
  /// the time rules).
  static func parse(
    _ text: String, option: String, now: Date, zone: Zone, timeOfDay: TimeOfDayMeaning,
    command: String?
  ) throws(UsageError) -> Timestamp {
    switch try read(
      text, option: option, now: now, zone: zone, meaning: timeOfDay, command: command)
    {
    case .instant(let timestamp): return timestamp
    case .wallClock(let day, let time):
      let midnight = TimeOfDay(secondsSinceMidnight: 0)
      return stamp(WallClock.instant(on: day, at: time ?? midnight, in: zone), zone)
    }
  }

  /// Reads `text` by the grammar of `routine help dates`, or throws a usage error that names
  /// the option, the forms taken and what was found.
  static func read(
    _ text: String, option: String, now: Date, zone: Zone, meaning: TimeOfDayMeaning,
    command: String?
  ) throws(UsageError) -> Typed {
    let trimmed = text.trimmingBlanks
    if let timestamp = Timestamp(iso8601: trimmed) { return .instant(timestamp) }
    let nowInstant = Int64(now.timeIntervalSince1970.rounded(.down))
    let today = WallClock.localDate(at: nowInstant, in: zone)
    let words = trimmed.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(
      String.init)
    if words == ["now"] { return .instant(stamp(nowInstant, zone)) }
    if let relative = Relative(words) {
      guard let amount = relative.amount, amount <= relative.unit.limit else {
        throw UsageError(
          "--\(option): '\(text)' is too far away (at most \(maximumDays) days)", command: command)
      }
      let signed = relative.isBackwards ? -amount : amount
      if let days = relative.unit.days {
        // Calendar days: the same wall-clock time that many dates away, whatever daylight
        // saving does in between.
        return .wallClock(today.adding(days: signed * days), stamp(nowInstant, zone).timeOfDay)
      }
      return .instant(stamp(nowInstant + Int64(signed * relative.unit.seconds), zone))
    }
    func resolve(_ day: LocalDate, _ time: TimeOfDay, backwards: Bool) -> LocalDate {
      let instant = WallClock.instant(on: day, at: time, in: zone)
      if backwards { return instant > nowInstant ? day.adding(days: -7) : day }
      return instant <= nowInstant ? day.adding(days: 7) : day
    }
    // `next fri` and `last fri`: the nearest such day after today, or before it, whatever the
    // option looks towards (never today).
    if words.count >= 2, words[0] == "next" || words[0] == "last", let weekday = weekday(words[1]) {
      let rest = words.dropFirst(2).joined(separator: " ")
      let time = rest.isEmpty ? nil : timeAfterDay(rest)
      if rest.isEmpty || time != nil {
        let offset =
          words[0] == "next"
          ? (weekday - today.weekday + 6) % 7 + 1 : -((today.weekday - weekday + 6) % 7 + 1)
        return .wallClock(today.adding(days: offset), time)
      }
    }
    if let first = words.first, let weekday = weekday(first) {
      let rest = words.dropFirst().joined(separator: " ")
      let time = rest.isEmpty ? nil : timeAfterDay(rest)
      if rest.isEmpty || time != nil {
        let midnight = TimeOfDay(secondsSinceMidnight: 0)
        let backwards = meaning != .upcoming
        let offset =
          backwards ? -((today.weekday - weekday + 7) % 7) : (weekday - today.weekday + 7) % 7
        return .wallClock(
          resolve(today.adding(days: offset), time ?? midnight, backwards: backwards), time)
      }
    } else if let time = clockTime(words.joined(separator: " ")) {
      if meaning == .latestPast,
        WallClock.instant(on: today, at: time, in: zone) > nowInstant
      {
        return .wallClock(today.adding(days: -1), time)
      }
      return .wallClock(today, time)
    } else if let (day, time) = dayAndTime(words, today: today) {
      return .wallClock(day, time)
    }
    if let day = impossibleDate(in: trimmed) {
      throw UsageError("--\(option): there is no day \(day)", command: command)
    }
    throw UsageError(
      "--\(option): expected \(expectedForms), found '\(text)'", command: command)
  }

  /// The forms, briefly, for error messages.
  static let expectedForms =
    "a date and time such as 2026-04-20T07:05+02:00, '2026-04-20 07:05', '2026-04-20', "
    + "'tomorrow 9am', 'fri 12:00', 'next fri', 'noon', '7:30 pm', '+2d', '-90m', 'in 2 hours' or "
    + "'3 days ago' (see 'routine help dates')"

  /// `+2d`, `-90m`, `in 2 hours`, `3 days ago`.
  private struct Relative {
    enum Unit {
      case minutes, hours, days, weeks

      init?(_ word: Substring) {
        switch word {
        case "m", "min", "mins", "minute", "minutes": self = .minutes
        case "h", "hr", "hrs", "hour", "hours": self = .hours
        case "d", "day", "days": self = .days
        case "w", "wk", "wks", "week", "weeks": self = .weeks
        default: return nil
        }
      }

      /// Calendar days per unit, `nil` for elapsed units.
      var days: Int? {
        switch self {
        case .days: 1
        case .weeks: 7
        case .minutes, .hours: nil
        }
      }

      var seconds: Int { self == .minutes ? 60 : 3600 }

      /// The largest amount: ``TimeArgument/maximumDays`` in this unit.
      var limit: Int {
        switch self {
        case .minutes: maximumDays * 1440
        case .hours: maximumDays * 24
        case .days: maximumDays
        case .weeks: maximumDays / 7
        }
      }
    }

    let isBackwards: Bool
    /// `nil` when the digits are more than any limit can take.
    let amount: Int?
    let unit: Unit

    init?(_ words: [String]) {
      var words = words
      var isBackwards = false
      if words.first == "in" {
        words.removeFirst()
      } else if words.last == "ago" {
        words.removeLast()
        isBackwards = true
      } else if let sign = words.first?.first, sign == "+" || sign == "-" {
        isBackwards = sign == "-"
        words[0].removeFirst()
      } else {
        return nil
      }
      let joined = words.joined()
      let digits = joined.prefix(while: { $0.isASCII && $0.isNumber })
      guard !digits.isEmpty, let unit = Unit(joined.dropFirst(digits.count)) else { return nil }
      self.isBackwards = isBackwards
      // Ten digits at most: more is over every limit, and must not overflow on the way.
      amount = digits.count > 10 ? nil : Int(digits)
      self.unit = unit
    }
  }

  /// 1 = Sunday ... 7 = Saturday for one weekday's English name or its unambiguous start
  /// (`fri`, `Friday`, `th`), as `--days` takes them.
  private static func weekday(_ word: String) -> Int? {
    guard word.allSatisfy({ $0.isASCII && $0.isLetter }),
      let days = WeekdaySet(parsing: word), days.count == 1
    else { return nil }
    return Array(days)[0]
  }

  /// A time of day as typed: `07:05`, `7:05:30` (24-hour), `9am`, `7:30 pm`, `12am` (00:00),
  /// `12pm` (12:00), `noon`, `midnight` (00:00), case ignored.
  static func clockTime(_ text: String) -> TimeOfDay? {
    let lowered = text.lowercased().trimmingBlanks
    switch lowered {
    case "noon": return TimeOfDay(hour: 12, minute: 0)
    case "midnight": return TimeOfDay(hour: 0, minute: 0)
    default: break
    }
    for (suffix, isAfternoon) in [("am", false), ("pm", true)] where lowered.hasSuffix(suffix) {
      let clock = lowered.dropLast(2).trimmingBlanks
      let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count <= 3, (1...2).contains(parts[0].count),
        parts.dropFirst().allSatisfy({ $0.count == 2 }),
        parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
        let hour = Int(parts[0]), (1...12).contains(hour)
      else { return nil }
      let minute = parts.count > 1 ? Int(parts[1])! : 0
      let second = parts.count > 2 ? Int(parts[2])! : 0
      return TimeOfDay(hour: hour % 12 + (isAfternoon ? 12 : 0), minute: minute, second: second)
    }
    return time(lowered)
  }

  /// `2026-04-20 07:05`, `2026-04-20T07:05`, `yesterday 23:10`, `2026-04-20 7:30pm`,
  /// `2026-04-20`: a day, then maybe a time (nil when there is none); `words` lowercased.
  private static func dayAndTime(_ words: [String], today: LocalDate) -> (LocalDate, TimeOfDay?)? {
    guard var head = words.first else { return nil }
    var tail = words.dropFirst().joined(separator: " ")
    if words.count == 1, head.first?.isNumber == true, let separator = head.firstIndex(of: "t") {
      tail = String(head[head.index(after: separator)...])
      head = String(head[..<separator])
      guard !tail.isEmpty else { return nil }
    }
    let day: LocalDate?
    switch head {
    case "today": day = today
    case "yesterday": day = today.adding(days: -1)
    case "tomorrow": day = today.adding(days: 1)
    default: day = date(head)
    }
    guard let day else { return nil }
    guard !tail.isEmpty else { return (day, nil) }
    guard let time = timeAfterDay(tail) else { return nil }
    return (day, time)
  }

  /// A time after a day (`tomorrow 9`, `fri 18`): a clock time, or a bare hour 0-23 on the
  /// hour, which alone would be a number, not a time.
  static func timeAfterDay(_ text: String) -> TimeOfDay? {
    if let time = clockTime(text) { return time }
    guard (1...2).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
      let hour = Int(text), hour < 24
    else { return nil }
    return TimeOfDay(hour: hour, minute: 0)
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
