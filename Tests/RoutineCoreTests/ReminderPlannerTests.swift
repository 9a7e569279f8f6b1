import Foundation
import RoutineCore
import Testing

/// The requests of reminders people define (docs/reminders.md), derived by `ReminderPlanner`.
struct ReminderPlannerTests {
  let planner = ReminderPlanner(clock: .twentyFourHour)

  func requests(_ reminder: Reminder, habit: Habit? = nil, task: TodoTask? = nil) throws
    -> [NotificationRequest]
  {
    try planner.requests(for: reminder, habit: habit, task: task)
  }

  static func calendar(_ time: String, weekdays: WeekdaySet = .none, dayOfMonth: Int? = nil)
    -> Trigger
  {
    let parsed = wallTime(time)
    return .calendar(
      CalendarTrigger(
        weekdays: weekdays, dayOfMonth: dayOfMonth, hour: parsed.hour, minute: parsed.minute))
  }

  // MARK: Activity reminders

  @Test func anActivityReminderMakesOneRequestPerDayNamedAfterTheWeekday() throws {
    let reminder = activityReminder(
      "reminder-3", preset: .workout, at: "18:00", days: WeekdaySet(parsing: "mon,wed")!)
    let made = try requests(reminder)
    #expect(made.map(\.id) == ["reminder-3-weekday-2", "reminder-3-weekday-4"])
    #expect(
      made.map(\.trigger) == [
        .calendar(CalendarTrigger(weekday: 2, hour: 18, minute: 0)),
        .calendar(CalendarTrigger(weekday: 4, hour: 18, minute: 0)),
      ])
    for request in made {
      #expect(request.origin == .reminder)
      #expect(request.metadata?.reminderID == "reminder-3")
      #expect(request.metadata?.eventKind == "Workout")
      #expect(request.metadata?.lookBack == .hours(12))
      #expect(request.metadata?.isAlarm == false)
    }
  }

  @Test func aDailyActivityReminderHasARequestForEachOfTheSevenDaysSundayFirst() throws {
    let made = try requests(activityReminder("reminder-1", preset: .mindfulness, at: "18:00"))
    #expect(made.map(\.id) == (1...7).map { "reminder-1-weekday-\($0)" })
    for (index, request) in made.enumerated() {
      guard case .calendar(let trigger) = request.trigger else {
        Issue.record("\(request.id) has no calendar trigger")
        continue
      }
      #expect(trigger.weekday == index + 1)
      #expect(trigger.time == wallTime("18:00"))
    }
  }

  struct PresetCase: CustomTestStringConvertible, Sendable {
    let preset: ActivityPreset
    let kind: String
    let time: String
    let lookBackHours: Int
    let title: String
    let buttons: [String]
    var testDescription: String { preset.rawValue }
  }

  static let presets = [
    PresetCase(
      preset: .mindfulness, kind: "Meditation", time: "20:00", lookBackHours: 12,
      title: "Mindfulness", buttons: ["Start Meditation", "Remind me in 5 min", "Dismiss"]),
    PresetCase(
      preset: .workout, kind: "Workout", time: "18:00", lookBackHours: 12, title: "Workout",
      buttons: ["Start Workout", "Remind me in 5 min", "Dismiss"]),
    PresetCase(
      preset: .noalc, kind: "Alcohol", time: "09:00", lookBackHours: 24, title: "NoAlc",
      buttons: ["Steady", "Easy", "Wild", "Dismiss"]),
  ]

  @Test(arguments: presets)
  func aBuiltInActivityHasTheDocumentedDefaultsWordsAndButtons(_ test: PresetCase) throws {
    let preset = test.preset
    #expect(preset.kind.name == test.kind)
    #expect(preset.time == wallTime(test.time))
    #expect(preset.lookBackHours == test.lookBackHours)
    #expect(NotificationCategory.category(preset.category).actions.map(\.title) == test.buttons)
    // Planned at its default time with its default look-back.
    let made = try requests(
      activityReminder("reminder-1", preset: preset, at: test.time, days: WeekdaySet([2])))
    #expect(made.count == 1)
    let request = try #require(made.first)
    #expect(request.category == preset.category)
    #expect(request.title == test.title)
    #expect(request.body == preset.message)
    #expect(request.trigger == Self.calendar(test.time, weekdays: WeekdaySet([2])))
    #expect(request.metadata?.eventKind == test.kind)
    #expect(request.metadata?.lookBack == .hours(test.lookBackHours))
  }

  @Test func noAlcQuickLogsSteadyEasyAndWildAsZeroOneAndTwo() {
    #expect(ActivityPreset.levels.map(\.action) == ["steady", "easy", "wild"])
    #expect(ActivityPreset.levels.map(\.value) == [0, 1, 2])
    #expect(
      NotificationCategory.category(.noalc).actionIDs == [
        "steady", "easy", "wild", "dismiss", "open",
      ])
  }

  @Test func presetsAreNamedByTheirNameOrTheirActivityInAnyCase() {
    #expect(ActivityPreset(named: "Mindfulness") == .mindfulness)
    #expect(ActivityPreset(named: "meditation") == .mindfulness)
    #expect(ActivityPreset(named: "WORKOUT") == .workout)
    #expect(ActivityPreset(named: "alcohol") == .noalc)
    #expect(ActivityPreset(named: "yoga") == nil)
  }

  @Test func anyOtherActivityGetsADoneButtonAndSaysWhatWasNotLogged() throws {
    let reading = try requests(activityReminder("reminder-2", activity: "Reading", at: "09:00"))
    #expect(reading.count == 7)
    #expect(reading.allSatisfy { $0.category == .activityReminder })
    #expect(reading.first?.title == "Time for Reading")
    #expect(reading.first?.body == "You have not logged Reading in the last 12 hours.")
    #expect(NotificationCategory.category(.activityReminder).actionIDs.first == "done")

    // One hour, with a trigger window: fires at its start and shows the window.
    let windowed = Reminder(
      id: "reminder-4", kind: .activity, activity: EventKind("Reading"), lookBackHours: 1,
      schedule: ReminderSchedule(
        repetition: .weekly, time: wallTime("08:00"), windowEnd: wallTime("08:30"),
        weekdays: WeekdaySet([3])))
    let made = try requests(windowed)
    #expect(made.map(\.id) == ["reminder-4-weekday-3"])
    #expect(made.first?.body == "You have not logged Reading in the last hour (08:00-08:30).")
    #expect(made.first?.trigger == Self.calendar("08:00", weekdays: WeekdaySet([3])))
    #expect(made.first?.metadata?.lookBack == .hours(1))
  }

  @Test func aTitleOfItsOwnReplacesTheDefaultAndAnAlarmIsMarkedAsOne() throws {
    var reminder = activityReminder(
      "reminder-2", preset: .workout, at: "12:00", days: .weekdays, lookBackHours: 1,
      title: "Lunch walk")
    reminder.style = .alarm
    let made = try requests(reminder)
    #expect(made.map(\.id) == (2...6).map { "reminder-2-weekday-\($0)" })
    #expect(made.allSatisfy { $0.title == "Lunch walk" && $0.metadata?.isAlarm == true })
    #expect(made.allSatisfy { $0.metadata?.lookBack == .hours(1) })
  }

  // MARK: No days, disabled, refused

  @Test func anActivityReminderWithNoDaysOnMakesNoRequestsAndSaysWhy() {
    let reminder = activityReminder(
      "reminder-6", preset: .workout, at: "18:00", days: WeekdaySet(parsing: "none")!)
    #expect(throws: ReminderPlanner.Problem.noDays) { try requests(reminder) }
    #expect(
      ReminderPlanner.Problem.noDays.description == "no day of the week is on, so it never fires")
    let sibling = activityReminder(
      "reminder-7", preset: .workout, at: "18:00", days: WeekdaySet([2]))
    #expect(planned([reminder, sibling]).map(\.id) == ["reminder-7-weekday-2"])
  }

  @Test func aDisabledReminderMakesNoRequests() {
    var off = activityReminder("reminder-1", preset: .mindfulness, at: "20:00")
    off.isEnabled = false
    let on = Reminder(
      id: "reminder-8", kind: .general, message: "Stretch",
      schedule: ReminderSchedule(repetition: .daily, time: wallTime("15:30")))
    #expect(planned([off, on]).map(\.id) == ["reminder-8"])
  }

  @Test func aHabitReminderBeforeOrAtTheWindowOfAHabitWithoutOneIsRefusedWithAReason() throws {
    let floss = Habit(id: "habit-2", name: EventKind("Floss")!)
    let before = Reminder(
      id: "reminder-9", kind: .habit, link: "habit-2", habitTiming: .beforeWindow(minutes: 10))
    #expect(throws: ReminderPlanner.Problem.habitWithoutWindow("Floss")) {
      try requests(before, habit: floss)
    }
    // The default, the window's start, needs a window too.
    let atStart = Reminder(id: "reminder-10", kind: .habit, link: "habit-2")
    #expect(throws: ReminderPlanner.Problem.habitWithoutWindow("Floss")) {
      try requests(atStart, habit: floss)
    }
    // docs/reminders.md, word for word.
    #expect(
      ReminderPlanner.Problem.habitWithoutWindow("Floss").description
        == "the habit 'Floss' has no time window, so there is no window to fire before or at; "
        + "give it one with 'routine habits edit' or use --at")
    // At a time of its own, it needs none.
    let atTime = Reminder(
      id: "reminder-11", kind: .habit, link: "habit-2", habitTiming: .at(wallTime("21:30")))
    let made = try requests(atTime, habit: floss)
    #expect(made.map(\.trigger) == [Self.calendar("21:30")])
    #expect(made.first?.body == "Today is a Floss day.")
    #expect(planned([before, atTime], habits: [floss]).map(\.id) == ["reminder-11"])
  }

  @Test func aReminderWhoseHabitOrTaskIsGoneIsRefused() {
    let orphan = Reminder(id: "reminder-12", kind: .habit, link: "habit-9")
    #expect(throws: ReminderPlanner.Problem.missingLink("habit-9")) { try requests(orphan) }
    let task = Reminder(id: "reminder-13", kind: .task, link: "task-9")
    #expect(throws: ReminderPlanner.Problem.missingLink("task-9")) { try requests(task) }
  }

  // MARK: Defined after its time

  @Test(arguments: [
    ("2026-05-04T09:05:00+02:00", ["2026-05-05T09:00+02:00"]),
    ("2026-05-04T09:00:00+02:00", ["2026-05-05T09:00+02:00"]),
    ("2026-05-04T08:59:59+02:00", ["2026-05-04T09:00+02:00", "2026-05-05T09:00+02:00"]),
  ])
  func aFiringAtOrBeforeTheTimeTheReminderWasDefinedIsNotDue(changed: String, due: [String]) {
    let reminder = Reminder(
      id: "reminder-5", kind: .general, message: "Vitamins",
      schedule: ReminderSchedule(repetition: .daily, time: wallTime("09:00")),
      changedAt: epoch(changed))
    let made = planned([reminder])
    #expect(made.first?.metadata?.activeSince == epoch(changed))
    let firings = DeliveryPolicy(graceMinutes: 15).due(
      made, after: epoch("2026-05-04T08:00+02:00"), through: epoch("2026-05-05T09:30+02:00"),
      in: zone("Europe/Berlin"))
    #expect(firings.map(\.dueAt) == due.map(epoch))
  }

  // MARK: Reminders with your own text

  @Test func aOneTimeTextReminderIsALocalDateAndTimeWithItsDateInTheBody() throws {
    let reminder = Reminder(
      id: "reminder-5", kind: .general, message: "Call the dentist",
      schedule: ReminderSchedule(repetition: .once, time: wallTime("09:00"), date: date(2026, 5, 7))
    )
    let made = try requests(reminder)
    #expect(made.map(\.id) == ["reminder-5"])
    #expect(made.first?.trigger == .local(date(2026, 5, 7), wallTime("09:00")))
    #expect(made.first?.title == "Call the dentist")
    #expect(made.first?.body == "Thu 2026-05-07 at 09:00.")
    #expect(made.first?.category == .reminder)
    #expect(made.first?.metadata?.lookBack == nil)
  }

  @Test func aOneTimeTextReminderInTheSpringForwardGapFiresAtTheEndOfTheGap() throws {
    let reminder = Reminder(
      id: "reminder-14", kind: .general, message: "Night check",
      schedule: ReminderSchedule(
        repetition: .once, time: wallTime("02:30"), date: date(2026, 3, 29)))
    let trigger = try #require(try requests(reminder).first?.trigger)
    let berlin = zone("Europe/Berlin")
    #expect(
      trigger.nextFire(after: epoch("2026-03-28T12:00+01:00"), in: berlin)
        == epoch("2026-03-29T03:00+02:00"))
  }

  @Test func payTheRentOnThe31stListsTheLastDayOfShorterMonthsAsTheDocsShow() throws {
    let reminder = Reminder(
      id: "reminder-7", kind: .general, message: "Pay the rent",
      schedule: ReminderSchedule(repetition: .monthly, time: wallTime("09:00"), dayOfMonth: 31))
    #expect(reminder.schedule?.summary == "monthly on the 31st 09:00")
    let made = try requests(reminder)
    #expect(made.first?.body == "Every month on the 31st at 09:00.")
    let items = Agenda.items(
      for: made, from: epoch("2026-05-01T00:00+02:00"), to: epoch("2026-09-01T00:00+02:00"),
      in: zone("Europe/Berlin"))
    #expect(
      items.map(\.at)
        == [
          "2026-05-31T09:00+02:00", "2026-06-30T09:00+02:00", "2026-07-31T09:00+02:00",
          "2026-08-31T09:00+02:00",
        ].map(epoch))
  }

  @Test func aTextReminderWithATitleShowsTheTextAsItsBody() throws {
    let reminder = Reminder(
      id: "reminder-8", kind: .general, title: "Stretch", message: "Two minutes, standing up.",
      schedule: ReminderSchedule(repetition: .daily, time: wallTime("15:30")))
    let made = try requests(reminder)
    #expect(made.first?.title == "Stretch")
    #expect(made.first?.body == "Two minutes, standing up.")
    #expect(made.first?.trigger == Self.calendar("15:30"))
    // Without a title, the text is the title and the body says when.
    var untitled = reminder
    untitled.title = nil
    #expect(try requests(untitled).first?.title == "Two minutes, standing up.")
    #expect(try requests(untitled).first?.body == "Every day at 15:30.")
  }

  // MARK: Habits

  static let journal = Habit(
    id: "habit-1", name: EventKind("Journal")!, repetition: .weekly, weekdays: .weekdays,
    window: wallTime("21:00")...wallTime("22:00"))

  @Test func aHabitReminderInheritsTheHabitsDaysAndFiresBeforeItsWindow() throws {
    let reminder = Reminder(
      id: "reminder-9", kind: .habit, link: "habit-1", habitTiming: .beforeWindow(minutes: 15))
    let made = try requests(reminder, habit: Self.journal)
    #expect(made.map(\.id) == ["reminder-9"])
    let request = try #require(made.first)
    #expect(request.trigger == Self.calendar("20:45", weekdays: .weekdays))
    #expect(request.title == "Do Journal")
    #expect(request.body == "Journal is due between 21:00 and 22:00 today.")
    #expect(request.category == .habitReminder)
    #expect(request.metadata?.lookBack == .sameDay)
    #expect(request.metadata?.link == RequestMetadata.Link(id: "habit-1", name: "Journal"))
    // docs/reminders.md: on Wednesday 2026-05-06 at noon, the next is that evening at 20:45.
    let berlin = zone("Europe/Berlin")
    #expect(
      request.trigger.nextFire(after: epoch("2026-05-06T12:00+02:00"), in: berlin)
        == epoch("2026-05-06T20:45+02:00"))
    #expect(
      request.trigger.nextFire(after: epoch("2026-05-08T20:45+02:00"), in: berlin)
        == epoch("2026-05-11T20:45+02:00"))
  }

  @Test func aHabitReminderFiresAtTheWindowsStartByDefaultOrAtItsOwnTimeAndDays() throws {
    let atStart = Reminder(id: "reminder-9", kind: .habit, link: "habit-1")
    #expect(
      try requests(atStart, habit: Self.journal).map(\.trigger) == [
        Self.calendar("21:00", weekdays: .weekdays)
      ])
    let ownDays = Reminder(
      id: "reminder-9", kind: .habit,
      schedule: ReminderSchedule(
        repetition: .weekly, time: wallTime("07:00"), weekdays: WeekdaySet([2])),
      link: "habit-1", habitTiming: .at(wallTime("07:00")))
    #expect(
      try requests(ownDays, habit: Self.journal).map(\.trigger) == [
        Self.calendar("07:00", weekdays: WeekdaySet([2]))
      ])
    let daily = Habit(
      id: "habit-3", name: EventKind("Stretch")!, window: wallTime("22:00")...wallTime("22:30"))
    let dailyReminder = Reminder(id: "reminder-15", kind: .habit, link: "habit-3")
    #expect(try requests(dailyReminder, habit: daily).map(\.trigger) == [Self.calendar("22:00")])
    let monthly = Habit(
      id: "habit-4", name: EventKind("Budget")!, repetition: .monthly, dayOfMonth: 15,
      window: wallTime("10:00")...wallTime("11:00"))
    let monthlyReminder = Reminder(id: "reminder-16", kind: .habit, link: "habit-4")
    #expect(
      try requests(monthlyReminder, habit: monthly).map(\.trigger) == [
        Self.calendar("10:00", dayOfMonth: 15)
      ])
  }

  @Test func minutesBeforeAWindowJustAfterMidnightFireTheEveningBeforeEachHabitDay() throws {
    let pills = Habit(
      id: "habit-5", name: EventKind("Pills")!, repetition: .weekly, weekdays: .weekdays,
      window: wallTime("00:10")...wallTime("00:40"))
    let reminder = Reminder(
      id: "reminder-17", kind: .habit, link: "habit-5", habitTiming: .beforeWindow(minutes: 30))
    let trigger = try #require(try requests(reminder, habit: pills).first?.trigger)
    // Monday to Friday at 00:10 means Sunday to Thursday at 23:40.
    #expect(trigger == Self.calendar("23:40", weekdays: WeekdaySet([1, 2, 3, 4, 5])))
    let berlin = zone("Europe/Berlin")
    // After Thursday evening's, the next is Sunday evening's (for Monday).
    #expect(
      trigger.nextFire(after: epoch("2026-05-07T23:40+02:00"), in: berlin)
        == epoch("2026-05-10T23:40+02:00"))
  }

  /// The evening before a monthly habit's day has no day of the month (before the 1st it is
  /// the 28th to the 31st; before April's 31st-day habit, the 29th): refused with the reason,
  /// rather than firing on the wrong evening (docs/reminders.md).
  @Test(arguments: [1, 15, 31])
  func aMonthlyHabitsReminderBeforeAWindowJustAfterMidnightIsRefused(day: Int) throws {
    let habit = Habit(
      id: "habit-6", name: EventKind("Backup")!, repetition: .monthly, dayOfMonth: day,
      window: wallTime("00:15")...wallTime("01:00"))
    let reminder = Reminder(
      id: "reminder-18", kind: .habit, link: "habit-6", habitTiming: .beforeWindow(minutes: 30))
    #expect(throws: ReminderPlanner.Problem.eveningBeforeMonthlyDay("Backup")) {
      try requests(reminder, habit: habit)
    }
    // Minutes that stay on the habit's day are fine.
    let sameDay = Reminder(
      id: "reminder-19", kind: .habit, link: "habit-6", habitTiming: .beforeWindow(minutes: 15))
    let trigger = try #require(try requests(sameDay, habit: habit).first?.trigger)
    #expect(trigger == Self.calendar("00:00", dayOfMonth: day))
  }

  // MARK: Tasks

  /// A task due at the wall-clock time `due` (its local reading).
  static func taxReturn(due: String, doneAt: String? = nil) -> TodoTask {
    let due = stamp(due)
    return TodoTask(
      id: "task-1", name: EventKind("Tax return")!,
      due: DueTime(date: due.localDate, time: due.timeOfDay), doneAt: doneAt.map(stamp))
  }

  @Test func aTaskReminderFiresItsOffsetBeforeTheDueDateAndFollowsTheDueDate() throws {
    let reminder = Reminder(id: "reminder-10", kind: .task, link: "task-1", minutesBefore: 1440)
    let first = try requests(reminder, task: Self.taxReturn(due: "2026-05-08T17:00+02:00"))
    #expect(first.map(\.id) == ["reminder-10"])
    #expect(first.first?.trigger == .local(date(2026, 5, 7), wallTime("17:00")))
    #expect(first.first?.title == "Tax return is due")
    #expect(first.first?.body == "Due Fri 2026-05-08 17:00 (in 1 day).")
    #expect(first.first?.category == .taskReminder)
    #expect(first.first?.metadata?.link == RequestMetadata.Link(id: "task-1", name: "Tax return"))
    #expect(first.first?.metadata?.lookBack == nil)
    // The due date moves: so does the reminder (docs/reminders.md: next Sun 2026-05-10 12:00).
    let moved = try requests(reminder, task: Self.taxReturn(due: "2026-05-11T12:00+02:00"))
    #expect(moved.first?.trigger == .local(date(2026, 5, 10), wallTime("12:00")))
    #expect(moved.first?.body == "Due Mon 2026-05-11 12:00 (in 1 day).")
  }

  @Test(
    arguments: [
      (nil, "2026-05-08T16:00+02:00", "in 1 hour"),
      (90, "2026-05-08T15:30+02:00", "in 90 minutes"),
      (120, "2026-05-08T15:00+02:00", "in 2 hours"),
      (2880, "2026-05-06T17:00+02:00", "in 2 days"),
    ] as [(Int?, String, String)])
  func aTaskReminderLeadsByAnHourByDefaultOrItsOwnOffset(
    minutes: Int?, fires: String, lead: String
  ) throws {
    let reminder = Reminder(id: "reminder-10", kind: .task, link: "task-1", minutesBefore: minutes)
    let made = try requests(reminder, task: Self.taxReturn(due: "2026-05-08T17:00+02:00"))
    let firing = stamp(fires)
    #expect(made.first?.trigger == .local(firing.localDate, firing.timeOfDay))
    #expect(made.first?.body == "Due Fri 2026-05-08 17:00 (\(lead)).")
  }

  @Test func aDoneTaskHasNoReminder() throws {
    let reminder = Reminder(id: "reminder-10", kind: .task, link: "task-1")
    let done = Self.taxReturn(due: "2026-05-08T17:00+02:00", doneAt: "2026-05-07T10:00+02:00")
    #expect(try requests(reminder, task: done).isEmpty)
  }
}
