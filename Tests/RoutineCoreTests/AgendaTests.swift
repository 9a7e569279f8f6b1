import Foundation
import Testing

@testable import RoutineCore

/// The agenda merges each request's firings as they are asked for (issue 17, item 3.7), and its
/// default range is 7 local days (item 4.10).
struct AgendaTests {
  /// A seeded mix of every trigger: daily, on weekdays, monthly (the 29th to the 31st too),
  /// one-time calendar, local and instant ones, several at the same minute.
  static func requests(seed: UInt64, count: Int, around start: Int64) -> [NotificationRequest] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { index in
      let hour = random.integer(in: 0...23)
      // Few minutes, so that many requests fire at once and the order falls to their ids.
      let minute = [0, 30, 59][random.integer(in: 0...2)]
      let trigger: Trigger
      switch random.integer(in: 0...5) {
      case 0: trigger = .calendar(CalendarTrigger(hour: hour, minute: minute))
      case 1:
        trigger = .calendar(
          CalendarTrigger(
            weekdays: WeekdaySet([random.integer(in: 1...7), random.integer(in: 1...7)]),
            hour: hour, minute: minute))
      case 2:
        trigger = .calendar(
          CalendarTrigger(
            weekdays: .none, dayOfMonth: random.integer(in: 1...31), hour: hour, minute: minute))
      case 3:
        trigger = .calendar(CalendarTrigger(hour: hour, minute: minute, repeats: false))
      case 4:
        trigger = .local(
          LocalDate(daysSince1970: Int(start / 86_400) + random.integer(in: -2...40)),
          TimeOfDay(secondsSinceMidnight: hour * 3600 + minute * 60))
      default:
        trigger = .date(start + Int64(random.integer(in: -86_400...(40 * 86_400))))
      }
      return NotificationRequest(
        id: "r\(random.integer(in: 0...(count * 2)))-\(index)", origin: .reminder,
        category: .reminder, title: "T\(index)", body: "", trigger: trigger, metadata: nil)
    }
  }

  @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo"])
  func theStreamIsEveryRequestsFiringsSortedByTimeThenId(_ name: String) {
    let zone = zone(name)
    // Around the spring and autumn changes of both hemispheres.
    for (seed, start) in [(1, "2026-03-20T05:00:00Z"), (2, "2026-09-28T17:30:00Z")] {
      let from = stamp(start).secondsSince1970
      let to = from + 35 * 86_400 + 3_600
      let requests = Self.requests(seed: UInt64(seed), count: 60, around: from)
      let days = ZoneDays(zone, from: from, to: to)
      // What the agenda was before it streamed: every firing, then one sort.
      let expected = requests.flatMap { request in
        request.trigger.firings(from: from, to: to, days: days).map {
          Agenda.Item(at: $0.at, request: request, slot: $0.slot)
        }
      }.sorted { ($0.at, $0.request.id) < ($1.at, $1.request.id) }
      #expect(!expected.isEmpty)
      #expect(Array(Agenda.stream(for: requests, from: from, to: to, in: zone)) == expected)
    }
  }

  @Test func anEmptyOrReversedRangeHasNoItems() {
    let from = stamp("2026-03-20T05:00:00Z").secondsSince1970
    let requests = Self.requests(seed: 3, count: 5, around: from)
    #expect(Agenda.items(for: requests, from: from, to: from, in: zone("UTC")).isEmpty)
    #expect(Agenda.items(for: [], from: from, to: from + 86_400, in: zone("UTC")).isEmpty)
  }

  /// 7 local days at the same wall-clock time: 167 hours across the spring change, 169 across
  /// the autumn one, 168 elsewhere; a time the change skips comes at the end of the gap.
  @Test(arguments: [
    ("Europe/Berlin", "2026-03-25T12:00:00+01:00", "2026-04-01T12:00:00+02:00"),
    ("Europe/Berlin", "2026-10-21T12:00:00+02:00", "2026-10-28T12:00:00+01:00"),
    ("Europe/Berlin", "2026-05-04T08:00:00+02:00", "2026-05-11T08:00:00+02:00"),
    ("Europe/Berlin", "2026-03-22T02:30:00+01:00", "2026-03-29T03:00:00+02:00"),
    ("America/New_York", "2026-03-05T09:15:00-05:00", "2026-03-12T09:15:00-04:00"),
    ("Australia/Lord_Howe", "2026-03-31T20:00:00+11:00", "2026-04-07T20:00:00+10:30"),
    ("Asia/Tokyo", "2026-03-25T12:00:00+09:00", "2026-04-01T12:00:00+09:00"),
  ])
  func sevenDaysAreSevenLocalDays(_ name: String, _ start: String, _ end: String) {
    #expect(
      Agenda.end(after: stamp(start).secondsSince1970, days: 7, in: zone(name))
        == stamp(end).secondsSince1970)
  }

  @Test func theLongestRangeIsAYearAndADay() {
    let berlin = zone("Europe/Berlin")
    let start = stamp("2026-04-27T08:00:00+02:00").secondsSince1970
    #expect(
      Agenda.end(after: start, days: Agenda.maximumDays, in: berlin)
        == stamp("2027-04-28T08:00:00+02:00").secondsSince1970)
  }
}
