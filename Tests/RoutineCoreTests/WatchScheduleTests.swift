import Foundation
import RoutineCore
import Testing

/// When `routine watch` wakes (docs/delivery.md): at the next firing, the next ring of an
/// unanswered alarm, or the nightly plan at 03:00 local, whichever comes first.
struct WatchScheduleTests {
  let berlin = zone("Europe/Berlin")

  @Test func theNightlyPlanIsAt0300Local() {
    #expect(WatchSchedule.planTime == wallTime("03:00"))
  }

  @Test(arguments: [
    ("2026-04-27T02:00+02:00", "2026-04-27T03:00+02:00"),
    // Strictly after: at 03:00 the next one is tomorrow's.
    ("2026-04-27T03:00+02:00", "2026-04-28T03:00+02:00"),
    ("2026-04-27T10:00+02:00", "2026-04-28T03:00+02:00"),
    ("2026-04-27T23:59:59+02:00", "2026-04-28T03:00+02:00"),
  ])
  func theNextPlanIsTheNext0300(now: String, expected: String) {
    #expect(WatchSchedule.nextPlan(after: epoch(now), in: berlin) == epoch(expected))
  }

  @Test func theNightlyPlanFollowsDaylightSavingChanges() {
    // Berlin: 23 hours from Saturday's plan to Sunday's in spring, 25 in autumn.
    let saturday = WatchSchedule.nextPlan(after: epoch("2026-03-27T12:00+01:00"), in: berlin)
    let sunday = WatchSchedule.nextPlan(after: saturday, in: berlin)
    #expect(saturday == epoch("2026-03-28T03:00+01:00"))
    #expect(sunday == epoch("2026-03-29T03:00+02:00"))
    #expect(sunday - saturday == 23 * 3600)
    let autumn = WatchSchedule.nextPlan(after: epoch("2026-10-24T03:00+02:00"), in: berlin)
    #expect(autumn == epoch("2026-10-25T03:00+01:00"))
    #expect(autumn - epoch("2026-10-24T03:00+02:00") == 25 * 3600)
  }

  @Test func inAZoneWhere0300IsSkippedThePlanRunsAtTheEndOfTheGapAndWhereItRepeatsOnce() {
    // Helsinki moves 03:00 -> 04:00 on 2026-03-29 and 04:00 -> 03:00 on 2026-10-25.
    let helsinki = zone("Europe/Helsinki")
    #expect(
      WatchSchedule.nextPlan(after: epoch("2026-03-29T02:30+02:00"), in: helsinki)
        == epoch("2026-03-29T04:00+03:00"))
    let first = WatchSchedule.nextPlan(after: epoch("2026-10-25T02:30+03:00"), in: helsinki)
    #expect(first == epoch("2026-10-25T03:00+03:00"))
    // Not again at the second 03:00 an hour later, but the next night.
    #expect(
      WatchSchedule.nextPlan(after: first, in: helsinki) == epoch("2026-10-26T03:00+02:00"))
  }

  // MARK: The next wake

  func wake(
    _ requests: [NotificationRequest], alarms: [(occurrence: Int64, rings: Int)] = [],
    now: String, in timeZone: Zone? = nil
  ) -> Int64 {
    let timeZone = timeZone ?? berlin
    let instant = epoch(now)
    return WatchSchedule.nextWake(
      requests: requests, unansweredAlarms: alarms, now: instant,
      nextPlan: WatchSchedule.nextPlan(after: instant, in: timeZone), in: timeZone)
  }

  @Test func withNothingToDeliverItWakesForThePlan() {
    #expect(wake([], now: "2026-04-27T10:00+02:00") == epoch("2026-04-28T03:00+02:00"))
  }

  @Test func itWakesAtTheEarliestFiring() {
    let requests = [
      dailyRequest("coffee", kind: "Coffee", at: "07:16"),
      dailyRequest("wake", kind: "Wake Up", at: "06:41"),
      dailyRequest("lunch", kind: "Lunch", at: "12:30"),
    ]
    #expect(wake(requests, now: "2026-04-27T05:00+02:00") == epoch("2026-04-27T06:41+02:00"))
    #expect(wake(requests, now: "2026-04-27T06:41+02:00") == epoch("2026-04-27T07:16+02:00"))
    // After the last one of the day, the plan at 03:00 comes before tomorrow's 06:41.
    #expect(wake(requests, now: "2026-04-27T13:00+02:00") == epoch("2026-04-28T03:00+02:00"))
  }

  @Test func aOneTimeRequestInThePastDoesNotWakeIt() {
    let past = NotificationRequest(
      id: "alert_Coffee_1", origin: .snooze, category: .earlyWarning, title: "", body: "",
      trigger: .date(epoch("2026-04-27T09:00+02:00")), metadata: nil)
    #expect(wake([past], now: "2026-04-27T10:00+02:00") == epoch("2026-04-28T03:00+02:00"))
    #expect(wake([past], now: "2026-04-27T08:00+02:00") == epoch("2026-04-27T09:00+02:00"))
  }

  @Test func anUnansweredAlarmWakesItForItsNextRingUntilItHasRungEnough() {
    let pills = dailyRequest("reminder-11", kind: "Take the pills", at: "21:00")
    let firing = epoch("2026-05-06T21:00+02:00")
    // Rang once (the firing), now 21:02: the next ring at 21:05, before tomorrow's 21:00.
    #expect(
      wake([pills], alarms: [(firing, 1)], now: "2026-05-06T21:02+02:00")
        == epoch("2026-05-06T21:05+02:00"))
    #expect(
      wake([pills], alarms: [(firing, 6)], now: "2026-05-06T21:26+02:00")
        == epoch("2026-05-06T21:30+02:00"))
    // Rang seven times: nothing more until the plan.
    #expect(
      wake([pills], alarms: [(firing, 7)], now: "2026-05-06T21:31+02:00")
        == epoch("2026-05-07T03:00+02:00"))
    // A ring already due is not a reason to wait (delivery has just run).
    #expect(
      wake([pills], alarms: [(firing, 1)], now: "2026-05-06T21:05+02:00")
        == epoch("2026-05-07T03:00+02:00"))
  }

  @Test func theEarliestOfSeveralAlarmsAndFiringsWins() {
    let requests = [dailyRequest("walk", kind: "Walk", at: "21:07")]
    let alarms: [(occurrence: Int64, rings: Int)] = [
      (epoch("2026-05-06T21:00+02:00"), 2),  // next ring 21:10
      (epoch("2026-05-06T20:58+02:00"), 1),  // next ring 21:03
    ]
    #expect(
      wake(requests, alarms: alarms, now: "2026-05-06T21:01+02:00")
        == epoch("2026-05-06T21:03+02:00"))
    #expect(
      wake(requests, alarms: alarms, now: "2026-05-06T21:03+02:00")
        == epoch("2026-05-06T21:07+02:00"))
    #expect(
      wake(requests, alarms: alarms, now: "2026-05-06T21:07+02:00")
        == epoch("2026-05-06T21:10+02:00"))
  }

  @Test func acrossTheSpringForwardNightThePlanAndTheMorningsFiringsKeepTheirWallClock() {
    let requests = [dailyRequest("wake", kind: "Wake Up", at: "07:00")]
    // Saturday 23:00 (+01:00): the plan is at 03:00 (+02:00), three hours later, not four.
    let now = "2026-03-28T23:00+01:00"
    #expect(wake(requests, now: now) == epoch("2026-03-29T03:00+02:00"))
    #expect(wake(requests, now: now) - epoch(now) == 3 * 3600)
    // After the plan, 07:00 (+02:00).
    #expect(wake(requests, now: "2026-03-29T03:00+02:00") == epoch("2026-03-29T07:00+02:00"))
    // In autumn, from Saturday 23:00 (+02:00) the plan is five hours away.
    let autumn = "2026-10-24T23:00+02:00"
    #expect(wake(requests, now: autumn) - epoch(autumn) == 5 * 3600)
  }

  @Test func aFiringInTheGapWakesItAtTheEndOfTheGap() {
    // New York skips 02:00-02:59 on 2026-03-08; the plan at 03:00 is the same instant.
    let newYork = zone("America/New_York")
    let requests = [dailyRequest("night", kind: "Check", at: "02:30")]
    #expect(
      wake(requests, now: "2026-03-08T01:30-05:00", in: newYork)
        == epoch("2026-03-08T03:00-04:00"))
    // Lord Howe skips 02:00-02:29 on 2026-10-04: 02:15 fires at 02:30, before the plan.
    let lordHowe = zone("Australia/Lord_Howe")
    let early = [dailyRequest("early", kind: "Check", at: "02:15")]
    #expect(
      wake(early, now: "2026-10-04T01:00+10:30", in: lordHowe) == epoch("2026-10-04T02:30+11:00"))
  }
}
