import Foundation
import RoutineCore
import RoutineStore

/// The options that define a reminder, shared by `reminders add` and `reminders edit`, and how
/// they become a ``Reminder``.
enum ReminderOptions {
  static let options: [OptionSpec] = [
    .value(
      "activity", "KIND",
      "An activity reminder: mindfulness, workout, noalc, or any event kind; skipped when it was logged in the look-back.",
      completes: .kind),
    .value("text", "TEXT", "A reminder with your own text."),
    .value("habit", "HABIT", "A reminder for a habit (its name or id).", completes: .habit),
    .value("task", "TASK", "A reminder for a task (its name or id).", completes: .task),
    .value(
      "at", "TIME",
      "When: a time of day (09:00, 9am), or a date and time ('2026-05-01 09:00', 'fri 9am', '+2h') for a one-time reminder."
    ),
    .value(
      "window", "HH:MM-HH:MM", "A trigger window (activity): fires at its start, shows its end."),
    .value(
      "days", "LIST", "mon,tue,..., mon-fri, weekdays, weekends, daily or none (a weekly reminder)."
    ),
    .value(
      "day", "N",
      "A day of the month, 1-31 (a monthly reminder; the 31st is the last day of shorter months)."),
    .value("repeat", "once|daily|weekly|monthly", "How often (default: from --at, --days, --day)."),
    .value(
      "lookback", "HOURS", "Activity: hours before it fires that count (1, 3, 6, 12, 24 or 48)."),
    .value(
      "before-window", "MINUTES",
      "Habit: fire this many minutes before the habit's window (the default is its start)."),
    .value("before", "DURATION", "Task: how long before the due date (1h, 1d, 90m; default 1h)."),
    .value("title", "TEXT", "A title instead of the default."),
    .value("message", "TEXT", "A message instead of the default."),
    .value("style", "notification|alarm", "An alarm rings again every 5 minutes until answered."),
  ]

  /// The first of the "what" options given.
  static func subject(_ context: Context) throws(UsageError) -> (Reminder.Kind, String)? {
    let given = [
      ("activity", Reminder.Kind.activity), ("text", .general), ("habit", .habit), ("task", .task),
    ]
    .compactMap { name, kind in context.arguments.value(name).map { (kind, $0, name) } }
    guard given.count <= 1 else {
      throw UsageError(
        "choose one of --activity, --text, --habit and --task, not \(given.map { "--\($0.2)" }.joined(separator: " and "))",
        command: context.command)
    }
    return given.first.map { ($0.0, $0.1) }
  }

  /// `reminder` with the options applied (for `add`, a new reminder of `kind`); checks that the
  /// result can fire.
  static func apply(
    _ context: Context, to reminder: Reminder, store: EventStore?, zone: Zone, now: Date
  ) throws -> Reminder {
    let arguments = context.arguments
    var reminder = reminder
    func invalid(_ option: String, _ expected: String, _ found: String) -> UsageError {
      UsageError("--\(option): expected \(expected), found '\(found)'", command: context.command)
    }
    if let (kind, value) = try subject(context) {
      guard kind == reminder.kind else {
        throw UsageError(
          "'\(reminder.id)' is \(reminder.kind == .activity ? "an" : "a") \(reminder.kind.rawValue) reminder; --\(kind == .general ? "text" : kind.rawValue) does not apply",
          command: context.command)
      }
      switch kind {
      case .activity:
        reminder.preset = ActivityPreset(named: value)
        guard let activity = reminder.preset?.kind ?? EventKind(value) else {
          throw invalid("activity", "an event kind", value)
        }
        reminder.activity = activity
      case .general:
        guard !value.trimmingBlanks.isEmpty else {
          throw invalid("text", "some text", value)
        }
        reminder.message = value
      case .habit:
        guard let habit = try store?.habit(id: value) else {
          throw CommandError(
            .dataError, "there is no habit '\(value)'; 'routine habits' lists them")
        }
        reminder.link = habit.id
      case .task:
        guard let task = try store?.task(id: value) else {
          throw CommandError(.dataError, "there is no task '\(value)'; 'routine tasks' lists them")
        }
        reminder.link = task.id
      }
    }
    if let text = arguments.value("title") { reminder.title = text.isEmpty ? nil : text }
    if let text = arguments.value("message") {
      // A text reminder's text is its message: two options for one field would overwrite
      // each other.
      guard reminder.kind != .general else {
        throw UsageError(
          "--message does not apply to a --text reminder: its text is the message (change it with --text; --title gives it a title)",
          command: context.command)
      }
      reminder.message = text.isEmpty ? nil : text
    }
    if let text = arguments.value("style") {
      guard let style = Reminder.Style(rawValue: text.lowercased()) else {
        throw invalid("style", "notification or alarm", text)
      }
      reminder.style = style
    }
    if let text = arguments.value("lookback") {
      guard reminder.kind == .activity else {
        throw UsageError("--lookback applies to activity reminders", command: context.command)
      }
      guard let hours = Int(text), Reminder.lookBackChoices.contains(hours) else {
        throw invalid("lookback", "1, 3, 6, 12, 24 or 48 hours", text)
      }
      reminder.lookBackHours = hours
    }
    if let text = arguments.value("before") {
      guard reminder.kind == .task else {
        throw UsageError("--before applies to task reminders", command: context.command)
      }
      guard let minutes = duration(text) else {
        throw invalid("before", "a duration like 1h, 1d, 90m or 0", text)
      }
      reminder.minutesBefore = minutes
    }
    if let text = arguments.value("before-window") {
      guard reminder.kind == .habit else {
        throw UsageError("--before-window applies to habit reminders", command: context.command)
      }
      guard let minutes = Int(text), (1...720).contains(minutes) else {
        throw invalid("before-window", "minutes from 1 to 720", text)
      }
      reminder.habitTiming = .beforeWindow(minutes: minutes)
    }
    try applySchedule(context, to: &reminder, zone: zone, now: now)
    return reminder
  }

  /// The schedule options: `--at`, `--window`, `--days`, `--day`, `--repeat`.
  private static func applySchedule(
    _ context: Context, to reminder: inout Reminder, zone: Zone, now: Date
  ) throws {
    let arguments = context.arguments
    func invalid(_ option: String, _ expected: String, _ found: String) -> UsageError {
      UsageError("--\(option): expected \(expected), found '\(found)'", command: context.command)
    }
    let names = ["at", "window", "days", "day", "repeat"]
    let given = names.filter { arguments.value($0) != nil }
    if reminder.kind == .task {
      if let option = given.first {
        throw UsageError(
          "--\(option) does not apply to a task reminder: it fires --before the task's due date",
          command: context.command)
      }
      return
    }
    if reminder.kind == .habit, given.isEmpty { return }
    var schedule =
      reminder.schedule
      ?? ReminderSchedule(
        repetition: reminder.kind == .activity ? .weekly : .daily,
        time: reminder.preset?.time ?? TimeOfDay(hour: 9, minute: 0)!)
    var date: LocalDate?
    if let text = arguments.value("at") {
      if let time = TimeArgument.clockTime(text) {
        // A time alone is the time it repeats at: firings are on the minute.
        guard time.secondsSinceMidnight % 60 == 0 else {
          throw invalid(
            "at", "HH:MM, a time of day on the minute (09:00, 9am, 7:30 pm, noon)", text)
        }
        schedule.time = time
      } else if reminder.kind == .general {
        switch try TimeArgument.read(
          text, option: "at", now: now, zone: zone, meaning: .upcoming, command: context.command)
        {
        case .instant(let stamp):
          // An instant (given with an offset, or `+90m`): as the user's clock reads it (so that
          // `date --iso-8601=minutes` names the same moment whatever the system's zone).
          let local = TimeArgument.stamp(stamp.secondsSince1970, zone)
          date = local.localDate
          schedule.time = local.timeOfDay
        case .wallClock(let day, let time?):
          // Kept as typed, a time in a gap too: the time rules resolve it at the firing.
          date = day
          schedule.time = time
        case .wallClock(_, nil):
          throw invalid("at", "a time with the date, like '2026-05-01 09:00' or 'fri 9am'", text)
        }
      } else {
        throw invalid("at", "HH:MM, a time of day on the minute (09:00, 9am, 7:30 pm, noon)", text)
      }
      if reminder.kind == .habit { reminder.habitTiming = .at(schedule.time) }
    }
    if let text = arguments.value("window") {
      guard reminder.kind == .activity else {
        throw UsageError(
          "--window applies to activity reminders (habits have their own: 'routine habits add --window')",
          command: context.command)
      }
      switch HabitsAddCommand.window(text) {
      case .success(let window):
        schedule.time = window.lowerBound
        schedule.windowEnd = window.upperBound
      case .failure(let problem):
        throw UsageError("--window: \(problem.message)", command: context.command)
      }
    }
    var givenDays: WeekdaySet?
    if let text = arguments.value("days") {
      guard let days = WeekdaySet(parsing: text) else {
        throw invalid("days", "mon,tue,..., mon-fri, weekdays, weekends, daily or none", text)
      }
      schedule.weekdays = days
      givenDays = days
      if reminder.kind != .activity { schedule.repetition = days == .everyDay ? .daily : .weekly }
    }
    if let text = arguments.value("day") {
      guard let day = Int(text), (1...31).contains(day) else {
        throw invalid("day", "a day of the month from 1 to 31", text)
      }
      guard reminder.kind != .activity else {
        throw UsageError(
          "--day does not apply to activity reminders: use --days", command: context.command)
      }
      schedule.dayOfMonth = day
      schedule.repetition = .monthly
    }
    if let date {
      schedule.date = date
      schedule.repetition = .once
    }
    if let text = arguments.value("repeat") {
      guard let repetition = Repetition(rawValue: text.lowercased()) else {
        throw invalid("repeat", "once, daily, weekly or monthly", text)
      }
      guard reminder.kind != .activity || repetition == .weekly || repetition == .daily else {
        throw UsageError("activity reminders repeat on their --days", command: context.command)
      }
      try checkRepeat(repetition, days: givenDays, against: schedule, kind: reminder.kind, context)
      schedule.repetition = repetition
      if repetition == .daily { schedule.weekdays = .everyDay }
    }
    if reminder.kind == .activity { schedule.repetition = .weekly }
    do throws(DefinitionProblem) {
      try schedule.validate()
    } catch {
      throw usage(error, context)
    }
    // A habit reminder given only a time keeps to the habit's days and pattern.
    if reminder.kind == .habit, reminder.schedule == nil, given == ["at"] { return }
    reminder.schedule = schedule
  }

  /// Refuses a `--repeat` the other options contradict, rather than let one silently win:
  /// `--repeat daily --days mon` dropped the days, `--repeat weekly` without days fired daily.
  private static func checkRepeat(
    _ repetition: Repetition, days: WeekdaySet?, against schedule: ReminderSchedule,
    kind: Reminder.Kind, _ context: Context
  ) throws(UsageError) {
    let arguments = context.arguments
    func conflict(_ text: String) -> UsageError {
      UsageError("--repeat \(repetition.rawValue): \(text)", command: context.command)
    }
    let monthly = "--day says monthly; leave out one of them"
    switch repetition {
    case .daily:
      if let days, days != .everyDay {
        throw conflict("--days \(arguments.value("days")!) says weekly; leave out one of them")
      }
      if arguments.value("day") != nil { throw conflict(monthly) }
    case .weekly:
      if arguments.value("day") != nil { throw conflict(monthly) }
      // An activity reminder is weekly on its days anyway (every day by default).
      if kind != .activity, days == nil, schedule.weekdays == .everyDay {
        throw conflict("which days? give --days (mon,wed or weekdays); every day is --repeat daily")
      }
    case .monthly:
      if arguments.value("days") != nil {
        throw conflict("--days says weekly; a monthly reminder takes --day N")
      }
    case .once:
      if arguments.value("days") != nil || arguments.value("day") != nil {
        throw conflict("a one-time reminder takes a date in --at, not --days or --day")
      }
    }
  }

  /// A definition's problem as a usage error, in the words of the options that set it.
  static func usage(_ problem: DefinitionProblem, _ context: Context) -> UsageError {
    let text: String
    switch problem {
    case .monthlyWithoutDay: text = "--repeat monthly needs --day N"
    case .onceWithoutDate: text = "--repeat once needs a date in --at ('2026-05-01 09:00')"
    default: text = problem.description
    }
    return UsageError(text, command: context.command)
  }

  /// `90m`, `1h`, `1d`, `2h30m`, `45` (minutes), `0`: a duration in minutes.
  static func duration(_ text: String) -> Int? {
    var total = 0
    var number = ""
    var sawUnit = false
    for character in text.lowercased() {
      if character.isNumber {
        number.append(character)
        continue
      }
      guard let value = Int(number) else { return nil }
      let unit: Int
      switch character {
      case "m": unit = 1
      case "h": unit = 60
      case "d": unit = 1440
      default: return nil
      }
      // A number too large to count is no duration (the lead's bound is checked later).
      let (minutes, overflow) = value.multipliedReportingOverflow(by: unit)
      let (sum, overflowAgain) = total.addingReportingOverflow(minutes)
      guard !overflow, !overflowAgain else { return nil }
      total = sum
      number = ""
      sawUnit = true
    }
    if !number.isEmpty {
      guard let value = Int(number), !sawUnit else { return nil }
      let (sum, overflow) = total.addingReportingOverflow(value)
      guard !overflow else { return nil }
      total = sum
    }
    return text.isEmpty ? nil : total
  }
}
