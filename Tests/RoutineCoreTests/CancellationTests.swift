import Foundation
import RoutineCore
import Testing

/// "Already done" (docs/reminders.md): an event cancels the firings in the next 24 hours whose
/// look-back window holds it, and the forward check at delivery applies the same rule.
struct CancellationTests {
  let berlin = zone("Europe/Berlin")

  /// The activity reminders of docs/reminders.md (2026-05-04 is a Monday).
  static let reminders = planned([
    activityReminder("reminder-1", preset: .mindfulness, at: "18:00"),
    activityReminder(
      "reminder-2", preset: .workout, at: "12:00", days: .weekdays, lookBackHours: 1,
      title: "Lunch walk"),
    activityReminder(
      "reminder-3", preset: .workout, at: "18:00", days: WeekdaySet(parsing: "mon,wed")!),
  ])

  func cancellations(_ events: [Event], now: String, requests: [NotificationRequest] = reminders)
    -> [Cancellation]
  {
    Cancellation.cancellations(for: events, requests: requests, now: epoch(now), in: berlin)
  }

  static func cancellation(_ id: String, at: String, reminder: String, _ event: Event)
    -> Cancellation
  {
    let firing = stamp(at)
    return Cancellation(
      occurrence: Occurrence(
        requestID: id, at: firing.secondsSince1970,
        slot: FiringSlot(date: firing.localDate, time: firing.timeOfDay)),
      reminderID: reminder, eventKind: event.kind.name, eventAt: event.timestamp)
  }

  static func request(_ id: String) -> NotificationRequest {
    reminders.first { $0.id == id }!
  }

  // MARK: Cancellations

  @Test func meditationInTheMorningCancelsThatEveningsMindfulnessReminderOnly() {
    let meditation = event("Meditation", at: "2026-05-04T10:00+02:00")
    let expected = [
      Self.cancellation(
        "reminder-1-weekday-2", at: "2026-05-04T18:00+02:00", reminder: "reminder-1", meditation)
    ]
    let found = cancellations([meditation], now: "2026-05-04T10:05+02:00")
    #expect(found == expected)
    // The occurrence carries its slot: the local date and time stay skipped across a trip.
    #expect(found.map(\.slot) == expected.map(\.slot))
    #expect(found.first?.slot?.description == "2026-05-04 18:00")
  }

  @Test func aWorkoutCancelsTheReminderWhoseWindowHoldsItAndNotTheOneWhoseWindowOpensLater() {
    // The 12:00 "Lunch walk" looks back one hour, to 11:00; the 18:00 one twelve, to 06:00.
    let workout = event("Workout", at: "2026-05-04T10:00+02:00")
    #expect(
      cancellations([workout], now: "2026-05-04T10:05+02:00") == [
        Self.cancellation(
          "reminder-3-weekday-2", at: "2026-05-04T18:00+02:00", reminder: "reminder-3", workout)
      ])
  }

  @Test func aCancellationIsForThatOneFiringAndTheRequestFiresAgainNextTime() throws {
    let workout = event("Workout", at: "2026-05-04T10:00+02:00")
    let found = cancellations([workout], now: "2026-05-04T10:05+02:00")
    let only = try #require(found.first)
    #expect(found.count == 1)
    // Wednesday's (another request) and next Monday's (another firing) are not cancelled.
    let request = Self.request("reminder-3-weekday-2")
    let next = request.trigger.nextFire(after: only.occurrence.at, in: berlin)
    #expect(next == epoch("2026-05-11T18:00+02:00"))
    #expect(!found.contains { $0.occurrence.requestID == "reminder-3-weekday-4" })
    let due = DeliveryPolicy(graceMinutes: 15).due(
      [request], after: epoch("2026-05-04T10:05+02:00"), through: epoch("2026-05-11T18:00+02:00"),
      in: berlin)
    #expect(
      due.map(\.occurrence) == found.map(\.occurrence) + [
        Occurrence(requestID: request.id, at: next!)
      ])
  }

  @Test func onlyFiringsInTheNext24HoursAreCancelledTheForwardCheckTakesCareOfLaterOnes() {
    let longLookBack = planned([
      activityReminder("reminder-4", activity: "Reading", at: "18:00", lookBackHours: 48)
    ])
    let reading = event("Reading", at: "2026-05-04T10:00+02:00")
    let found = cancellations([reading], now: "2026-05-04T10:05+02:00", requests: longLookBack)
    #expect(found.map(\.occurrence.at) == [epoch("2026-05-04T18:00+02:00")])
    // Tuesday's firing is 32 hours away; its 48-hour window still holds the event.
    let tuesday = longLookBack.first { $0.id == "reminder-4-weekday-3" }!
    #expect(
      ForwardCheck.evidence(
        for: tuesday, at: epoch("2026-05-05T18:00+02:00"), events: [reading.timestamp], in: berlin)
        == reading.timestamp)
  }

  @Test func anActivityAfterTheFiringCancelsTheNextDaysOnlyWhenItsWindowReachesBack() {
    let noAlc = planned([activityReminder("reminder-5", preset: .noalc, at: "09:00")])
    // 24 hours: Tuesday's 09:00 looks back to Monday 09:00.
    let alcohol = event("Alcohol", at: "2026-05-04T09:30+02:00")
    #expect(
      cancellations([alcohol], now: "2026-05-04T09:35+02:00", requests: noAlc) == [
        Self.cancellation(
          "reminder-5-weekday-3", at: "2026-05-05T09:00+02:00", reminder: "reminder-5", alcohol)
      ])
    // 12 hours: a workout at 18:30 is after Monday's 18:00, and Wednesday is days away.
    let lateWorkout = event("Workout", at: "2026-05-04T18:30+02:00")
    #expect(cancellations([lateWorkout], now: "2026-05-04T18:35+02:00").isEmpty)
  }

  @Test func eventsOfOtherKindsCancelNothing() {
    let coffee = event("Coffee", at: "2026-05-04T10:00+02:00")
    #expect(cancellations([coffee], now: "2026-05-04T10:05+02:00").isEmpty)
    #expect(cancellations([], now: "2026-05-04T10:05+02:00").isEmpty)
  }

  @Test(arguments: ["workout", "WORKOUT", " Workout ", "workOut"])
  func kindsMatchIgnoringCaseAndSpaces(_ spelling: String) {
    let workout = event(spelling, at: "2026-05-04T10:00+02:00")
    #expect(
      cancellations([workout], now: "2026-05-04T10:05+02:00").map(\.occurrence.requestID) == [
        "reminder-3-weekday-2"
      ])
  }

  /// docs/reminders.md: "`workout` matches "Workout" and "work-out"".
  /// Kinds match ignoring case and spaces only (docs/reminders.md): a hyphen makes another kind.
  @Test func aWorkOutSpelledWithAHyphenIsAnotherKind() {
    let workout = event("work-out", at: "2026-05-04T10:00+02:00")
    #expect(cancellations([workout], now: "2026-05-04T10:05+02:00").isEmpty)
  }

  @Test func remindersWithoutALookBackAreNeverCancelled() {
    let text = Reminder(
      id: "reminder-6", kind: .general, message: "Workout",
      schedule: ReminderSchedule(repetition: .daily, time: wallTime("18:00")))
    let task = Reminder(id: "reminder-7", kind: .task, link: "task-1", minutesBefore: 60)
    let requests = planned(
      [text, task],
      tasks: [
        TodoTask(
          id: "task-1", name: EventKind("Workout")!,
          due: DueTime(date: date(2026, 5, 4), time: wallTime("19:00")))
      ])
    #expect(requests.count == 2)
    let workout = event("Workout", at: "2026-05-04T10:00+02:00")
    #expect(cancellations([workout], now: "2026-05-04T10:05+02:00", requests: requests).isEmpty)
  }

  @Test func severalActivitiesCancelAFiringOnceNamingTheLatest() {
    let early = event("Meditation", at: "2026-05-04T08:00+02:00")
    let later = event("Meditation", at: "2026-05-04T10:00+02:00")
    #expect(
      cancellations([later, early], now: "2026-05-04T10:05+02:00") == [
        Self.cancellation(
          "reminder-1-weekday-2", at: "2026-05-04T18:00+02:00", reminder: "reminder-1", later)
      ])
  }

  @Test(arguments: [
    ("2026-05-04T06:00:00+02:00", true),
    ("2026-05-04T05:59:59+02:00", false),
    ("2026-05-04T18:00:00+02:00", true),
  ])
  func theLookBackWindowIncludesBothItsEnds(at time: String, cancels: Bool) {
    // reminder-3 fires at 18:00 and looks back 12 hours: [06:00, 18:00].
    let workout = event("Workout", at: time)
    let found = cancellations([workout], now: "2026-05-04T05:59:00+02:00")
      .filter { $0.occurrence.requestID == "reminder-3-weekday-2" }
    #expect(found.count == (cancels ? 1 : 0))
  }

  @Test func aHabitIsDoneForTheDayFromLocalMidnight() {
    let journal = Habit(
      id: "habit-1", name: EventKind("Journal")!, repetition: .weekly, weekdays: .weekdays,
      window: wallTime("21:00")...wallTime("22:00"))
    let requests = planned(
      [
        Reminder(
          id: "reminder-9", kind: .habit, link: "habit-1", habitTiming: .beforeWindow(minutes: 15))
      ], habits: [journal])
    let morning = event("Journal", at: "2026-05-04T08:00+02:00")
    #expect(
      cancellations([morning], now: "2026-05-04T08:05+02:00", requests: requests) == [
        Self.cancellation(
          "reminder-9", at: "2026-05-04T20:45+02:00", reminder: "reminder-9", morning)
      ])
    // Sunday night's entry is not Monday's.
    let sundayNight = event("Journal", at: "2026-05-03T23:50+02:00")
    #expect(cancellations([sundayNight], now: "2026-05-03T23:55+02:00", requests: requests).isEmpty)
  }

  /// A reminder 30 minutes before a window at 00:10 fires at 23:40 the evening before: it is
  /// about the next day's habit, which nothing logged that evening's day can have done.
  @Test func aHabitReminderTheEveningBeforeIsNotSilencedByThatDaysEntry() {
    let pills = Habit(
      id: "habit-5", name: EventKind("Pills")!, window: wallTime("00:10")...wallTime("00:40"))
    let requests = planned(
      [
        Reminder(
          id: "reminder-17", kind: .habit, link: "habit-5",
          habitTiming: .beforeWindow(minutes: 30))
      ], habits: [pills])
    let request = requests[0]
    #expect(request.trigger == .calendar(CalendarTrigger(hour: 23, minute: 40)))
    // Monday's pills at 00:20; the reminder at 23:40 on Monday is for Tuesday's.
    let mondays = event("Pills", at: "2026-05-04T00:20+02:00")
    #expect(cancellations([mondays], now: "2026-05-04T00:25+02:00", requests: requests).isEmpty)
    #expect(
      ForwardCheck.evidence(
        for: request, at: epoch("2026-05-04T23:40+02:00"), events: [mondays.timestamp], in: berlin)
        == nil)
  }

  // MARK: The forward check

  @Test func theForwardCheckSaysFireWhenNothingIsInTheLookBack() {
    let request = Self.request("reminder-3-weekday-2")
    let firing = epoch("2026-05-04T18:00+02:00")
    #expect(ForwardCheck.evidence(for: request, at: firing, events: [], in: berlin) == nil)
    let outside = [stamp("2026-05-04T05:00+02:00"), stamp("2026-05-04T18:00:01+02:00")]
    #expect(ForwardCheck.evidence(for: request, at: firing, events: outside, in: berlin) == nil)
  }

  @Test func theForwardCheckSaysSkipWithTheLatestEventInTheLookBack() {
    let request = Self.request("reminder-3-weekday-2")
    let events = [
      stamp("2026-05-04T08:00+02:00"), stamp("2026-05-04T10:00+02:00"),
      stamp("2026-05-04T19:00+02:00"),
    ]
    let evidence = ForwardCheck.evidence(
      for: request, at: epoch("2026-05-04T18:00+02:00"), events: events, in: berlin)
    #expect(evidence == stamp("2026-05-04T10:00+02:00"))
    #expect(
      ForwardCheck.reason(kind: "Workout", at: evidence!, clock: .twentyFourHour)
        == "Workout logged at 10:00")
    #expect(
      ForwardCheck.reason(kind: "Workout", at: evidence!, clock: .twelveHour)
        == "Workout logged at 10:00 AM")
  }

  @Test func theReasonGivesTheEventsOwnLocalTime() {
    // Logged on a trip to New York at 07:00 there.
    #expect(
      ForwardCheck.reason(
        kind: "Workout", at: stamp("2026-05-04T07:00-04:00"), clock: .twentyFourHour)
        == "Workout logged at 07:00")
  }

  @Test func aRequestWithoutALookBackAlwaysFires() {
    let request = dailyRequest("reminder-8", kind: "Workout", at: "18:00")
    #expect(
      ForwardCheck.evidence(
        for: request, at: epoch("2026-05-04T18:00+02:00"),
        events: [stamp("2026-05-04T17:00+02:00")], in: berlin) == nil)
  }

  @Test func theSameDayLookBackStartsAtTheDaysFirstInstantWhenMidnightIsSkipped() {
    // Santiago skips 2026-09-06 00:00-00:59: that day begins at 01:00 (-03:00).
    let santiago = zone("America/Santiago")
    let window = LookBack.sameDay.window(before: epoch("2026-09-06T20:00-03:00"), in: santiago)
    #expect(window.lowerBound == epoch("2026-09-06T01:00-03:00"))
    #expect(window.upperBound == epoch("2026-09-06T20:00-03:00"))
    // And on Berlin's spring-forward day, midnight is still +01:00.
    let berlinWindow = LookBack.sameDay.window(before: epoch("2026-03-29T20:45+02:00"), in: berlin)
    #expect(berlinWindow.lowerBound == epoch("2026-03-29T00:00+01:00"))
  }
}
