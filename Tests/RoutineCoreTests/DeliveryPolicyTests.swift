import Foundation
import RoutineCore
import Testing

/// The rules of `routine deliver` (docs/delivery.md): what is due, on time, late or missed, and
/// when an unanswered alarm rings again.
struct DeliveryPolicyTests {
  let berlin = zone("Europe/Berlin")
  let policy = DeliveryPolicy(graceMinutes: PlannerSettings().graceMinutes)

  /// A firing of a daily request at `text`.
  func due(at text: String) -> DueOccurrence {
    let at = epoch(text)
    let request = dailyRequest("routine_Coffee-weekday-2", kind: "Coffee", at: "07:16")
    return DueOccurrence(
      request: request, occurrence: Occurrence(requestID: request.id, at: at), attempt: 0,
      dueAt: at)
  }

  @Test func theDefaultGracePeriodIsFifteenMinutes() {
    #expect(PlannerSettings().graceMinutes == 15)
    #expect(policy.graceSeconds == 900)
  }

  // MARK: Where a run starts looking

  @Test(
    arguments: [
      // First run ever: the grace period back.
      (nil, "2026-04-27T07:30:00+02:00"),
      // A minute ago: still the grace period back, for firings that moved into the past.
      ("2026-04-27T07:44:00+02:00", "2026-04-27T07:30:00+02:00"),
      // After downtime: from where the last run stopped.
      ("2026-04-27T04:45:00+02:00", "2026-04-27T04:45:00+02:00"),
      // Never more than a week.
      ("2026-04-17T07:45:00+02:00", "2026-04-20T07:45:00+02:00"),
      // A last run "in the future" (the clock was set back): the grace period back.
      ("2026-04-27T09:00:00+02:00", "2026-04-27T07:30:00+02:00"),
    ] as [(String?, String)])
  func aRunLooksBackToTheLastRunAtLeastTheGracePeriodAndAtMostAWeek(
    checkedUntil: String?, start: String
  ) {
    let now = epoch("2026-04-27T07:45:00+02:00")
    #expect(policy.start(checkedUntil: checkedUntil.map(epoch), now: now) == epoch(start))
  }

  // MARK: What is due

  @Test func theFiringsSinceTheLastRunAreDueInOrder() {
    let requests = [
      dailyRequest("routine_WakeUp-weekday-2", kind: "Wake Up", at: "06:41", weekday: 2),
      dailyRequest("routine_Coffee-weekday-2", kind: "Coffee", at: "07:16", weekday: 2),
      dailyRequest("routine_LeavingHome-weekday-2", kind: "Leaving Home", at: "07:33", weekday: 2),
      dailyRequest("routine_Lunch-weekday-2", kind: "Lunch", at: "12:30", weekday: 2),
    ]
    let now = epoch("2026-04-27T07:45:00+02:00")
    let from = policy.start(checkedUntil: epoch("2026-04-27T06:41:05+02:00"), now: now)
    let found = policy.due(requests, after: from, through: now, in: berlin)
    #expect(
      found.map(\.occurrence) == [
        Occurrence(requestID: "routine_Coffee-weekday-2", at: epoch("2026-04-27T07:16+02:00")),
        Occurrence(requestID: "routine_LeavingHome-weekday-2", at: epoch("2026-04-27T07:33+02:00")),
      ])
    #expect(found.allSatisfy { $0.attempt == 0 && $0.dueAt == $0.occurrence.at })
    // docs/delivery.md: 07:16 was 29 minutes late (missed), 07:33 twelve (delivered, late).
    #expect(
      found.map { policy.outcome(for: $0, now: now, cancelledBecause: nil, suppressedBecause: nil) }
        == [.missed, .deliver(late: true)])
  }

  @Test func aFiringAtTheStartIsNotDueAgainAndOneAtNowIs() {
    let request = dailyRequest("r", kind: "Coffee", at: "07:00")
    let firing = epoch("2026-04-27T07:00+02:00")
    #expect(policy.due([request], after: firing, through: firing + 600, in: berlin).isEmpty)
    #expect(
      policy.due([request], after: firing - 600, through: firing, in: berlin).map(\.dueAt) == [
        firing
      ])
    #expect(policy.due([request], after: firing, through: firing, in: berlin).isEmpty)
  }

  @Test func simultaneousFiringsAreOrderedByIdentifier() {
    let requests = ["c", "a", "b"].map { dailyRequest($0, kind: "Coffee", at: "07:00") }
    let firing = epoch("2026-04-27T07:00+02:00")
    #expect(
      policy.due(requests, after: firing - 60, through: firing, in: berlin).map(
        \.occurrence.requestID) == ["a", "b", "c"])
  }

  @Test func afterAWeekOfDowntimeADailyReminderIsDueSevenTimesAtMost() {
    let request = dailyRequest("r", kind: "Coffee", at: "07:00")
    let now = epoch("2026-04-27T07:30+02:00")
    let from = policy.start(checkedUntil: epoch("2026-04-10T07:30+02:00"), now: now)
    let found = policy.due([request], after: from, through: now, in: berlin)
    #expect(
      found.map(\.dueAt) == (0..<7).map { epoch("2026-04-21T07:00+02:00") + Int64($0) * 86_400 })
  }

  @Test func aDailyTimeInTheSpringForwardGapIsDueOnceAtTheEndOfTheGapAndOnceInTheRepeat() {
    let request = dailyRequest("r", kind: "Coffee", at: "02:30")
    let spring = policy.due(
      [request], after: epoch("2026-03-28T12:00+01:00"), through: epoch("2026-03-29T12:00+02:00"),
      in: berlin)
    #expect(spring.map(\.dueAt) == [epoch("2026-03-29T03:00+02:00")])
    let fall = policy.due(
      [request], after: epoch("2026-10-24T12:00+02:00"), through: epoch("2026-10-25T12:00+01:00"),
      in: berlin)
    #expect(fall.map(\.dueAt) == [epoch("2026-10-25T02:30+02:00")])
  }

  @Test func aOneTimeReminderIsDueOnceAndASnoozeAtItsInstant() {
    let once = NotificationRequest(
      id: "reminder-5", origin: .reminder, category: .reminder, title: "Call the dentist",
      body: "", trigger: .local(date(2026, 5, 7), wallTime("09:00")),
      metadata: RequestMetadata(eventKind: "Call the dentist"))
    let snooze = NotificationRequest(
      id: "alert_Coffee_1778137500", origin: .snooze, category: .earlyWarning, title: "",
      body: "", trigger: .date(1_778_137_500), metadata: nil)
    let found = policy.due(
      [once, snooze], after: epoch("2026-05-07T08:00+02:00"),
      through: epoch("2026-05-08T08:00+02:00"), in: berlin)
    #expect(
      found.map(\.occurrence) == [
        Occurrence(requestID: "reminder-5", at: epoch("2026-05-07T09:00+02:00")),
        Occurrence(requestID: "alert_Coffee_1778137500", at: 1_778_137_500),
      ])
    #expect(epoch("2026-05-07T09:05+02:00") == 1_778_137_500)
  }

  // MARK: On time, late, missed

  @Test(
    arguments: [
      (0, .deliver(late: false)),
      (5, .deliver(late: false)),
      (60, .deliver(late: false)),
      (61, .deliver(late: true)),
      (12 * 60, .deliver(late: true)),
      (15 * 60, .deliver(late: true)),
      (15 * 60 + 1, .missed),
      (29 * 60, .missed),
    ] as [(Int, DeliveryOutcome)])
  func onTimeWithinAMinuteLateWithinTheGraceAndMissedAfterIt(
    secondsLate: Int, expected: DeliveryOutcome
  ) {
    let item = due(at: "2026-04-27T07:16+02:00")
    let now = item.dueAt + Int64(secondsLate)
    #expect(
      policy.outcome(for: item, now: now, cancelledBecause: nil, suppressedBecause: nil)
        == expected)
  }

  @Test func aLongerGracePeriodDeliversOlderFirings() {
    let item = due(at: "2026-04-27T07:16+02:00")
    let patient = DeliveryPolicy(graceMinutes: 30)
    #expect(
      patient.outcome(
        for: item, now: item.dueAt + 29 * 60, cancelledBecause: nil, suppressedBecause: nil)
        == .deliver(late: true))
  }

  @Test func aCancelledOrSuppressedFiringIsNeitherLateNorMissed() {
    let item = due(at: "2026-04-27T07:16+02:00")
    for late in [Int64(0), 3600] {
      #expect(
        policy.outcome(
          for: item, now: item.dueAt + late, cancelledBecause: "Coffee logged at 07:00",
          suppressedBecause: "Coffee logged at 07:05")
          == .cancelled(reason: "Coffee logged at 07:00"))
      #expect(
        policy.outcome(
          for: item, now: item.dueAt + late, cancelledBecause: nil,
          suppressedBecause: "Coffee logged at 07:05")
          == .suppressed(reason: "Coffee logged at 07:05"))
    }
  }

  /// The fail-safe of docs/reminders.md (a log that cannot be read) lives in the CLI's
  /// delivery; what it relies on here: without evidence, a firing is delivered.
  @Test func withoutEvidenceAFiringIsDelivered() {
    let request = dailyRequest("r", kind: "Workout", at: "18:00", lookBackHours: 12)
    let firing = epoch("2026-05-04T18:00+02:00")
    let item = policy.due([request], after: firing - 60, through: firing, in: berlin)[0]
    let evidence = ForwardCheck.evidence(for: request, at: firing, events: [], in: berlin)
    #expect(evidence == nil)
    #expect(
      policy.outcome(
        for: item, now: firing + 5, cancelledBecause: nil,
        suppressedBecause: evidence.map {
          ForwardCheck.reason(kind: "Workout", at: $0, clock: .twentyFourHour)
        })
        == .deliver(late: false))
  }

  // MARK: Alarms

  @Test func anUnansweredAlarmRingsAgainEveryFiveMinutesSixMoreTimes() {
    #expect(Reminder.alarmInterval == 5)
    #expect(Reminder.alarmRepeats == 6)
    let firing = epoch("2026-05-06T21:00+02:00")
    // Delivered once, twice, ...: the next ring.
    let rings = (1...6).map { DeliveryPolicy.realert(after: firing, attempts: $0) }
    #expect(
      rings
        == [
          "2026-05-06T21:05+02:00", "2026-05-06T21:10+02:00", "2026-05-06T21:15+02:00",
          "2026-05-06T21:20+02:00", "2026-05-06T21:25+02:00", "2026-05-06T21:30+02:00",
        ].map(epoch))
    // Delivered seven times (the firing and six more): it has rung enough.
    #expect(DeliveryPolicy.realert(after: firing, attempts: 7) == nil)
    #expect(DeliveryPolicy.realert(after: firing, attempts: 0) == nil)
  }
}
