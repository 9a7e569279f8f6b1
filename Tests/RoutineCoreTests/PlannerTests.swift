import Foundation
import Testing

@testable import RoutineCore

struct PlannerTests {
  let messages = ReminderMessages(clock: .twentyFourHour)

  func routine(
    _ kind: String, _ time: String, _ dayKind: DayKind = .all, confidence: Double = 0.8
  ) -> Routine {
    let parsed = TimeOfDay(parsing: time)!
    return Routine(
      kind: EventKind(kind)!, time: parsed, dayKind: dayKind, confidence: confidence,
      occurrences: 5,
      daysMatched: 5, daysObserved: 5, earliest: parsed.adding(seconds: -600),
      latest: parsed.adding(seconds: 600),
      spreadMinutes: 5, outlierThresholdSeconds: 3600,
      reasoning:
        "You logged \(kind) between \(parsed.adding(seconds: -600)) and \(parsed.adding(seconds: 600)) on 5 of the last 5 days."
    )
  }

  func analysis(_ routines: [Routine], durations: [UsualDuration] = []) -> RoutineAnalysis {
    RoutineAnalysis(
      window: window(now: "2026-04-27T04:00:00+02:00", days: 7), routines: routines, outliers: [],
      durations: durations)
  }

  func plan(
    _ routines: [Routine], settings: PlannerSettings = PlannerSettings(),
    durations: [UsualDuration] = []
  )
    -> [NotificationRequest]
  {
    Planner(settings: settings, messages: messages).requests(
      for: analysis(routines, durations: durations))
  }

  func trigger(_ request: NotificationRequest) -> CalendarTrigger? {
    if case .calendar(let calendar) = request.trigger { return calendar }
    return nil
  }

  @Test func aDailyRoutineBecomesOneDailyRequestFiveMinutesEarly() throws {
    let requests = plan([routine("Meditation", "21:30")])
    let request = try #require(requests.first)
    #expect(requests.count == 1)
    #expect(request.id == "routine_Meditation")
    #expect(request.origin == .learned && request.category == .routineReminder)
    #expect(trigger(request) == CalendarTrigger(weekday: nil, hour: 21, minute: 25, repeats: true))
    // Once a day: done since 09:30 (12 hours before), the reminder is not needed; an act until
    // 04:00 (the next day's start) answers it.
    #expect(
      request.metadata
        == RequestMetadata(
          eventKind: "Meditation", suggestedTime: TimeOfDay(parsing: "21:30"), confidence: 0.8,
          lookBack: .since(TimeOfDay(parsing: "09:30")!), actUntil: TimeOfDay(parsing: "04:00")))
    #expect(request.title == "Time for Meditation")
  }

  /// Issue 28: one reminder per act. A once-a-day routine is not needed once its kind was
  /// logged that day (from 04:00, or 12 hours before its usual time if later) before it fires,
  /// however tight the routine: a workout at lunch keeps the 18:19 one quiet, and a wake-up at
  /// 06:50 the 06:56 one.
  @Test func aOnceADayReminderIsNotNeededOnceItsKindWasLoggedThatDay() throws {
    let workout = routine("Workout", "18:24")
    let request = try #require(plan([workout]).first)
    #expect(trigger(request) == CalendarTrigger(weekday: nil, hour: 18, minute: 19, repeats: true))
    #expect(request.metadata?.lookBack == .since(TimeOfDay(parsing: "06:24")!))
    let firing = epoch("2026-05-04T18:19+02:00")
    let berlin = zone("Europe/Berlin")
    for done in ["2026-05-04T18:05+02:00", "2026-05-04T12:30+02:00", "2026-05-04T06:24+02:00"] {
      #expect(
        ForwardCheck.evidence(for: request, at: firing, events: [stamp(done)], in: berlin)
          == stamp(done))
    }
    // The evening before is another day.
    #expect(
      ForwardCheck.evidence(
        for: request, at: firing, events: [stamp("2026-05-03T19:00+02:00")], in: berlin) == nil)
    // A tight routine (the wake-up at 06:50 against its 06:56 reminder) looks back to
    // the day's start.
    var tight = routine("Wake Up", "07:01")
    tight.earliest = TimeOfDay(parsing: "06:58")!
    let wake = try #require(plan([tight]).first)
    #expect(wake.metadata?.lookBack == .since(TimeOfDay(parsing: "04:00")!))
    #expect(
      ForwardCheck.evidence(
        for: wake, at: epoch("2026-05-04T06:56+02:00"),
        events: [stamp("2026-05-04T06:50+02:00")], in: berlin) == stamp("2026-05-04T06:50+02:00"))
    // Around midnight: the 23:58 reminder of a 00:03 bed time counts from 12:03, so the night's
    // bed time at 23:40 keeps it quiet.
    let late = try #require(plan([routine("Sleep", "00:03")]).first)
    #expect(late.metadata?.lookBack == .since(TimeOfDay(parsing: "12:03")!))
    #expect(
      ForwardCheck.evidence(
        for: late, at: epoch("2026-05-04T23:58+02:00"),
        events: [stamp("2026-05-04T23:40+02:00")], in: berlin) != nil)
    // A routine just after the day's start has no time to look back on before its reminder.
    #expect(plan([routine("Milk", "04:03")]).first?.metadata?.lookBack == nil)
  }

  /// A kind logged several times a day (meals) looks back only within its slot: half-way to
  /// the kind's routine before it, and answers until half-way to the next.
  @Test func aKindOfSeveralRoutinesADayLooksBackWithinItsSlot() throws {
    let requests = plan([
      routine("Meal", "07:04", .weekdays), routine("Meal", "12:25", .weekdays),
      routine("Meal", "18:59"),
    ])
    func request(_ id: String) -> NotificationRequest? { requests.first { $0.id == id } }
    let lunch = try #require(request("routine_Meal-2-weekday-2"))
    #expect(lunch.metadata?.lookBack == .since(TimeOfDay(parsing: "09:45")!))
    #expect(lunch.metadata?.actUntil == TimeOfDay(parsing: "15:42"))
    let breakfast = try #require(request("routine_Meal-weekday-2"))
    #expect(breakfast.metadata?.lookBack == .since(TimeOfDay(parsing: "04:00")!))
    // Dinner is every day: on weekends lunch is not a routine, so its slot is the narrowest of
    // its days: the weekdays' back to half-way from lunch, and until half-way to the next
    // morning's breakfast (01:02) on the evenings before a weekday.
    let dinner = try #require(request("routine_Meal-3"))
    #expect(dinner.metadata?.lookBack == .since(TimeOfDay(parsing: "15:42")!))
    #expect(dinner.metadata?.actUntil == TimeOfDay(parsing: "01:02"))
    // Breakfast logged keeps lunch's reminder firing.
    #expect(
      ForwardCheck.evidence(
        for: lunch, at: epoch("2026-05-04T12:20+02:00"), events: [stamp("2026-05-04T07:10+02:00")],
        in: zone("Europe/Berlin")) == nil)
  }

  /// Two routines of one kind less than 3 hours apart on a day are one act: the one of fewer
  /// days reminds, the every-day one stays quiet on those days.
  @Test func twoRoutinesOfOneActNeverBothRemindOnADay() throws {
    let requests = plan([
      routine("Meditation", "21:30", confidence: 0.9), routine("Meditation", "22:40", .weekends),
    ])
    let days = requests.map { request in
      (request.id, trigger(request)!.weekday)
    }
    #expect(
      days.map(\.0).sorted() == [
        "routine_Meditation-2-weekday-1", "routine_Meditation-2-weekday-7",
        "routine_Meditation-weekday-2", "routine_Meditation-weekday-3",
        "routine_Meditation-weekday-4", "routine_Meditation-weekday-5",
        "routine_Meditation-weekday-6",
      ])
    // Far apart on the same day, they are two acts: both remind.
    let twice = plan([routine("Coffee", "07:10"), routine("Coffee", "15:00", .weekends)])
    #expect(twice.filter { $0.id.hasPrefix("routine_Coffee-2") }.count == 2)
    #expect(twice.contains { $0.id == "routine_Coffee" })
  }

  @Test func weekdayAndWeekendRoutinesRepeatOnTheirOwnDays() {
    let requests = plan([
      routine("Wake Up", "06:45", .weekdays), routine("Wake Up", "08:30", .weekends),
    ])
    #expect(
      requests.map(\.id).sorted() == [
        "routine_WakeUp-2-weekday-1", "routine_WakeUp-2-weekday-7",
        "routine_WakeUp-weekday-2", "routine_WakeUp-weekday-3", "routine_WakeUp-weekday-4",
        "routine_WakeUp-weekday-5", "routine_WakeUp-weekday-6",
      ])
    for request in requests {
      let calendar = trigger(request)!
      #expect(request.id.hasSuffix("-weekday-\(calendar.weekday!)"))
      #expect(
        (calendar.hour, calendar.minute)
          == ([1, 7].contains(calendar.weekday!) ? (8, 25) : (6, 40)))
    }
  }

  @Test func eveningRoutinesRepeatOnTheNightsTheyWereLearnedFor() {
    var settings = PlannerSettings()
    settings.leadMinutes = 10
    let requests = plan(
      [
        routine("Bed Time", "22:45", .sundayToThursday),
        routine("Bed Time", "00:05", .fridayAndSaturday),
      ],
      settings: settings)
    let fires = requests.map { request in
      let calendar = trigger(request)!
      return "\(request.id) \(calendar.weekday!) \(calendar.hour):\(calendar.minute)"
    }
    // Numbered by time of day: 00:05 first. Friday's and Saturday's 00:05 are reminded at
    // 23:55 on Thursday and Friday evenings. Thursday's 22:45 and Friday's 00:05 are one night's
    // bed time, 80 minutes apart: the routine of fewer days reminds of it, once.
    #expect(
      fires.sorted() == [
        "routine_BedTime-2-weekday-1 1 22:35", "routine_BedTime-2-weekday-2 2 22:35",
        "routine_BedTime-2-weekday-3 3 22:35", "routine_BedTime-2-weekday-4 4 22:35",
        "routine_BedTime-weekday-5 5 23:55", "routine_BedTime-weekday-6 6 23:55",
      ])
  }

  @Test func onlyRoutinesAboveTheThresholdAndOnlyWhenEnabled() {
    var settings = PlannerSettings()
    let routines = [
      routine("Coffee", "07:30", confidence: 0.6), routine("Tea", "16:00", confidence: 0.61),
    ]
    #expect(plan(routines, settings: settings).map(\.id) == ["routine_Tea"])
    settings.threshold = 0.5
    #expect(plan(routines, settings: settings).count == 2)
    settings.isEnabled = false
    #expect(plan(routines, settings: settings).isEmpty)
  }

  @Test func aKindWithSeveralRoutinesNumbersThemByTimeOfDay() {
    let requests = plan([
      routine("Meal", "19:00"), routine("Meal", "07:30"), routine("Meal", "12:30"),
    ])
    let byID = Dictionary(uniqueKeysWithValues: requests.map { ($0.id, trigger($0)!.hour) })
    #expect(byID == ["routine_Meal": 7, "routine_Meal-2": 12, "routine_Meal-3": 18])
  }

  @Test func aLeadThatEndsAtMidnightStaysOnTheRoutinesOwnDay() {
    // 00:05 with the default 5 minutes' lead fires at 00:00 of the same day, not the day before.
    let requests = plan([routine("Bed Time", "00:05", .weekdays)])
    #expect(requests.map(\.id) == (2...6).map { "routine_BedTime-weekday-\($0)" })
    #expect(requests.allSatisfy { trigger($0)?.hour == 0 && trigger($0)?.minute == 0 })
    #expect(requests.map { trigger($0)?.weekday } == [2, 3, 4, 5, 6])
  }

  @Test func aLeadAcrossMidnightMovesToTheEveningBefore() throws {
    // docs/planner.md's example: a weekend bed time at 00:03, the default 5 minutes' lead.
    let requests = plan([routine("Bed Time", "00:03", .weekends)])
    // Saturday's and Sunday's 00:03 are reminded on Friday's and Saturday's evenings.
    #expect(requests.map(\.id) == ["routine_BedTime-weekday-6", "routine_BedTime-weekday-7"])
    #expect(requests.map { trigger($0)?.hour } == [23, 23])
    #expect(requests.map { trigger($0)?.minute } == [58, 58])
    var settings = PlannerSettings()
    settings.leadMinutes = 10
    let earlier = plan([routine("Bed Time", "00:05", .weekends)], settings: settings)
    #expect(earlier.map { trigger($0)?.weekday } == [6, 7])
    #expect(earlier.map { trigger($0)?.minute } == [55, 55])
  }

  @Test func leavingHomeGetsTheBufferOrElseTheCommute() throws {
    let commute = UsualDuration(
      from: EventKind("Leaving Home")!, to: EventKind("Arriving at Work")!, minutes: 35, pairs: 5,
      reasoning: "")
    let leaving = routine("Leaving Home", "07:50", .weekdays)
    let withBuffer = try #require(plan([leaving], durations: [commute]).first)
    #expect(
      withBuffer.body == "Time to leave! Including a 10 min buffer for a stress-free commute.")
    #expect((trigger(withBuffer)!.hour, trigger(withBuffer)!.minute) == (7, 35))
    var settings = PlannerSettings()
    settings.bufferMinutes = 0
    let without = try #require(plan([leaving], settings: settings, durations: [commute]).first)
    #expect(
      without.body
        == "Time to leave! Your commute takes 35 minutes; leaving at 07:50 gets you there on time.")
    #expect((trigger(without)!.hour, trigger(without)!.minute) == (7, 45))
    let unknownCommute = try #require(plan([leaving], settings: settings).first)
    #expect(
      unknownCommute.body == "Time to leave! Leaving at your usual 07:50 keeps you on schedule.")
  }

  @Test func messagesFollowTheKindAndStayUnderAHundredCharacters() throws {
    let requests = plan([
      routine("Wake Up", "07:00"), routine("Bed Time", "23:00"),
      routine(String(repeating: "Very Long Activity Name ", count: 4), "12:00"),
    ])
    let bodies = Dictionary(
      uniqueKeysWithValues: requests.map { ($0.metadata!.eventKind, $0.body) })
    #expect(bodies["Wake Up"] == "Time to start your day! Waking at 07:00 keeps you on schedule.")
    #expect(bodies["Bed Time"] == "Consider winding down. You usually go to bed at 23:00.")
    for request in requests { #expect(request.body.count < 100) }
    #expect(requests.contains { $0.body.hasSuffix("…") })
  }

  @Test(arguments: [
    ("en_US", "7:05 PM", "6:46 AM", "12:00 AM", "12:30 PM"),
    ("en_AU", "7:05 PM", "6:46 AM", "12:00 AM", "12:30 PM"),
    ("de_DE", "19:05", "06:46", "00:00", "12:30"),
    ("en_GB", "19:05", "06:46", "00:00", "12:30"),
    ("C", "19:05", "06:46", "00:00", "12:30"),
    ("POSIX", "19:05", "06:46", "00:00", "12:30"),
  ])
  func timesInMessagesFollowTheLocalesClockWithPlainSpaces(
    locale: String, evening: String, morning: String, midnight: String, noon: String
  ) throws {
    let messages = ReminderMessages(clock: ClockStyle(localeIdentifier: locale))
    #expect(messages.format(try #require(TimeOfDay(parsing: "19:05"))) == evening)
    #expect(messages.format(try #require(TimeOfDay(parsing: "00:00"))) == midnight)
    #expect(messages.format(try #require(TimeOfDay(parsing: "12:30"))) == noon)
    let body = messages.body(
      for: routine("Wake Up", "06:46"), bufferMinutes: 10, commuteMinutes: nil)
    #expect(body == "Time to start your day! Waking at \(morning) keeps you on schedule.")
    // Only ASCII spaces: a narrow no-break space (U+202F) breaks grep and copy-paste.
    #expect(body.unicodeScalars.allSatisfy { $0.isASCII })
  }

  @Test func kindsThatReadTheSameWithoutSpacesGetDistinctIdentifiers() {
    let requests = plan([routine("Wake Up", "07:00"), routine("WakeUp", "07:10")])
    #expect(Set(requests.map(\.id)).count == 2)
    #expect(requests.allSatisfy { $0.id.hasPrefix("routine_WakeUp_") })
  }

  @Test func identifiersAreUniqueForAnyMixOfRoutines() {
    var random = SplitMix64(seed: 5)
    for _ in 0..<200 {
      var routines: [Routine] = []
      for _ in 0..<random.integer(in: 1...12) {
        let kind = ["Meal", "Coffee", "Wake Up", "wake  up", "WakeUp", "Bed Time"][
          random.integer(in: 0...5)]
        let time = TimeOfDay(secondsSinceMidnight: random.integer(in: 0...1439) * 60).description
        routines.append(routine(kind, time, DayKind.standard[random.integer(in: 0...2)]))
      }
      let ids = plan(routines).map(\.id)
      #expect(Set(ids).count == ids.count, "\(ids)")
    }
  }

  @Test func categoriesOfferTheDesignsActions() {
    #expect(
      NotificationCategory.category(.routineReminder).actions.map(\.id) == [
        "onit", "snooze", "dismiss",
      ])
    #expect(NotificationCategory.category(.earlyWarning).actions.map(\.id) == ["onit", "dismiss"])
    #expect(NotificationCategory.category(.outlierAlert).actions.map(\.id) == ["dismiss"])
    for category in NotificationCategory.all {
      #expect(category.actions.count <= 4)
      #expect(category.actions.allSatisfy { $0.title.count <= 20 })
      #expect(category.action("open")?.kind == .foreground)
    }
    #expect(
      NotificationCategory.snooze.kind == .background
        && NotificationCategory.dismiss.kind == .destructive)
    #expect(NotificationCategory.category(.outlierAlert).action("snooze") == nil)
  }

  @Test func snoozeAndOutlierAlertsHaveTheDesignsIdentifiers() {
    let fire = stamp("2026-04-27T08:05:00+02:00").secondsSince1970
    let target = AnswerTarget(
      requestID: "routine_LeavingHome-weekday-2", occurrence: fire - 300,
      category: .routineReminder, origin: .learned, title: "Time for Leaving Home",
      body: "Time to leave!", metadata: RequestMetadata(eventKind: "Leaving Home"))
    let snooze = NotificationRequest.snoozeAlert(of: target, firingAt: fire)
    #expect(snooze.id == "alert_LeavingHome_\(fire)")
    #expect(snooze.title == "Reminder: Time for Leaving Home")
    #expect(
      snooze.trigger == .date(fire) && snooze.category == .earlyWarning && snooze.origin == .snooze)
    let outlier = Outlier(
      kind: EventKind("Wake Up")!, timestamp: stamp("2026-04-27T05:15:00+02:00"),
      expected: TimeOfDay(parsing: "07:15")!,
      dayKind: .weekdays, deviationMinutes: -120,
      message: "You woke up at 05:15, 120 minutes earlier than your usual 07:15.")
    let alert = NotificationRequest.outlierAlert(for: outlier, firingAt: fire)
    #expect(alert.id.count == "outlier_".count + 8)
    #expect(alert.id.dropFirst("outlier_".count).allSatisfy { $0.isHexDigit })
    #expect(alert.id == NotificationRequest.outlierAlert(for: outlier, firingAt: fire + 60).id)
    #expect(alert.category == .outlierAlert && alert.body == outlier.message)
  }
}

struct ReconcilerTests {
  let berlin = zone("Europe/Berlin")
  let now = stamp("2026-04-27T04:00:00+02:00").secondsSince1970

  func learned(_ id: String, _ hour: Int, weekday: Int? = nil, body: String = "b")
    -> NotificationRequest
  {
    NotificationRequest(
      id: id, origin: .learned, category: .routineReminder, title: "t", body: body,
      trigger: .calendar(CalendarTrigger(weekday: weekday, hour: hour, minute: 0)), metadata: nil)
  }

  @Test func reconcilingTwiceChangesNothingTheSecondTime() {
    let wanted = [learned("routine_A", 7), learned("routine_B", 8)]
    let first = Reconciler.change(pending: [], wanted: wanted, now: now, timeZone: berlin)
    #expect(first.added.map(\.id) == ["routine_A", "routine_B"])
    let second = Reconciler.change(pending: wanted, wanted: wanted, now: now, timeZone: berlin)
    #expect(second.isEmpty)
    #expect(second.kept.map(\.id) == ["routine_A", "routine_B"])
  }

  @Test func staleLearnedRequestsAreReplacedOrRemovedAndOthersLeftAlone() {
    let snooze = NotificationRequest(
      id: "alert_A_1", origin: .snooze, category: .earlyWarning, title: "t", body: "b",
      trigger: .date(now + 300),
      metadata: nil)
    let pending = [learned("routine_A", 7), learned("routine_Old", 9), snooze]
    let change = Reconciler.change(
      pending: pending,
      wanted: [learned("routine_A", 7, body: "new words"), learned("routine_B", 8)], now: now,
      timeZone: berlin)
    #expect(change.replaced.map(\.new.id) == ["routine_A"])
    #expect(change.added.map(\.id) == ["routine_B"])
    #expect(change.removed.map(\.id) == ["routine_Old"])
    #expect(!(change.removed + change.replaced.map(\.old)).contains { $0.origin != .learned })
  }

  @Test func atMostSixtyFourArePendingAndTheSoonestAreKept() {
    // 70 weekly requests, one per hour of the week from an hour after now (Monday 04:00);
    // 3 snooze alerts already pending.
    let wanted = (0..<70).map { index in
      learned("routine_\(index)", (5 + index) % 24, weekday: 2 + (5 + index) / 24)
    }
    let alerts = (0..<3).map { index in
      NotificationRequest(
        id: "alert_\(index)", origin: .snooze, category: .earlyWarning, title: "t", body: "b",
        trigger: .date(now + 600 + Int64(index)), metadata: nil)
    }
    let change = Reconciler.change(pending: alerts, wanted: wanted, now: now, timeZone: berlin)
    #expect(change.added.count == 61)
    #expect(change.added.count + alerts.count == 64)
    #expect(Set(change.leftOut.map(\.id)) == Set((61..<70).map { "routine_\($0)" }))
  }

  @Test func turningSmartRemindersOffRemovesEveryLearnedRequest() {
    var settings = PlannerSettings()
    settings.isEnabled = false
    let wanted = Planner(settings: settings, messages: ReminderMessages(clock: .twentyFourHour))
      .requests(
        for: RoutineAnalysis(
          window: window(now: "2026-04-27T04:00:00+02:00", days: 7), routines: [], outliers: [],
          durations: []))
    let change = Reconciler.change(
      pending: [learned("routine_A", 7)], wanted: wanted, now: now, timeZone: berlin)
    #expect(change.removed.map(\.id) == ["routine_A"])
  }
}
