/// A POSIX TZ rule (`CET-1CEST,M3.5.0,M10.5.0/3`): the footer of a TZif file, which gives the
/// zone's offsets for instants past its transition table, and a form `$TZ` may take.
///
/// The grammar is POSIX's with the extensions of TZif versions 3 and 4 (RFC 8536, section 3.3.1):
/// `std offset [dst [offset] [,start[/time],end[/time]]]`, where
/// - a name is three or more letters (`CET`), or three or more letters, digits, `+` and `-`
///   between angle brackets (`<+0530>`);
/// - an offset is `[+|-]hh[:mm[:ss]]` *west* of Greenwich (`CET-1` is one hour ahead of UTC),
///   hours up to 24 (version 3 widens transition times, not offsets; no real zone is more than
///   15 hours from UTC); the daylight-saving offset defaults to one hour ahead of standard time;
/// - a date is `Jn` (1-365, February 29 never counted), `n` (0-365, counted) or `Mm.w.d` (day
///   `d`, 0 = Sunday, of week `w` of month `m`, week 5 meaning the last);
/// - a time is `[+|-]hh[:mm[:ss]]` of local time on that date, hours from -167 to 167 (version 3),
///   02:00 when left out. Daylight-saving time starts at a time of standard time and ends at a
///   time of daylight-saving time.
///
/// A rule with daylight-saving time but no dates has the United States' current dates
/// (`M3.2.0,M11.1.0`), as glibc and the reference tzcode assume. Daylight-saving time all year is
/// written as a start on January 1 at 00:00 and an end after December 31 that meets the next
/// start (`EST5EDT,0/0,J365/25`).
///
/// Evaluation is integer arithmetic on days since 1970: it runs for every offset past a zone's
/// table, so no `Calendar`.
public struct PosixZoneRule: Hashable, Sendable {
  /// Seconds ahead of UTC in standard time.
  public let standardOffset: Int32
  /// The abbreviation of standard time.
  public let standardName: String
  /// Daylight-saving time, when the rule has it.
  public let daylightSaving: DaylightSaving?
  /// What decides offsets, without the names: copying it retains nothing, and it is copied for
  /// every offset asked for past a zone's table.
  let schedule: Schedule?

  /// Daylight-saving time: its name, offset and the yearly dates it starts and ends.
  public struct DaylightSaving: Hashable, Sendable {
    /// The abbreviation (`CEST`).
    public var name: String
    /// Seconds ahead of UTC.
    public var offset: Int32
    /// When it starts each year, in standard time.
    public var start: Change
    /// When it ends each year, in daylight-saving time.
    public var end: Change

    /// Daylight-saving time from its parts.
    public init(name: String, offset: Int32, start: Change, end: Change) {
      self.name = name
      self.offset = offset
      self.start = start
      self.end = end
    }
  }

  /// A yearly change: a date rule and a local time on that date.
  public struct Change: Hashable, Sendable {
    /// The date rule.
    public var day: Day
    /// Seconds after local midnight of that date (negative, or past a day, in version 3).
    public var time: Int32

    /// A change on `day` at `time`.
    public init(day: Day, time: Int32) {
      self.day = day
      self.time = time
    }
  }

  /// Which day of a year a change happens on.
  public enum Day: Hashable, Sendable {
    /// `Jn`: the n-th day, 1-365, February 29 never counted (J60 is always March 1).
    case julian(Int)
    /// `n`: the day n days after January 1, 0-365, February 29 counted.
    case dayOfYear(Int)
    /// `Mm.w.d`: weekday `weekday` (0 = Sunday) of week `week` (1-5, 5 the last) of `month`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
  }

  /// The rule `text` says, or `nil` when it is not a valid POSIX TZ rule.
  public init?(_ text: String) {
    var parser = Parser(Array(text.utf8))
    guard let rule = parser.rule() else { return nil }
    self = rule
  }

  /// A rule from its parts.
  public init(standardName: String, standardOffset: Int32, daylightSaving: DaylightSaving? = nil) {
    self.standardName = standardName
    self.standardOffset = standardOffset
    self.daylightSaving = daylightSaving
    self.schedule = daylightSaving.map {
      Schedule(
        standardOffset: standardOffset, daylightOffset: $0.offset, start: $0.start, end: $0.end)
    }
  }

  /// The local time type in effect at `instant`.
  public func localTimeType(at instant: Int64) -> ZoneRules.LocalTimeType {
    if let daylightSaving, isDaylightSavingTime(at: instant) {
      return ZoneRules.LocalTimeType(
        utcOffset: daylightSaving.offset, isDaylightSaving: true, abbreviation: daylightSaving.name)
    }
    return ZoneRules.LocalTimeType(
      utcOffset: standardOffset, isDaylightSaving: false, abbreviation: standardName)
  }

  /// The offset from UTC at `instant`, in seconds (without building a whole local time type).
  public func utcOffset(at instant: Int64) -> Int32 {
    guard let schedule else { return standardOffset }
    return schedule.utcOffset(at: instant)
  }

  /// Whether daylight-saving time is in effect at `instant`.
  public func isDaylightSavingTime(at instant: Int64) -> Bool {
    schedule?.isDaylightSavingTime(at: instant) ?? false
  }

  /// When daylight-saving time is in effect, as plain numbers.
  struct Schedule: Hashable, Sendable {
    var standardOffset: Int32
    var daylightOffset: Int32
    var start: Change
    var end: Change
    /// Whether each change always falls inside the local year it belongs to, more than a day
    /// from either end (its date at least 8 days from both, its time within a week, the two
    /// offsets less than a day apart): then an instant's own year decides, with the year
    /// before for the weeks before its first change.
    let staysInItsYear: Bool

    init(standardOffset: Int32, daylightOffset: Int32, start: Change, end: Change) {
      self.standardOffset = standardOffset
      self.daylightOffset = daylightOffset
      self.start = start
      self.end = end
      func isInside(_ day: Day) -> Bool {
        switch day {
        case .julian(let number): (9...357).contains(number)
        case .dayOfYear(let number): (8...356).contains(number)
        case .monthWeekDay(let month, _, _): (2...11).contains(month)
        }
      }
      staysInItsYear =
        isInside(start.day) && isInside(end.day)
        && abs(Int(daylightOffset) - Int(standardOffset)) < 86_400
    }

    func utcOffset(at instant: Int64) -> Int32 {
      isDaylightSavingTime(at: instant) ? daylightOffset : standardOffset
    }

    func isDaylightSavingTime(at instant: Int64) -> Bool {
      // Far enough for any date people mean (about a million years), near enough that no sum
      // below overflows.
      let limit: Int64 = 1 << 45
      let instant = min(max(instant, -limit), limit)
      let year = LocalDate(
        daysSince1970: floorDiv(Int(instant) + Int(standardOffset), 86_400)
      ).components.year
      if staysInItsYear {
        // The changes of other years are all before this local year or after it.
        let (start, end) = changes(in: year)
        switch (start <= instant, end <= instant) {
        case (true, true): return start > end
        case (true, false): return true
        case (false, true): return false
        case (false, false):
          // Before both: as at the end of the year before, its later change.
          let (lastStart, lastEnd) = changes(in: year - 1)
          return lastStart > lastEnd
        }
      }
      return isDaylightSavingTimeByNeighbouringYears(at: instant, year: year)
    }

    /// The general case, for any rule: `year` is the local year of `instant`.
    func isDaylightSavingTimeByNeighbouringYears(at instant: Int64, year: Int) -> Bool {
      let limit: Int64 = 1 << 45
      // The changes of the year before, this year and the next, in order: the last at or before
      // `instant` decides. Times past a day (or negative) can move a change into a neighbouring
      // year, hence three years. When a change meets the next one at the same instant (an end
      // on December 31 at 25:00 and a start on January 1 at 00:00: daylight-saving time all
      // year), the later in this order wins.
      var latest = Int64.min
      var isDaylightSaving = false
      var earliest = Int64.max
      var candidateYear = year - 1
      while candidateYear <= year + 1 {
        let (start, end) = changes(in: candidateYear)
        earliest = min(earliest, start, end)
        if start <= instant, start >= latest {
          latest = start
          isDaylightSaving = true
        }
        if end <= instant, end >= latest {
          latest = end
          isDaylightSaving = false
        }
        candidateYear += 1
      }
      // Only rules whose changes of a year both fall a week into the next get here; ask about
      // the year before. At the limit, standard time.
      if latest == Int64.min {
        return earliest - 1 > -limit && isDaylightSavingTime(at: earliest - 1)
      }
      return isDaylightSaving
    }

    /// The instants daylight-saving time starts and ends in `year`.
    func changes(in year: Int) -> (start: Int64, end: Int64) {
      let january1 = LocalDate.days(year: year, month: 1, day: 1)
      let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      let start =
        Int64(PosixZoneRule.day(of: start.day, january1: january1, isLeap: isLeap)) * 86_400
        + Int64(start.time) - Int64(standardOffset)
      let end =
        Int64(PosixZoneRule.day(of: end.day, january1: january1, isLeap: isLeap)) * 86_400
        + Int64(end.time) - Int64(daylightOffset)
      return (start, end)
    }
  }

  /// Days since 1970 of the date `rule` names in the year that starts on `january1`.
  static func day(of rule: Day, january1: Int, isLeap: Bool) -> Int {
    switch rule {
    case .julian(let number):
      return january1 + number - 1 + (isLeap && number >= 60 ? 1 : 0)
    case .dayOfYear(let number):
      return january1 + number
    case .monthWeekDay(let month, let week, let weekday):
      // Days before the month in a common year, then the leap day.
      let before = (367 * month - 362) / 12 - (month > 2 ? (isLeap ? 1 : 2) : 0)
      let first = january1 + before
      let length = month == 2 ? (isLeap ? 29 : 28) : 30 + ((month + month / 8) & 1)
      // 1970-01-01 was a Thursday (4 with Sunday 0).
      let firstWeekday = floorMod(first + 4, 7)
      var day = first + floorMod(weekday - firstWeekday, 7) + 7 * (week - 1)
      while day >= first + length { day -= 7 }
      return day
    }
  }
}

extension PosixZoneRule: CustomStringConvertible {
  /// The rule in POSIX form, as it would be written (`CET-1CEST,M3.5.0,M10.5.0/3`).
  public var description: String {
    var text = PosixZoneRule.name(standardName) + PosixZoneRule.duration(-Int(standardOffset))
    guard let daylightSaving else { return text }
    text += PosixZoneRule.name(daylightSaving.name)
    if daylightSaving.offset != standardOffset + 3600 {
      text += PosixZoneRule.duration(-Int(daylightSaving.offset))
    }
    for change in [daylightSaving.start, daylightSaving.end] {
      switch change.day {
      case .julian(let number): text += ",J\(number)"
      case .dayOfYear(let number): text += ",\(number)"
      case .monthWeekDay(let month, let week, let weekday): text += ",M\(month).\(week).\(weekday)"
      }
      if change.time != 7200 { text += "/" + PosixZoneRule.duration(Int(change.time)) }
    }
    return text
  }

  private static func name(_ name: String) -> String {
    name.utf8.allSatisfy { Parser.isLetter($0) } ? name : "<\(name)>"
  }

  private static func duration(_ seconds: Int) -> String {
    let magnitude = abs(seconds)
    var text = (seconds < 0 ? "-" : "") + String(magnitude / 3600)
    if magnitude % 3600 != 0 { text += ":" + pad(magnitude / 60 % 60, 2) }
    if magnitude % 60 != 0 { text += ":" + pad(magnitude % 60, 2) }
    return text
  }
}

/// A recursive-descent parser over the bytes of a TZ string.
private struct Parser {
  let bytes: [UInt8]
  var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  mutating func take(_ character: Unicode.Scalar) -> Bool {
    guard current == UInt8(ascii: character) else { return false }
    position += 1
    return true
  }

  /// The whole rule, or `nil` when anything is wrong or left over.
  mutating func rule() -> PosixZoneRule? {
    guard let standardName = name(), let west = duration(maximumHours: 24, signed: true)
    else { return nil }
    let standardOffset = Int32(-west)
    guard current != nil else {
      return PosixZoneRule(standardName: standardName, standardOffset: standardOffset)
    }
    guard let daylightName = name() else { return nil }
    var daylightOffset = standardOffset + 3600
    if let byte = current, byte != UInt8(ascii: ",") {
      guard let west = duration(maximumHours: 24, signed: true) else { return nil }
      daylightOffset = Int32(-west)
    }
    // Without dates: the United States' rules, as glibc and tzcode assume.
    var start = PosixZoneRule.Change(
      day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
    var end = PosixZoneRule.Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
    if current != nil {
      guard take(","), let first = change(), take(","), let second = change() else { return nil }
      start = first
      end = second
    }
    guard current == nil else { return nil }
    return PosixZoneRule(
      standardName: standardName, standardOffset: standardOffset,
      daylightSaving: PosixZoneRule.DaylightSaving(
        name: daylightName, offset: daylightOffset, start: start, end: end))
  }

  /// `CET` or `<+0530>`: three or more characters.
  mutating func name() -> String? {
    let begin: Int
    let end: Int
    if take("<") {
      begin = position
      while let byte = current,
        Parser.isLetter(byte) || Parser.isDigit(byte) || byte == UInt8(ascii: "+")
          || byte == UInt8(ascii: "-")
      {
        position += 1
      }
      end = position
      guard take(">") else { return nil }
    } else {
      begin = position
      while let byte = current, Parser.isLetter(byte) { position += 1 }
      end = position
    }
    guard end - begin >= 3 else { return nil }
    return String(decoding: bytes[begin..<end], as: UTF8.self)
  }

  /// `[+|-]hh[:mm[:ss]]` in seconds; a sign only when `signed`.
  mutating func duration(maximumHours: Int, signed: Bool) -> Int? {
    var sign = 1
    if signed {
      if take("-") {
        sign = -1
      } else {
        _ = take("+")
      }
    }
    guard let hours = number(maximum: maximumHours, maximumDigits: 3) else { return nil }
    var seconds = hours * 3600
    if take(":") {
      guard let minutes = number(maximum: 59, maximumDigits: 2) else { return nil }
      seconds += minutes * 60
      if take(":") {
        guard let rest = number(maximum: 59, maximumDigits: 2) else { return nil }
        seconds += rest
      }
    }
    return sign * seconds
  }

  /// A decimal number of at most `maximumDigits` digits, at most `maximum`.
  mutating func number(maximum: Int, maximumDigits: Int) -> Int? {
    var value = 0
    var digits = 0
    while let byte = current, Parser.isDigit(byte), digits < maximumDigits {
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      digits += 1
      position += 1
    }
    guard digits > 0, value <= maximum else { return nil }
    // More digits than allowed: not a number this grammar knows.
    if let byte = current, Parser.isDigit(byte) { return nil }
    return value
  }

  /// `date[/time]`.
  mutating func change() -> PosixZoneRule.Change? {
    let day: PosixZoneRule.Day
    if take("J") {
      guard let number = number(maximum: 365, maximumDigits: 3), number >= 1 else { return nil }
      day = .julian(number)
    } else if take("M") {
      guard let month = number(maximum: 12, maximumDigits: 2), month >= 1, take("."),
        let week = number(maximum: 5, maximumDigits: 1), week >= 1, take("."),
        let weekday = number(maximum: 6, maximumDigits: 1)
      else { return nil }
      day = .monthWeekDay(month: month, week: week, weekday: weekday)
    } else {
      guard let number = number(maximum: 365, maximumDigits: 3) else { return nil }
      day = .dayOfYear(number)
    }
    var time = 7200
    if take("/") {
      guard let seconds = duration(maximumHours: 167, signed: true) else { return nil }
      time = seconds
    }
    return PosixZoneRule.Change(day: day, time: Int32(time))
  }
}
