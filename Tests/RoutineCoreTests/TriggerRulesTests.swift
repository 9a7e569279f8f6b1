import Foundation
import RoutineCore
import Testing

/// The trigger kinds of reminders people define (docs/reminders.md): weekday sets, a day of the
/// month, one local date and time; with the gap and repeat rules of docs/time.md in zones with
/// whole-hour, half-hour and 45-minute offsets and shifts.
struct TriggerRulesTests {
  static func calendarTrigger(
    _ time: String, weekdays: WeekdaySet = .none, dayOfMonth: Int? = nil
  ) -> CalendarTrigger {
    let parsed = wallTime(time)
    return CalendarTrigger(
      weekdays: weekdays, dayOfMonth: dayOfMonth, hour: parsed.hour, minute: parsed.minute)
  }

  /// Every firing from `from` on, by asking for the next one again and again.
  static func stepped(_ trigger: Trigger, from: Int64, to: Int64, in timeZone: Zone)
    -> [Int64]
  {
    var result: [Int64] = []
    var cursor = from - 1
    while let next = trigger.nextFire(after: cursor, in: timeZone), next < to {
      // A next firing that does not move forward would loop for ever: fail instead.
      guard next > cursor else {
        Issue.record("nextFire(after: \(cursor)) returned \(next), not a later instant")
        break
      }
      result.append(next)
      cursor = next
    }
    return result
  }

  // MARK: Weekday sets

  @Test func aWeekdaySetFiresOnEachOfItsDaysAndOnNoOther() {
    let berlin = zone("Europe/Berlin")
    let days = WeekdaySet(parsing: "mon,wed,fri")!
    #expect(days == WeekdaySet([2, 4, 6]))
    let trigger = Trigger.calendar(Self.calendarTrigger("18:00", weekdays: days))
    // 2026-05-04 is a Monday.
    let from = epoch("2026-05-04T00:00+02:00")
    let to = epoch("2026-05-18T00:00+02:00")
    let expected = [
      "2026-05-04T18:00+02:00", "2026-05-06T18:00+02:00", "2026-05-08T18:00+02:00",
      "2026-05-11T18:00+02:00", "2026-05-13T18:00+02:00", "2026-05-15T18:00+02:00",
    ].map(epoch)
    #expect(trigger.occurrences(from: from, to: to, in: berlin) == expected)
    #expect(Self.stepped(trigger, from: from, to: to, in: berlin) == expected)
  }

  @Test func aWeekdayRangeWrapsRoundTheEndOfTheWeek() {
    let berlin = zone("Europe/Berlin")
    let days = WeekdaySet(parsing: "fri-mon")!
    #expect(days == WeekdaySet([6, 7, 1, 2]))
    let trigger = Trigger.calendar(Self.calendarTrigger("07:30", weekdays: days))
    let fires = trigger.occurrences(
      from: epoch("2026-05-05T00:00+02:00"), to: epoch("2026-05-12T00:00+02:00"), in: berlin)
    #expect(
      fires
        == [
          "2026-05-08T07:30+02:00", "2026-05-09T07:30+02:00", "2026-05-10T07:30+02:00",
          "2026-05-11T07:30+02:00",
        ].map(epoch))
  }

  @Test func anEmptyWeekdaySetOnACalendarTriggerMeansEveryDay() {
    let berlin = zone("Europe/Berlin")
    let trigger = Trigger.calendar(Self.calendarTrigger("09:00"))
    let fires = trigger.occurrences(
      from: epoch("2026-05-04T00:00+02:00"), to: epoch("2026-05-11T00:00+02:00"), in: berlin)
    #expect(fires.count == 7)
    #expect(Set(fires.map { WallClock.localDate(at: $0, in: berlin).weekday }) == Set(1...7))
  }

  @Test func aWeekdayIsTheWeekdayOfTheLocalDateNotOfUTC() {
    // Monday 00:15 in Kolkata (+05:30) is Sunday 18:45 in UTC.
    let kolkata = zone("Asia/Kolkata")
    let monday = Trigger.calendar(Self.calendarTrigger("00:15", weekdays: WeekdaySet([2])))
    let fire = monday.nextFire(after: epoch("2026-05-03T12:00Z"), in: kolkata)
    #expect(fire == epoch("2026-05-04T00:15+05:30"))
    #expect(fire == epoch("2026-05-03T18:45Z"))
    // Saturday 22:00 in St. John's (-02:30 in summer) is Sunday 00:30 in UTC.
    let saturday = Trigger.calendar(Self.calendarTrigger("22:00", weekdays: WeekdaySet([7])))
    #expect(
      saturday.nextFire(after: epoch("2026-05-04T00:00Z"), in: zone("America/St_Johns"))
        == epoch("2026-05-10T00:30Z"))
  }

  // MARK: Day of the month

  @Test func aMonthlyTriggerOnThe31stFiresOnTheLastDayOfShorterMonths() {
    let berlin = zone("Europe/Berlin")
    let trigger = Trigger.calendar(Self.calendarTrigger("09:00", dayOfMonth: 31))
    let from = epoch("2026-01-01T00:00+01:00")
    let to = epoch("2027-01-01T00:00+01:00")
    // docs/reminders.md: "the 31st is 30 April, 28 or 29 February"; offsets change on
    // 29 March and 25 October.
    let expected = [
      "2026-01-31T09:00+01:00", "2026-02-28T09:00+01:00", "2026-03-31T09:00+02:00",
      "2026-04-30T09:00+02:00", "2026-05-31T09:00+02:00", "2026-06-30T09:00+02:00",
      "2026-07-31T09:00+02:00", "2026-08-31T09:00+02:00", "2026-09-30T09:00+02:00",
      "2026-10-31T09:00+01:00", "2026-11-30T09:00+01:00", "2026-12-31T09:00+01:00",
    ].map(epoch)
    #expect(trigger.occurrences(from: from, to: to, in: berlin) == expected)
    #expect(Self.stepped(trigger, from: from, to: to, in: berlin) == expected)
  }

  @Test(arguments: [
    (31, "2027-02-28T09:00+01:00", "2028-02-29T09:00+01:00"),
    (30, "2027-02-28T09:00+01:00", "2028-02-29T09:00+01:00"),
    (29, "2027-02-28T09:00+01:00", "2028-02-29T09:00+01:00"),
    (28, "2027-02-28T09:00+01:00", "2028-02-28T09:00+01:00"),
  ])
  func februaryGetsTheDayOrItsLastDayInCommonAndLeapYears(
    day: Int, common: String, leap: String
  ) {
    let berlin = zone("Europe/Berlin")
    let trigger = Trigger.calendar(Self.calendarTrigger("09:00", dayOfMonth: day))
    #expect(trigger.nextFire(after: epoch("2027-02-01T00:00+01:00"), in: berlin) == epoch(common))
    #expect(trigger.nextFire(after: epoch("2028-02-01T00:00+01:00"), in: berlin) == epoch(leap))
    // Never spilled over into March.
    let march = trigger.occurrences(
      from: epoch("2028-03-01T00:00+01:00"), to: epoch("2028-03-05T00:00+01:00"), in: berlin)
    #expect(march.isEmpty)
  }

  @Test func aMonthlyTriggerOnTheLastNightOfTheMonthFollowsTheMonthsLength() {
    // The 31st at 23:59 in Kolkata: 30 April 23:59 (+05:30) is 30 April 18:29 in UTC.
    let kolkata = zone("Asia/Kolkata")
    let trigger = Trigger.calendar(Self.calendarTrigger("23:59", dayOfMonth: 31))
    #expect(
      trigger.nextFire(after: epoch("2026-04-01T00:00Z"), in: kolkata)
        == epoch("2026-04-30T18:29Z"))
    #expect(
      trigger.nextFire(after: epoch("2026-04-30T18:29Z"), in: kolkata)
        == epoch("2026-05-31T23:59+05:30"))
  }

  // MARK: One local date and time

  struct OneTime: CustomTestStringConvertible, Sendable {
    let zone: String
    let date: (Int, Int, Int)
    let time: String
    let expected: String
    let why: String
    var testDescription: String { "\(zone) \(time): \(why)" }
  }

  static let oneTimeCases: [OneTime] = [
    OneTime(
      zone: "Europe/Berlin", date: (2026, 3, 29), time: "02:30",
      expected: "2026-03-29T03:00+02:00", why: "gap: the end of the gap"),
    OneTime(
      zone: "Europe/Berlin", date: (2026, 10, 25), time: "02:30",
      expected: "2026-10-25T02:30+02:00", why: "repeat: the first of the two"),
    OneTime(
      zone: "Australia/Lord_Howe", date: (2026, 10, 4), time: "02:15",
      expected: "2026-10-04T02:30+11:00", why: "30-minute gap"),
    OneTime(
      zone: "Australia/Lord_Howe", date: (2026, 4, 5), time: "01:45",
      expected: "2026-04-05T01:45+11:00", why: "30-minute repeat"),
    OneTime(
      zone: "America/St_Johns", date: (2026, 3, 8), time: "02:30",
      expected: "2026-03-08T03:00-02:30", why: "gap at a half-hour offset"),
    OneTime(
      zone: "America/St_Johns", date: (2026, 11, 1), time: "01:30",
      expected: "2026-11-01T01:30-02:30", why: "repeat at a half-hour offset"),
    OneTime(
      zone: "Pacific/Chatham", date: (2026, 9, 27), time: "03:00",
      expected: "2026-09-27T03:45+13:45", why: "gap at a 45-minute offset"),
    OneTime(
      zone: "Pacific/Chatham", date: (2026, 4, 5), time: "03:00",
      expected: "2026-04-05T03:00+13:45", why: "repeat at a 45-minute offset"),
    OneTime(
      zone: "America/Santiago", date: (2026, 9, 6), time: "00:30",
      expected: "2026-09-06T01:00-03:00", why: "midnight does not exist"),
    OneTime(
      zone: "America/Santiago", date: (2026, 4, 4), time: "23:30",
      expected: "2026-04-04T23:30-03:00", why: "the last hour of the day repeats"),
    OneTime(
      zone: "Asia/Kolkata", date: (2026, 3, 29), time: "02:30",
      expected: "2026-03-29T02:30+05:30", why: "no daylight-saving time"),
    OneTime(
      zone: "UTC", date: (2026, 10, 25), time: "02:30", expected: "2026-10-25T02:30Z",
      why: "UTC"),
  ]

  @Test(arguments: oneTimeCases)
  func aOneTimeLocalTimeFiresOnceByTheGapAndRepeatRules(_ test: OneTime) {
    let timeZone = zone(test.zone)
    let day = date(test.date.0, test.date.1, test.date.2)
    let trigger = Trigger.local(day, wallTime(test.time))
    let expected = epoch(test.expected)
    let before = expected - 2 * 86_400
    #expect(trigger.nextFire(after: before, in: timeZone) == expected)
    #expect(trigger.nextFire(after: expected, in: timeZone) == nil)
    #expect(
      trigger.occurrences(from: before, to: expected + 2 * 86_400, in: timeZone) == [expected])
  }

  @Test func aOneTimeLocalTimeKeepsItsWallClockTimeWhenTheZoneChanges() {
    let trigger = Trigger.local(date(2026, 5, 7), wallTime("09:00"))
    let after = epoch("2026-05-01T00:00Z")
    #expect(
      trigger.nextFire(after: after, in: zone("Europe/Berlin")) == epoch("2026-05-07T09:00+02:00"))
    #expect(
      trigger.nextFire(after: after, in: zone("America/New_York"))
        == epoch("2026-05-07T09:00-04:00"))
    #expect(
      trigger.nextFire(after: after, in: zone("Asia/Tehran")) == epoch("2026-05-07T09:00+03:30"))
    // A date trigger (a snooze) is an instant and does not move.
    let instant = Trigger.date(epoch("2026-05-07T09:00+02:00"))
    #expect(
      instant.nextFire(after: after, in: zone("America/New_York"))
        == epoch("2026-05-07T09:00+02:00"))
  }

  // MARK: Half-hour and 45-minute shifts, midnight

  @Test func weeklyTriggersOnTransitionSundaysInHalfHourAndFortyFiveMinuteZones() {
    let lordHowe = zone("Australia/Lord_Howe")
    let sunday0215 = Trigger.calendar(Self.calendarTrigger("02:15", weekdays: WeekdaySet([1])))
    #expect(
      sunday0215.occurrences(
        from: epoch("2026-09-30T00:00+10:30"), to: epoch("2026-10-15T00:00+11:00"), in: lordHowe)
        == ["2026-10-04T02:30+11:00", "2026-10-11T02:15+11:00"].map(epoch))
    let chatham = zone("Pacific/Chatham")
    let sunday0300 = Trigger.calendar(Self.calendarTrigger("03:00", weekdays: WeekdaySet([1])))
    #expect(
      sunday0300.occurrences(
        from: epoch("2026-09-20T12:00+12:45"), to: epoch("2026-10-08T00:00+13:45"), in: chatham)
        == ["2026-09-27T03:45+13:45", "2026-10-04T03:00+13:45"].map(epoch))
    #expect(
      sunday0300.occurrences(
        from: epoch("2026-04-01T00:00+13:45"), to: epoch("2026-04-10T00:00+12:45"), in: chatham)
        == [epoch("2026-04-05T03:00+13:45")])
  }

  @Test func aDailyMidnightTriggerFiresAtTheEndOfAGapAtMidnight() {
    // Santiago springs forward at midnight: 2026-09-06 starts at 01:00.
    let santiago = zone("America/Santiago")
    let trigger = Trigger.calendar(Self.calendarTrigger("00:00"))
    let from = epoch("2026-09-04T12:00-04:00")
    let to = epoch("2026-09-08T12:00-03:00")
    let expected = [
      "2026-09-05T00:00-04:00", "2026-09-06T01:00-03:00", "2026-09-07T00:00-03:00",
      "2026-09-08T00:00-03:00",
    ].map(epoch)
    #expect(trigger.occurrences(from: from, to: to, in: santiago) == expected)
    #expect(Self.stepped(trigger, from: from, to: to, in: santiago) == expected)
  }

  @Test func aLateEveningTriggerFiresOnceWhenTheLastHourOfTheDayRepeats() {
    // Santiago falls back at midnight: 2026-04-04 has 23:00-23:59 twice.
    let santiago = zone("America/Santiago")
    let trigger = Trigger.calendar(Self.calendarTrigger("23:30"))
    let from = epoch("2026-04-03T12:00-03:00")
    let to = epoch("2026-04-06T12:00-04:00")
    let expected = [
      "2026-04-03T23:30-03:00", "2026-04-04T23:30-03:00", "2026-04-05T23:30-04:00",
    ].map(epoch)
    #expect(trigger.occurrences(from: from, to: to, in: santiago) == expected)
    #expect(Self.stepped(trigger, from: from, to: to, in: santiago) == expected)
  }

  @Test func triggersEitherSideOfMidnightStayOnTheirOwnDates() {
    let berlin = zone("Europe/Berlin")
    let saturdayLate = Trigger.calendar(Self.calendarTrigger("23:59", weekdays: WeekdaySet([7])))
    let sundayMidnight = Trigger.calendar(Self.calendarTrigger("00:00", weekdays: WeekdaySet([1])))
    let from = epoch("2026-05-09T23:00+02:00")
    let to = epoch("2026-05-10T01:00+02:00")
    #expect(
      saturdayLate.occurrences(from: from, to: to, in: berlin) == [epoch("2026-05-09T23:59+02:00")])
    #expect(
      sundayMidnight.occurrences(from: from, to: to, in: berlin) == [
        epoch("2026-05-10T00:00+02:00")
      ])
    // After Saturday's firing, its next one is a week later; Sunday's is a minute away.
    let saturdayFiring = epoch("2026-05-09T23:59+02:00")
    #expect(
      saturdayLate.nextFire(after: saturdayFiring, in: berlin) == epoch("2026-05-16T23:59+02:00"))
    #expect(
      sundayMidnight.nextFire(after: saturdayFiring, in: berlin)
        == epoch("2026-05-10T00:00+02:00"))
  }

  // MARK: An independent reference: Foundation's Calendar

  static let referenceZones = [
    "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata",
    "America/St_Johns", "Pacific/Chatham", "Asia/Tehran", "UTC", "America/Santiago",
  ]

  static let referenceTriggers: [CalendarTrigger] =
    [
      "00:00", "00:30", "01:30", "01:45", "02:00", "02:30", "02:45", "03:00", "03:30", "07:15",
      "12:00", "23:30", "23:59",
    ].map { calendarTrigger($0) } + [
      calendarTrigger("02:30", weekdays: WeekdaySet([1])),
      calendarTrigger("03:00", weekdays: WeekdaySet([1])),
      calendarTrigger("07:15", weekdays: WeekdaySet([2, 4, 6])),
      calendarTrigger("00:00", weekdays: .weekends),
      calendarTrigger("02:30", dayOfMonth: 31),
      calendarTrigger("23:59", dayOfMonth: 29),
      calendarTrigger("00:00", dayOfMonth: 1),
      calendarTrigger("12:00", dayOfMonth: 15),
    ]

  /// A day of 2026 as Foundation's Gregorian calendar sees it.
  struct ReferenceDay {
    let month: Int
    let day: Int
    let weekday: Int
    let daysInMonth: Int
  }

  /// What Foundation's `Calendar` says a trigger does in 2026, written without the code under
  /// test: on each date whose weekday (from `Calendar`) and day of the month (the day, or the
  /// month's last day from `Calendar.range`) match, the instant `date(from:)` gives for the wall
  /// time. That instant is checked by reading its wall clock back: in a repeated hour the
  /// earlier reading is taken (the first instant); when it does not read back, the wall time is
  /// in a gap and the rule of docs/time.md (the end of the gap) is Foundation's own transition.
  struct Reference {
    var firings: [Int64] = []
    var gaps = 0
    var repeats = 0
  }

  static func reference(_ trigger: CalendarTrigger, days: [ReferenceDay], calendar: Calendar)
    -> Reference
  {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(secondsFromGMT: 0)!
    let timeZone = calendar.timeZone
    var result = Reference()
    for day in days {
      if !trigger.weekdays.isEmpty, !trigger.weekdays.contains(day.weekday) { continue }
      if let dayOfMonth = trigger.dayOfMonth, day.day != min(dayOfMonth, day.daysInMonth) {
        continue
      }
      let wanted = DateComponents(
        year: 2026, month: day.month, day: day.day, hour: trigger.hour, minute: trigger.minute)
      // The wall time as seconds on a clock without a zone, to compare readings with.
      let naive = utc.date(from: wanted)!.timeIntervalSince1970
      func reads(_ instant: Date) -> Bool {
        instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant)) == naive
      }
      let candidate = calendar.date(from: wanted)!
      if reads(candidate) {
        let others = [-3600.0, -1800, 1800, 3600].map { candidate.addingTimeInterval($0) }
          .filter(reads)
        if !others.isEmpty { result.repeats += 1 }
        let first = ([candidate] + others).min()!
        result.firings.append(Int64(first.timeIntervalSince1970))
      } else {
        result.gaps += 1
        let end = timeZone.nextDaylightSavingTimeTransition(
          after: candidate.addingTimeInterval(-86_400))!
        result.firings.append(Int64(end.timeIntervalSince1970))
      }
    }
    return result
  }

  @Test(arguments: referenceZones)
  func listedOccurrencesRepeatedNextFireAndFoundationsCalendarAgreeForAYear(_ name: String) {
    let cal = calendar(name)
    var days: [ReferenceDay] = []
    for month in 1...12 {
      let first = cal.date(from: DateComponents(year: 2026, month: month, day: 1, hour: 12))!
      let length = cal.range(of: .day, in: .month, for: first)!.count
      for day in 1...length {
        let noon = cal.date(from: DateComponents(year: 2026, month: month, day: day, hour: 12))!
        days.append(
          ReferenceDay(
            month: month, day: day, weekday: cal.component(.weekday, from: noon),
            daysInMonth: length))
      }
    }
    #expect(days.count == 365)
    let start = Int64(
      cal.date(from: DateComponents(year: 2026, month: 1, day: 1))!.timeIntervalSince1970)
    let end = Int64(
      cal.date(from: DateComponents(year: 2027, month: 1, day: 1))!.timeIntervalSince1970)
    let timeZone = Zone(foundation: cal.timeZone)
    var mismatches: [String] = []
    var gaps = 0
    var repeats = 0
    for calendarTrigger in Self.referenceTriggers {
      let trigger = Trigger.calendar(calendarTrigger)
      let expected = Self.reference(calendarTrigger, days: days, calendar: cal)
      gaps += expected.gaps
      repeats += expected.repeats
      let listed = trigger.occurrences(from: start, to: end, in: timeZone)
      let stepped = Self.stepped(trigger, from: start, to: end, in: timeZone)
      if listed != expected.firings {
        mismatches.append(
          "listed \(calendarTrigger): \(Set(listed).symmetricDifference(expected.firings).sorted().prefix(3))"
        )
      }
      if stepped != expected.firings {
        mismatches.append(
          "stepped \(calendarTrigger): \(Set(stepped).symmetricDifference(expected.firings).sorted().prefix(3))"
        )
      }
    }
    #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(4))")
    // The year crossed the zone's gaps and repeats, so the rules were exercised, not avoided.
    let changes = !transitions2026And2027(in: timeZone).isEmpty
    #expect((gaps > 0) == changes, "\(name): \(gaps) gaps")
    #expect((repeats > 0) == changes, "\(name): \(repeats) repeats")
  }

  // MARK: ZoneDays and WallClock

  @Test(arguments: referenceZones)
  func zoneDaysGiveTheInstantsOfWallClockOnEveryDayOfTheYear(_ name: String) {
    let timeZone = zone(name)
    let days = ZoneDays(timeZone, dates: date(2025, 12, 31)...date(2027, 1, 1))
    let times =
      stride(from: 0, to: 86_400, by: 900).map { TimeOfDay(secondsSinceMidnight: $0) }
      + [wallTime("23:59"), TimeOfDay(secondsSinceMidnight: 86_399)]
    var mismatches: [String] = []
    var day = days.first
    while day <= days.last {
      for time in times
      where days.instant(on: day, at: time) != WallClock.instant(on: day, at: time, in: timeZone) {
        mismatches.append("\(day) \(time)")
      }
      day = day.adding(days: 1)
    }
    // Dates outside the range fall back to WallClock too.
    let outside = date(2027, 3, 28)
    #expect(
      days.instant(on: outside, at: wallTime("02:30"))
        == WallClock.instant(on: outside, at: wallTime("02:30"), in: timeZone))
    #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(5))")
  }

  @Test func zoneDaysForARangeOfInstantsCoverItsLocalDatesWithADayEitherSide() {
    let chatham = zone("Pacific/Chatham")
    // 2026-05-03T12:00Z is 05-04 00:45 in Chatham; 2026-05-05T10:00Z is 05-05 22:45.
    let days = ZoneDays(chatham, from: epoch("2026-05-03T12:00Z"), to: epoch("2026-05-05T10:00Z"))
    #expect(days.first == date(2026, 5, 3))
    #expect(days.last == date(2026, 5, 6))
  }
}
