import Foundation
import RoutineCore
import Testing

/// The pending requests as an app schedules them: one `UNNotificationRequest` each, with
/// components a `UNCalendarNotificationTrigger` matches exactly where routine fires.
struct AppleNotificationsTests {
  let berlin = zone("Europe/Berlin")

  func request(_ id: String, _ trigger: Trigger) -> NotificationRequest {
    NotificationRequest(
      id: id, origin: .reminder, category: .reminder, title: "Pay rent", body: "Monthly.",
      trigger: trigger, metadata: RequestMetadata(eventKind: "Pay rent", reminderID: id))
  }

  /// Where a calendar trigger with these components would fire on the local `day`, as
  /// `Calendar` matches components (every given field equal).
  func matches(_ components: AppleNotificationRequest.Components, _ day: LocalDate) -> Bool {
    let (year, month, dayOfMonth) = day.components
    return (components.year ?? year) == year && (components.month ?? month) == month
      && (components.day ?? dayOfMonth) == dayOfMonth
      && (components.weekday ?? day.weekday) == day.weekday
  }

  /// Every day of the next two years: the app's requests together fire on exactly the days
  /// routine's trigger does, once each (for the stand-ins' horizon: the first 12 months).
  @Test(arguments: [
    CalendarTrigger(weekdays: .none, hour: 9, minute: 0),
    CalendarTrigger(weekdays: WeekdaySet([2, 4, 6]), hour: 18, minute: 30),
    CalendarTrigger(weekdays: .none, dayOfMonth: 31, hour: 9, minute: 0),
    CalendarTrigger(weekdays: .none, dayOfMonth: 30, hour: 7, minute: 15),
    CalendarTrigger(weekdays: .none, dayOfMonth: 29, hour: 7, minute: 15),
    CalendarTrigger(weekdays: .none, dayOfMonth: 12, hour: 12, minute: 0),
    CalendarTrigger(weekdays: WeekdaySet([1]), dayOfMonth: 13, hour: 12, minute: 0),
  ])
  func theAppFiresOnTheDaysRoutineDoes(calendar: CalendarTrigger) {
    let now = stamp("2026-11-24T08:00:00+01:00").secondsSince1970
    let mapped = AppleNotifications.requests(
      from: [request("reminder-1", .calendar(calendar))], now: now, in: berlin)
    let today = WallClock.localDate(at: now, in: berlin)
    for offset in 1...360 {
      let day = today.adding(days: offset)
      let firing = mapped.filter { item in
        matches(item.components, day) && item.components.hour == calendar.hour
          && item.components.minute == calendar.minute
      }
      #expect(
        firing.count == (calendar.matches(day) ? 1 : 0),
        "\(day): \(firing.map(\.identifier)) for \(calendar)")
    }
    #expect(Set(mapped.map(\.identifier)).count == mapped.count)
    #expect(mapped.allSatisfy { $0.request.id == "reminder-1" })
  }

  @Test func theLastDayOfEachShorterMonthIsAOneTimeRequestWithItsDate() throws {
    let now = stamp("2027-01-05T08:00:00+01:00").secondsSince1970
    let mapped = AppleNotifications.requests(
      from: [
        request(
          "reminder-1",
          .calendar(CalendarTrigger(weekdays: .none, dayOfMonth: 31, hour: 9, minute: 0)))
      ], now: now, in: berlin)
    #expect(
      mapped.map(\.identifier) == [
        "reminder-1", "reminder-1#2027-02-28", "reminder-1#2027-04-30", "reminder-1#2027-06-30",
        "reminder-1#2027-09-30", "reminder-1#2027-11-30",
      ])
    let repeating = try #require(mapped.first)
    #expect(
      repeating.repeats && repeating.components.day == 31 && repeating.components.month == nil)
    #expect(mapped.dropFirst().allSatisfy { !$0.repeats && $0.components.year == 2027 })
    // Ordered by when each fires next: 31 January comes before 28 February.
    #expect(mapped.map(\.nextFire) == mapped.map(\.nextFire).sorted())
  }

  @Test func anInstantKeepsItsUTCTimeAndAWallClockTimeHasNoZone() throws {
    let now = stamp("2026-03-28T12:00:00+01:00").secondsSince1970
    let pinned = stamp("2026-03-29T12:34:56+02:00").secondsSince1970
    let mapped = AppleNotifications.requests(
      from: [
        request("alert_1", .date(pinned)),
        request("reminder-2", .local(date(2026, 3, 29), TimeOfDay(hour: 2, minute: 30)!)),
        request("past", .local(date(2026, 3, 27), TimeOfDay(hour: 9, minute: 0)!)),
        request("gone", .date(now - 60)),
      ], now: now, in: berlin)
    #expect(mapped.map(\.identifier) == ["reminder-2", "alert_1"])
    let local = mapped[0]
    #expect(local.timeZone == nil && !local.repeats)
    #expect(
      local.components
        == .init(year: 2026, month: 3, day: 29, hour: 2, minute: 30))
    // 02:30 does not exist that night in Berlin: routine fires at 03:00, the first instant after.
    #expect(local.nextFire == stamp("2026-03-29T03:00:00+02:00").secondsSince1970)
    let instant = mapped[1]
    #expect(instant.timeZone == "UTC")
    #expect(
      instant.components
        == .init(year: 2026, month: 3, day: 29, hour: 10, minute: 34, second: 56))
    #expect(instant.nextFire == pinned)
  }

  @Test func aCalendarTriggerThatFiresOnceIsItsFirstDate() {
    let now = stamp("2026-11-24T08:00:00+01:00").secondsSince1970
    let once = CalendarTrigger(weekdays: WeekdaySet([6]), hour: 7, minute: 0, repeats: false)
    let mapped = AppleNotifications.requests(
      from: [request("routine_WakeUp", .calendar(once))], now: now, in: berlin)
    #expect(mapped.count == 1)
    #expect(mapped.first?.components == .init(year: 2026, month: 11, day: 27, hour: 7, minute: 0))
    #expect(mapped.first?.repeats == false)
  }
}
