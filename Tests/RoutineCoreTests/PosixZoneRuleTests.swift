import Foundation
import Testing

@testable import RoutineCore

struct PosixZoneRuleTests {
  static func instant(_ text: String) -> Int64 { stamp(text).secondsSince1970 }

  /// One expectation: at `at`, the rule `rule` gives `offset` (seconds), `daylight` and `name`.
  struct Case: CustomTestStringConvertible, Sendable {
    let rule: String
    let at: String
    let offset: Int32
    let daylight: Bool
    let name: String
    var testDescription: String { "\(rule) at \(at)" }
  }

  static let berlin = "CET-1CEST,M3.5.0,M10.5.0/3"
  static let newYork = "EST5EDT,M3.2.0,M11.1.0"
  static let sydney = "AEST-10AEDT,M10.1.0,M4.1.0/3"
  static let lordHowe = "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"

  // Every instant below is worked out by hand from the rule: the last Sunday of March 2026 is
  // the 29th, of October the 25th; the second Sunday of March the 8th, the first of November
  // the 1st; the first Sunday of April the 5th, of October the 4th.
  static let cases: [Case] = [
    // Berlin-like: starts at 02:00 standard time (01:00 UTC), ends at 03:00 summer time (01:00).
    Case(rule: berlin, at: "2026-03-29T00:59:59Z", offset: 3600, daylight: false, name: "CET"),
    Case(rule: berlin, at: "2026-03-29T01:00:00Z", offset: 7200, daylight: true, name: "CEST"),
    Case(rule: berlin, at: "2026-10-25T00:59:59Z", offset: 7200, daylight: true, name: "CEST"),
    Case(rule: berlin, at: "2026-10-25T01:00:00Z", offset: 3600, daylight: false, name: "CET"),
    Case(rule: berlin, at: "2026-01-01T00:00:00Z", offset: 3600, daylight: false, name: "CET"),
    Case(rule: berlin, at: "2026-12-31T23:59:59Z", offset: 3600, daylight: false, name: "CET"),
    // New York-like: both changes at 02:00 local.
    Case(rule: newYork, at: "2026-03-08T06:59:59Z", offset: -18000, daylight: false, name: "EST"),
    Case(rule: newYork, at: "2026-03-08T07:00:00Z", offset: -14400, daylight: true, name: "EDT"),
    Case(rule: newYork, at: "2026-11-01T05:59:59Z", offset: -14400, daylight: true, name: "EDT"),
    Case(rule: newYork, at: "2026-11-01T06:00:00Z", offset: -18000, daylight: false, name: "EST"),
    // Sydney-like: summer time spans the new year; it ends in April and starts in October.
    Case(rule: sydney, at: "2026-01-01T00:00:00Z", offset: 39600, daylight: true, name: "AEDT"),
    Case(rule: sydney, at: "2025-12-31T12:59:59Z", offset: 39600, daylight: true, name: "AEDT"),
    Case(rule: sydney, at: "2026-04-04T15:59:59Z", offset: 39600, daylight: true, name: "AEDT"),
    Case(rule: sydney, at: "2026-04-04T16:00:00Z", offset: 36000, daylight: false, name: "AEST"),
    Case(rule: sydney, at: "2026-07-01T00:00:00Z", offset: 36000, daylight: false, name: "AEST"),
    Case(rule: sydney, at: "2026-10-03T15:59:59Z", offset: 36000, daylight: false, name: "AEST"),
    Case(rule: sydney, at: "2026-10-03T16:00:00Z", offset: 39600, daylight: true, name: "AEDT"),
    // Lord Howe: half an hour of summer time, quoted names.
    Case(rule: lordHowe, at: "2026-04-04T14:59:59Z", offset: 39600, daylight: true, name: "+11"),
    Case(
      rule: lordHowe, at: "2026-04-04T15:00:00Z", offset: 37800, daylight: false, name: "+1030"),
    Case(
      rule: lordHowe, at: "2026-10-03T15:29:59Z", offset: 37800, daylight: false, name: "+1030"),
    Case(rule: lordHowe, at: "2026-10-03T15:30:00Z", offset: 39600, daylight: true, name: "+11"),
    // Nuuk (version 3): starts at -01:00 (23:00 the Saturday before), ends at 00:00.
    Case(
      rule: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", at: "2026-03-29T00:59:59Z", offset: -7200,
      daylight: false, name: "-02"),
    Case(
      rule: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", at: "2026-03-29T01:00:00Z", offset: -3600,
      daylight: true, name: "-01"),
    Case(
      rule: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", at: "2026-10-25T00:59:59Z", offset: -3600,
      daylight: true, name: "-01"),
    Case(
      rule: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", at: "2026-10-25T01:00:00Z", offset: -7200,
      daylight: false, name: "-02"),
    // Jerusalem (version 3): starts on the Thursday of the fourth week of March at 26:00, that is
    // Friday 2026-03-27 02:00 (+02:00).
    Case(
      rule: "IST-2IDT,M3.4.4/26,M10.5.0", at: "2026-03-26T23:59:59Z", offset: 7200,
      daylight: false, name: "IST"),
    Case(
      rule: "IST-2IDT,M3.4.4/26,M10.5.0", at: "2026-03-27T00:00:00Z", offset: 10800,
      daylight: true, name: "IDT"),
    Case(
      rule: "IST-2IDT,M3.4.4/26,M10.5.0", at: "2026-10-24T22:59:59Z", offset: 10800,
      daylight: true, name: "IDT"),
    Case(
      rule: "IST-2IDT,M3.4.4/26,M10.5.0", at: "2026-10-24T23:00:00Z", offset: 7200,
      daylight: false, name: "IST"),
    // Daylight-saving time all year: the end after December 31 meets the next start.
    Case(
      rule: "EST5EDT,0/0,J365/25", at: "2026-01-01T05:00:00Z", offset: -14400, daylight: true,
      name: "EDT"),
    Case(
      rule: "EST5EDT,0/0,J365/25", at: "2026-01-01T04:59:59Z", offset: -14400, daylight: true,
      name: "EDT"),
    Case(
      rule: "EST5EDT,0/0,J365/25", at: "2028-12-31T23:00:00Z", offset: -14400, daylight: true,
      name: "EDT"),
    Case(
      rule: "EST5EDT,0/0,J365/25", at: "2026-07-01T12:00:00Z", offset: -14400, daylight: true,
      name: "EDT"),
    // No daylight-saving time.
    Case(
      rule: "<+0530>-5:30", at: "2026-07-01T12:00:00Z", offset: 19800, daylight: false,
      name: "+0530"),
    Case(rule: "UTC0", at: "2026-07-01T12:00:00Z", offset: 0, daylight: false, name: "UTC"),
    Case(
      rule: "<-03>3", at: "1900-01-01T00:00:00Z", offset: -10800, daylight: false, name: "-03"),
    // Julian days: J60 is March 1 even in a leap year; day 59 counts February 29.
    Case(
      rule: "AAA0BBB,J60/0,J300/0", at: "2028-03-01T00:00:00Z", offset: 3600, daylight: true,
      name: "BBB"),
    Case(
      rule: "AAA0BBB,J60/0,J300/0", at: "2028-02-29T23:59:59Z", offset: 0, daylight: false,
      name: "AAA"),
    Case(
      rule: "AAA0BBB,59/0,300/0", at: "2028-02-29T00:00:00Z", offset: 3600, daylight: true,
      name: "BBB"),
    Case(
      rule: "AAA0BBB,59/0,300/0", at: "2028-02-28T23:59:59Z", offset: 0, daylight: false,
      name: "AAA"),
    // Without dates: the United States' rules.
    Case(rule: "EST5EDT", at: "2026-03-08T07:00:00Z", offset: -14400, daylight: true, name: "EDT"),
    // A daylight-saving offset of its own.
    Case(
      rule: "AAA-1BBB-3,M3.5.0,M10.5.0/3", at: "2026-07-01T00:00:00Z", offset: 10800,
      daylight: true, name: "BBB"),
    // Far in the future: the last Sunday of March 2400 is the 26th, of October 9999 the 31st.
    Case(rule: berlin, at: "2400-03-26T00:59:59Z", offset: 3600, daylight: false, name: "CET"),
    Case(rule: berlin, at: "2400-03-26T01:00:00Z", offset: 7200, daylight: true, name: "CEST"),
    Case(rule: berlin, at: "9999-10-31T00:59:59Z", offset: 7200, daylight: true, name: "CEST"),
    Case(rule: berlin, at: "9999-10-31T01:00:00Z", offset: 3600, daylight: false, name: "CET"),
  ]

  @Test(arguments: cases)
  func theRuleGivesTheOffsetWorkedOutByHand(_ test: Case) throws {
    let rule = try #require(PosixZoneRule(test.rule))
    let type = rule.localTimeType(at: Self.instant(test.at))
    #expect(type.utcOffset == test.offset)
    #expect(type.isDaylightSaving == test.daylight)
    #expect(type.abbreviation == test.name)
    #expect(rule.utcOffset(at: Self.instant(test.at)) == test.offset)
  }

  @Test func theRuleIsReadIntoItsParts() throws {
    let rule = try #require(PosixZoneRule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0/2:30:15"))
    #expect(rule.standardName == "+1030")
    #expect(rule.standardOffset == 37800)
    let daylight = try #require(rule.daylightSaving)
    #expect(daylight.name == "+11")
    #expect(daylight.offset == 39600)
    #expect(daylight.start == .init(day: .monthWeekDay(month: 10, week: 1, weekday: 0), time: 7200))
    #expect(daylight.end == .init(day: .monthWeekDay(month: 4, week: 1, weekday: 0), time: 9015))
    // Version 3 allows -167 to 167 hours for a time.
    let extreme = try #require(PosixZoneRule("XXX+3YYY,J1/-167,J200/167:59:59"))
    #expect(extreme.standardOffset == -10800)
    let changes = try #require(extreme.daylightSaving)
    #expect(changes.start.time == Int32(-167 * 3600))
    #expect(changes.end.time == Int32(167 * 3600 + 59 * 60 + 59))
    #expect(PosixZoneRule("<+05>-5")?.standardOffset == 18000)
    // Offsets keep POSIX's 24 hours; only transition times have version 3's 167.
    #expect(PosixZoneRule("<-24>24")?.standardOffset == -86400)
    #expect(PosixZoneRule("<+2459>-24:59:59")?.standardOffset == 89999)
  }

  @Test(arguments: [
    "CET-1CEST,M3.5.0,M10.5.0/3", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "EST5EDT,0/0,J365/25",
    "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "IST-2IDT,M3.4.4/26,M10.5.0", "<+0530>-5:30",
    "AAA-1BBB-3,J60/1:30:15,300",
  ])
  func aRuleIsWrittenBackAsItWasRead(_ text: String) throws {
    #expect(try #require(PosixZoneRule(text)).description == text)
  }

  @Test(arguments: [
    "", "CET", "CE-1", "1CET", "CET-1CEST,M3.5.0", "CET-1CEST,M3.5.0,", "CET-1CEST,M13.5.0,M10.5.0",
    "CET-1CEST,M0.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,M3.0.0,M10.5.0",
    "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,J0,J365", "CET-1CEST,J366,J1", "CET-1CEST,366,1",
    "CET168", "CET25", "CET-25", "CET-1CEST-25,M3.5.0,M10.5.0", "CET-1CEST,M3.5.0/168,M10.5.0",
    "CET-1CEST,M3.5.0,M10.5.0/3x", "CET-1:60",
    "CET-1:30:60", "<+05>", "<+0", "<ab>1", "<+05:30>-5", "CET-1CEST,M3.5.0,M10.5.0 ", " CET-1",
    "CET-1CEST-", "CET-1,M3.5.0,M10.5.0", "CET--1", "CET-1CEST,M3.5,M10.5.0", "CET-0001",
    "Europe/Berlin",
  ])
  func anInvalidRuleIsRefused(_ text: String) {
    #expect(PosixZoneRule(text) == nil)
  }

  /// Real zones whose current rules are these POSIX rules (the footers of their TZif files):
  /// Foundation's offsets and the rule's agree at random instants of 2030-2040 and around
  /// every transition Foundation finds.
  @Test(arguments: [
    ("Europe/Berlin", berlin), ("America/New_York", newYork), ("Australia/Sydney", sydney),
    ("Australia/Lord_Howe", lordHowe), ("America/Santiago", "<-04>4<-03>,M9.1.6/24,M4.1.6/24"),
    ("Pacific/Auckland", "NZST-12NZDT,M9.5.0,M4.1.0/3"), ("Asia/Kolkata", "IST-5:30"),
  ])
  func theRuleAgreesWithFoundationsRulesForTheSameZone(zone: String, text: String) throws {
    let rule = try #require(PosixZoneRule(text))
    let timeZone = try #require(TimeZone(identifier: zone))
    let start = Self.instant("2030-01-01T00:00:00Z")
    let end = Self.instant("2041-01-01T00:00:00Z")
    var random = SplitMix64(seed: 2030)
    var instants = (0..<3000).map { _ in Int64.random(in: start..<end, using: &random) }
    var probe = Date(timeIntervalSince1970: Double(start))
    while let next = timeZone.nextDaylightSavingTimeTransition(after: probe),
      next.timeIntervalSince1970 < Double(end)
    {
      let transition = Int64(next.timeIntervalSince1970)
      instants += [transition - 1, transition, transition + 1]
      probe = next
    }
    var mismatches: [Int64] = []
    for instant in instants {
      let expected = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
      if Int(rule.utcOffset(at: instant)) != expected { mismatches.append(instant) }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  /// An independent reference for dates far ahead: Foundation's Gregorian calendar (in UTC) finds
  /// the last Sunday of March and October; the rule must change exactly then, every year to 9999.
  @Test func theRuleChangesOnTheDatesTheCalendarGivesForCenturies() throws {
    let rule = try #require(PosixZoneRule(Self.berlin))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    var random = SplitMix64(seed: 9999)
    var years = Array(2037...2100) + [2400, 9999]
    years += (0..<60).map { _ in Int.random(in: 2100...9998, using: &random) }
    for year in years {
      for month in [3, 10] {
        // The last Sunday: the Sunday of the last week of the month.
        let last = calendar.date(
          from: DateComponents(year: year, month: month, weekday: 1, weekdayOrdinal: -1))!
        let change = Int64(last.timeIntervalSince1970) + 3600
        #expect(rule.utcOffset(at: change - 1) == (month == 3 ? 3600 : 7200), "\(year)-\(month)")
        #expect(rule.utcOffset(at: change) == (month == 3 ? 7200 : 3600), "\(year)-\(month)")
      }
    }
  }

  /// Rules whose changes stay inside their year take a shortcut (their own year, and the year
  /// before for its first weeks); for random such rules and instants it agrees with the general
  /// way, which looks at three years.
  @Test func theShortcutForRulesInsideTheirYearAgreesWithTheGeneralWay() {
    var random = SplitMix64(seed: 1996)
    func day() -> PosixZoneRule.Day {
      switch Int.random(in: 0..<3, using: &random) {
      case 0: .julian(Int.random(in: 9...357, using: &random))
      case 1: .dayOfYear(Int.random(in: 8...356, using: &random))
      default:
        .monthWeekDay(
          month: Int.random(in: 2...11, using: &random),
          week: Int.random(in: 1...5, using: &random),
          weekday: Int.random(in: 0...6, using: &random))
      }
    }
    var checked = 0
    for _ in 0..<400 {
      let standard = Int32.random(in: -14...14, using: &random) * 1800
      let schedule = PosixZoneRule.Schedule(
        standardOffset: standard,
        daylightOffset: standard + Int32.random(in: -4...4, using: &random) * 1800,
        start: .init(day: day(), time: Int32.random(in: -167...167, using: &random) * 3600),
        end: .init(day: day(), time: Int32.random(in: -167...167, using: &random) * 3600))
      #expect(schedule.staysInItsYear)
      for _ in 0..<200 {
        let instant = Int64.random(in: -4_000_000_000...8_000_000_000, using: &random)
        let year = LocalDate(daysSince1970: floorDiv(Int(instant) + Int(standard), 86_400))
          .components.year
        let general = schedule.isDaylightSavingTimeByNeighbouringYears(at: instant, year: year)
        #expect(schedule.isDaylightSavingTime(at: instant) == general, "\(schedule) \(instant)")
        checked += 1
      }
    }
    #expect(checked == 80_000)
    // Rules that leave their year never take it.
    #expect(PosixZoneRule("EST5EDT,0/0,J365/25")?.schedule?.staysInItsYear == false)
    #expect(PosixZoneRule("AAA0BBB,M1.1.0,M6.1.0")?.schedule?.staysInItsYear == false)
    #expect(PosixZoneRule("AAA0BBB,M3.1.0,J360")?.schedule?.staysInItsYear == false)
    #expect(PosixZoneRule(Self.berlin)?.schedule?.staysInItsYear == true)
  }

  @Test func instantsAtTheEndsOfTimeGiveAnOffset() throws {
    let rule = try #require(PosixZoneRule(Self.sydney))
    #expect([36000, 39600].contains(rule.utcOffset(at: .max)))
    #expect([36000, 39600].contains(rule.utcOffset(at: .min)))
  }
}
