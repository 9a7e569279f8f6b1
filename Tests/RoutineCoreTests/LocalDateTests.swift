import Testing

@testable import RoutineCore

struct LocalDateTests {
  @Test func knownDatesHaveTheirWeekdays() {
    #expect(date(1970, 1, 1).daysSince1970 == 0)
    #expect(date(1970, 1, 1).weekday == 5)  // Thursday
    #expect(date(2026, 11, 21).weekday == 7)  // Saturday
    #expect(date(2026, 11, 22).weekday == 1)  // Sunday
    #expect(date(2000, 2, 29).weekday == 3)  // Tuesday
    #expect(date(1969, 12, 31).daysSince1970 == -1)
    #expect(date(2026, 11, 21).isWeekend)
    #expect(!date(2026, 11, 23).isWeekend)
  }

  @Test(arguments: [
    (DayKind.all, "Mon Tue Wed Thu Fri Sat Sun"), (.weekdays, "Mon Tue Wed Thu Fri"),
    (.weekends, "Sat Sun"), (.sundayToThursday, "Mon Tue Wed Thu Sun"),
    (.fridayAndSaturday, "Fri Sat"),
  ])
  func dayKindsCoverTheirDaysOfTheWeek(dayKind: DayKind, days: String) {
    // Monday 2026-11-23 to Sunday 2026-11-29.
    let week = (0..<7).map { date(2026, 11, 23).adding(days: $0) }
    let covered = week.filter { dayKind.contains($0) }
    #expect(covered.map(\.weekdayName).joined(separator: " ") == days)
    #expect(dayKind.weekdays == covered.map(\.weekday).sorted())
    #expect(!dayKind.contains(weekday: 0) && !dayKind.contains(weekday: 8))
  }

  @Test func eachPartitionOfTheWeekCoversEveryDayOnce() {
    for partition in DayKind.partitions {
      #expect(partition.flatMap(\.weekdays).sorted() == Array(1...7))
    }
  }

  @Test func componentsRoundTripOverFourThousandYears() {
    // Every day from 0001-01-01 to 3999-12-31 is checked against a running calendar.
    var year = 1
    var month = 1
    var day = 1
    var number = LocalDate(year: 1, month: 1, day: 1)!.daysSince1970
    while year < 4000 {
      let date = LocalDate(daysSince1970: number)
      let (y, m, d) = date.components
      #expect(y == year && m == month && d == day, "\(number)")
      if y != year || m != month || d != day { return }
      day += 1
      if day > LocalDate.daysIn(month: month, year: year) {
        day = 1
        month += 1
        if month > 12 {
          month = 1
          year += 1
        }
      }
      number += 1
    }
  }

  @Test(arguments: [
    (2024, 2, 30), (2023, 2, 29), (2026, 4, 31), (2026, 13, 1), (2026, 0, 10), (2026, 1, 0),
  ])
  func invalidDatesAreRejected(year: Int, month: Int, day: Int) {
    #expect(LocalDate(year: year, month: month, day: day) == nil)
  }

  @Test func leapYearsFollowTheGregorianRule() {
    #expect(LocalDate.daysIn(month: 2, year: 2000) == 29)
    #expect(LocalDate.daysIn(month: 2, year: 1900) == 28)
    #expect(LocalDate.daysIn(month: 2, year: 2024) == 29)
    #expect(LocalDate.daysIn(month: 2, year: 2026) == 28)
  }

  @Test func descriptionsAreISODates() {
    #expect(date(2026, 3, 9).description == "2026-03-09")
    #expect(date(2026, 3, 9).weekdayName == "Mon")
  }
}
