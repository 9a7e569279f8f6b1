import Foundation
import Testing

@testable import RoutineCore

/// Issue 28: what became of each firing, never reminding what is done, and the rules delivery
/// applies (docs/reminders.md#reminders-that-listen).
struct ListeningRulesTests {
  let berlin = zone("Europe/Berlin")
  let firing = epoch("2026-05-04T07:00+02:00")
  var window: ClosedRange<Int64> { (firing - 3 * 3600)...(firing + 5 * 3600) }

  func classify(
    _ state: FiringRecordState = .delivered, answers: [(String, Int)] = [], acts: [Int] = [],
    tied: Bool = true, nowAfter minutes: Int = 600
  ) -> FiringOutcome {
    FiringOutcome.classify(
      FiringOutcome.Facts(
        firing: firing, state: state,
        answers: answers.map { PriorAnswer(action: $0.0, answeredAt: firing + Int64($0.1 * 60)) },
        isTiedToKind: tied, acts: acts.map { firing + Int64($0 * 60) }, window: window,
        now: firing + Int64(minutes * 60)))
  }

  // MARK: What became of a firing

  @Test func eachOutcomeIsDecidedFromTheRecordTheAnswersAndTheLog() {
    #expect(classify(answers: [("onit", 2)], acts: [2]) == .acted(minutes: 2))
    // Logged after it, without an answer: acted on (the issue's "mostly ignored" that was not).
    #expect(classify(acts: [14]) == .acted(minutes: 14))
    #expect(
      classify(answers: [("snooze", 1), ("onit", 6)], acts: [6]) == .snoozedThenActed(minutes: 6))
    #expect(classify(answers: [("snooze", 1)], acts: [30]) == .snoozedThenActed(minutes: 30))
    #expect(classify(answers: [("dismiss", 1)]) == .dismissed)
    // Dismissed, then done anyway: the act counts.
    #expect(classify(answers: [("dismiss", 1)], acts: [20]) == .acted(minutes: 20))
    #expect(classify() == .ignored)
    #expect(classify(nowAfter: 60) == .open)
    #expect(classify(acts: [-25]) == .preEmpted(doneAt: firing - 25 * 60))
    #expect(classify(.skipped(.backingOff)) == .skipped(.backingOff))
    #expect(classify(.missed) == .notDelivered)
    #expect(classify(.failed) == .notDelivered)
    // A reminder with your own text: only an answer does it.
    #expect(classify(acts: [5], tied: false) == .ignored)
    #expect(classify(answers: [("done", 3)], tied: false) == .acted(minutes: 3))
    // An event outside the window is not its act.
    #expect(classify(acts: [6 * 60]) == .ignored)
    // An answer undone no longer counts.
    let undone = FiringOutcome.classify(
      FiringOutcome.Facts(
        firing: firing, state: .delivered,
        answers: [PriorAnswer(action: "onit", answeredAt: firing + 60, isUndone: true)],
        isTiedToKind: true, window: window, now: firing + 36_000))
    #expect(undone == .ignored)
  }

  // MARK: After logging

  func snooze(_ id: String, kind: String, firing original: String, minutes: Int)
    -> NotificationRequest
  {
    let fire = epoch(original) + Int64(minutes * 60)
    return NotificationRequest(
      id: id, origin: .snooze, category: .earlyWarning, title: "Reminder: Time for \(kind)",
      body: "", trigger: .date(fire),
      metadata: RequestMetadata(eventKind: kind, lookBack: .minutes(minutes)))
  }

  @Test func loggingTheActClosesItsSnoozedCopiesAndNothingElse() {
    let coffee = snooze(
      "alert_Coffee_1", kind: "Coffee", firing: "2026-05-04T07:00+02:00", minutes: 10)
    let tea = snooze("alert_Tea_1", kind: "Tea", firing: "2026-05-04T07:00+02:00", minutes: 10)
    let logged = event("Coffee", at: "2026-05-04T07:04+02:00")
    let effects = AfterLogging.decide(
      AfterLogging.Facts(events: [logged], snoozes: [coffee, tea]),
      now: epoch("2026-05-04T07:05+02:00"), in: berlin, clock: .twentyFourHour)
    #expect(effects == [.unschedule(coffee, because: logged)])
    // A coffee from before the firing it copies does not close it (it was not this act).
    let before = AfterLogging.decide(
      AfterLogging.Facts(
        events: [event("Coffee", at: "2026-05-04T06:40+02:00")], snoozes: [coffee]),
      now: epoch("2026-05-04T07:05+02:00"), in: berlin, clock: .twentyFourHour)
    #expect(before.isEmpty)
    // History imported in bulk closes and cancels nothing.
    let old = AfterLogging.decide(
      AfterLogging.Facts(
        events: [event("Coffee", at: "2026-04-01T07:04+02:00")], snoozes: [coffee]),
      now: epoch("2026-05-04T07:05+02:00"), in: berlin, clock: .twentyFourHour)
    #expect(old.isEmpty)
  }

  @Test func anOutlierAlertsOnceEvenLoggedTwiceInOneRun() {
    let routine = LearnedRoutine(
      kind: EventKind("Wake Up")!, time: wallTime("06:45"), weekdays: .everyDay,
      toleranceSeconds: 1800, thresholdSeconds: 3600)
    let early = event("Wake Up", at: "2026-05-04T04:30+02:00")
    let effects = AfterLogging.decide(
      AfterLogging.Facts(
        events: [early, early], routines: ["wake up": [routine]], times: ["wake up": []]),
      now: epoch("2026-05-04T04:31+02:00"), in: berlin, clock: .twentyFourHour)
    #expect(effects.count == 1)
    guard case .alert(let alert) = effects.first else {
      Issue.record("no alert")
      return
    }
    let again = AfterLogging.decide(
      AfterLogging.Facts(
        events: [early], routines: ["wake up": [routine]], times: ["wake up": []],
        knownAlerts: [alert.id]),
      now: epoch("2026-05-04T04:31+02:00"), in: berlin, clock: .twentyFourHour)
    #expect(again.isEmpty)
  }

  // MARK: Delivery's rules

  func learned(_ id: String = "routine_Meditation", at time: String = "20:55")
    -> NotificationRequest
  {
    let parsed = wallTime(time)
    return NotificationRequest(
      id: id, origin: .learned, category: .routineReminder, title: "Time for Meditation",
      body: "", trigger: .calendar(CalendarTrigger(hour: parsed.hour, minute: parsed.minute)),
      metadata: RequestMetadata(
        eventKind: "Meditation", suggestedTime: wallTime("21:00"),
        lookBack: .since(wallTime("09:00")), actUntil: wallTime("04:00")))
  }

  func decide(_ request: NotificationRequest, at text: String, facts: FiringFacts)
    -> (Skip?, String?)
  {
    let due = DueOccurrence(
      request: request, firing: Firing(at: epoch(text), slot: nil))
    return DeliveryPolicy.skip(due, facts: facts, in: berlin, clock: .twentyFourHour)
  }

  @Test func aLearnedReminderGivesWayToOneYouDefinedForTheSameAct() {
    let (skip, _) = decide(
      learned(), at: "2026-05-04T20:55+02:00",
      facts: FiringFacts(
        events: .found([]),
        superseding: DefinedFiring(reminderID: "reminder-3", at: epoch("2026-05-04T21:00+02:00"))))
    #expect(
      skip == .rule(.superseded, reason: "reminder-3, which you defined, reminds of it at 21:00"))
    // Done already: that is the reason, not the other reminder.
    let (done, _) = decide(
      learned(), at: "2026-05-04T20:55+02:00",
      facts: FiringFacts(
        events: .found([stamp("2026-05-04T10:00+02:00")]),
        superseding: DefinedFiring(reminderID: "reminder-3", at: epoch("2026-05-04T21:00+02:00"))))
    #expect(done == .suppressed(reason: "Meditation logged at 10:00"))
  }

  func record(_ state: AdaptationRecord.State, spacing: Int = 1, anchor: String? = nil)
    -> AdaptationRecord
  {
    var record = AdaptationRecord(key: "routine_Meditation")
    record.state = state
    record.spacing = spacing
    record.anchorDay = anchor.map { stamp($0).localDate.daysSince1970 }
    record.computedDay = date(2026, 5, 4).daysSince1970
    if state == .paused {
      record.explanations = [
        "paused: done on your own on 13 of the last 14 days; it comes back if you miss 2 days in a row"
      ]
    }
    return record
  }

  @Test func backingOffItStaysQuietBetweenItsDaysAndAPausedOneChecksInOnlyWhenMissed() {
    let backing = record(.backingOff, spacing: 2, anchor: "2026-05-03T20:55+02:00")
    let (quiet, _) = decide(
      learned(), at: "2026-05-04T20:55+02:00",
      facts: FiringFacts(events: .found([]), adaptation: (backing, .everyDay)))
    #expect(quiet == .rule(.backingOff, reason: "backing off: every other day"))
    let (fires, _) = decide(
      learned(), at: "2026-05-05T20:55+02:00",
      facts: FiringFacts(events: .found([]), adaptation: (backing, .everyDay)))
    #expect(fires == nil)
    // A record the plan did not renew for days is not acted on: full dose.
    var stale = backing
    stale.computedDay = date(2026, 4, 30).daysSince1970
    #expect(
      decide(
        learned(), at: "2026-05-04T20:55+02:00",
        facts: FiringFacts(
          events: .found([]), adaptation: (stale, .everyDay),
          checkedAt: epoch("2026-05-04T20:55+02:00"))
      ).0 == nil)
    // A forecast takes the plans to come as made.
    #expect(
      decide(
        learned(), at: "2026-05-04T20:55+02:00",
        facts: FiringFacts(events: .found([]), adaptation: (stale, .everyDay))
      ).0 != nil)
    let paused = record(.paused)
    let (done, _) = decide(
      learned(), at: "2026-05-04T21:30+02:00",
      facts: FiringFacts(
        events: .found([stamp("2026-05-04T21:02+02:00")]), adaptation: (paused, .everyDay)))
    #expect(
      done
        == .rule(
          .paused,
          reason:
            "paused: done on your own on 13 of the last 14 days; it comes back if you miss 2 days in a row; Meditation logged at 21:02"
        ))
    let (checkIn, _) = decide(
      learned(), at: "2026-05-04T21:30+02:00",
      facts: FiringFacts(events: .found([]), adaptation: (paused, .everyDay)))
    #expect(checkIn == nil)
  }

  @Test func pastTheDailyCapLearnedOnesGiveWayFirstAndAlarmsAndTasksNever() {
    let cap = DailyCap(limit: 4, delivered: 2, definedAhead: 2)
    #expect(
      decide(
        learned(), at: "2026-05-04T20:55+02:00", facts: FiringFacts(events: .found([]), cap: cap)
      ).0
        == .rule(
          .dailyCap,
          reason: "the day's cap of 4 reminders was reached (2 you defined still to come)"))
    let defined = dailyRequest("reminder-1", kind: "Stretch", at: "21:00")
    #expect(decide(defined, at: "2026-05-04T21:00+02:00", facts: FiringFacts(cap: cap)).0 == nil)
    let full = DailyCap(limit: 4, delivered: 4, definedAhead: 0)
    #expect(decide(defined, at: "2026-05-04T21:00+02:00", facts: FiringFacts(cap: full)).0 != nil)
    var alarm = defined
    alarm.metadata?.isAlarm = true
    #expect(decide(alarm, at: "2026-05-04T21:00+02:00", facts: FiringFacts(cap: full)).0 == nil)
    var task = defined
    task.category = .taskReminder
    #expect(decide(task, at: "2026-05-04T21:00+02:00", facts: FiringFacts(cap: full)).0 == nil)
  }

  @Test func loggingTheActStopsAnAlarmsRings() {
    var alarm = dailyRequest("reminder-2", kind: "Pills", at: "21:00")
    alarm.category = .habitReminder
    alarm.metadata?.isAlarm = true
    let ring = DueOccurrence(
      request: alarm,
      occurrence: Occurrence(requestID: alarm.id, at: epoch("2026-05-04T21:00+02:00")),
      attempt: 2, dueAt: epoch("2026-05-04T21:10+02:00"))
    let (stopped, _) = DeliveryPolicy.skip(
      ring, facts: FiringFacts(events: .found([stamp("2026-05-04T21:06+02:00")])), in: berlin,
      clock: .twentyFourHour)
    #expect(stopped == .suppressed(reason: "Pills logged at 21:06"))
    let (rings, _) = DeliveryPolicy.skip(
      ring, facts: FiringFacts(events: .found([stamp("2026-05-04T20:30+02:00")])), in: berlin,
      clock: .twentyFourHour)
    #expect(rings == nil)
  }

  // MARK: The plan's adjustments

  @Test func aPausedLearnedReminderChecksInAtItsRoutinesLatestTimeAndAMovedOneFollows() {
    let planner = AdaptationPlanner(
      settings: PlannerSettings(), zone: berlin, now: epoch("2026-05-04T03:15+02:00"))
    let request = learned()
    let paused = planner.adjust(
      request, record: record(.paused), moved: nil, latest: wallTime("21:20"))
    guard case .calendar(let trigger) = paused.trigger else { return }
    #expect(trigger.time.description == "21:20")
    #expect(paused.body == "Check-in: Meditation is not logged yet today (usually around 21:00).")
    var offset = AdaptationRecord(key: "routine_Meditation")
    offset.offsetMinutes = 30
    let later = planner.adjust(request, record: offset, moved: nil, latest: wallTime("21:10"))
    guard case .calendar(let clamped) = later.trigger else { return }
    // 20:55 + 30 would be 21:25, past the routine's latest usual time: 21:10.
    #expect(clamped.time.description == "21:10")
    var movedRecord = AdaptationRecord(key: "routine_Meditation")
    movedRecord.explanations = ["moved to 22:30"]
    let moved = planner.adjust(
      request, record: movedRecord,
      moved: ChangePoint.Move(time: wallTime("22:30"), agreeing: 3, of: 4), latest: nil)
    guard case .calendar(let followed) = moved.trigger else { return }
    #expect(followed.time.description == "22:25")
    #expect(moved.metadata?.suggestedTime == wallTime("22:30"))
    #expect(moved.metadata?.lookBack == .since(wallTime("10:30")))
    #expect(moved.metadata?.adaptation == "moved to 22:30")
  }

  // MARK: A trip

  /// Issue 28: adaptation is by local wall-clock time. After a flight from Berlin to New York,
  /// the days before it are read on Berlin's clock: a coffee at 07:10 there is no move to 01:10,
  /// and those days were done.
  @Test func aTripIsNoMoveAndTheDaysBeforeItStayDone() {
    let newYork = zone("America/New_York")
    let coffee = NotificationRequest(
      id: "routine_Coffee", origin: .learned, category: .routineReminder, title: "Time for Coffee",
      body: "", trigger: .calendar(CalendarTrigger(hour: 7, minute: 5)),
      metadata: RequestMetadata(
        eventKind: "Coffee", suggestedTime: wallTime("07:10"), lookBack: .since(wallTime("04:00")),
        actUntil: wallTime("19:10")))
    var acts: [Timestamp] = []
    for day in 1...10 {
      acts.append(stamp(String(format: "2026-05-%02dT07:10:00+02:00", day)))
    }
    acts.append(stamp("2026-05-11T07:12:00-04:00"))
    let history = ReminderRecord(requests: [coffee], firings: [], acts: acts)
    let now = epoch("2026-05-12T03:15-04:00")
    let planner = AdaptationPlanner(settings: PlannerSettings(), zone: newYork, now: now)
    let all = planner.days(history, today: date(2026, 5, 12))
    #expect(
      planner.move(all.filter { $0.date < date(2026, 5, 12) }, usual: wallTime("07:10")) == nil)
    let days = history.days(
      from: date(2026, 5, 2), through: date(2026, 5, 11), now: now, in: newYork)
    #expect(days.count == 10)
    #expect(days.filter(\.isDone).count == 10)
    #expect(days.filter(\.isUnaided).count == 10)
  }
}
