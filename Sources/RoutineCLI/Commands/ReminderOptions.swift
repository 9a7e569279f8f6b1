import Foundation
import RoutineCore
import RoutineStore

/// The options that define a reminder, shared by `reminders add` and `reminders edit`, and how
/// they become a ``Reminder``.
enum ReminderOptions {
  /// `--activity KIND`.
  static let activity = Option(
    "activity", .text("KIND", completes: .kind),
    "An activity reminder: mindfulness, workout, noalc, or any event kind; skipped when it was logged in the look-back."
  )
  /// `--text TEXT`.
  static let text = Option("text", .text("TEXT"), "A reminder with your own text.")
  /// `--habit HABIT`.
  static let habit = Option(
    "habit", .text("HABIT", completes: .habit), "A reminder for a habit (its name or id).")
  /// `--task TASK`.
  static let task = Option(
    "task", .text("TASK", completes: .task), "A reminder for a task (its name or id).")
  /// `--at TIME`: read by the command, since a date in it needs the clock and the zone.
  static let at = Option(
    "at", .time(),
    "When: a time of day (09:00, 9am), or a date and time ('2026-05-01 09:00', 'fri 9am', '+2h') for a one-time reminder."
  )
  /// `--window HH:MM-HH:MM`.
  static let window = Option(
    "window", .window, "A trigger window (activity): fires at its start, shows its end.")
  /// `--days LIST`.
  static let days = Option(
    "days", .weekdays(),
    "mon,tue,..., mon-fri, weekdays, weekends, daily or none (a weekly reminder).")
  /// `--day N`.
  static let day = Option(
    "day", .dayOfMonth,
    "A day of the month, 1-31 (a monthly reminder; the 31st is the last day of shorter months).")
  /// `--repeat once|daily|weekly|monthly`.
  static let `repeat` = Option(
    "repeat", .oneOf(Repetition.allCases), "How often (default: from --at, --days, --day).")
  /// `--lookback HOURS`: the choices are ``Reminder/lookBackChoices``, and only they.
  static let lookback = Option(
    "lookback", .integer("HOURS", oneOf: Reminder.lookBackChoices, unit: "hours"),
    "Activity: hours before it fires that count.")
  /// `--before-window MINUTES`.
  static let beforeWindow = Option(
    "before-window", .minutesBeforeWindow,
    "Habit: fire this many minutes before the habit's window (the default is its start).")
  /// `--before DURATION`.
  static let before = Option(
    "before", .duration, "Task: how long before the due date (1h, 1d, 90m; default 1h).")
  /// `--title TEXT`.
  static let title = Option("title", .text("TEXT"), "A title instead of the default.")
  /// `--message TEXT`.
  static let message = Option("message", .text("TEXT"), "A message instead of the default.")
  /// `--style notification|alarm`.
  static let style = Option(
    "style", .oneOf(Reminder.Style.allCases),
    "An alarm rings again every 5 minutes until answered.")

  /// `--adapt auto|on|off`.
  static let adapt = Option(
    "adapt", .oneOf(AdaptationMode.allCases),
    "on: its time follows your answers and it pauses while you keep the habit; off: never adapts; auto (default): only backs off when ignored."
  )

  /// Whether a reminder's firings may be held while you are away (``Reminder/hold``).
  enum HoldChoice: String, CaseIterable, Sendable {
    /// The default: held, but alarms and task reminders ring.
    case auto
    /// Held too (an alarm or a task reminder).
    case on
    /// Never held.
    case off

    /// The reminder's field.
    var hold: Bool? {
      switch self {
      case .auto: nil
      case .on: true
      case .off: false
      }
    }

    /// The choice a reminder's field makes.
    init(_ hold: Bool?) { self = hold.map { $0 ? .on : .off } ?? .auto }
  }

  /// `--hold auto|on|off`.
  static let hold = Option(
    "hold", .oneOf(HoldChoice.allCases),
    "on: held while you are away or in quiet hours, alarms and task reminders too; off: never held; auto (default): held, but alarms and tasks ring."
  )

  static let options: [OptionSpec] = [
    activity.spec, text.spec, habit.spec, task.spec, at.spec, window.spec, days.spec, day.spec,
    `repeat`.spec, lookback.spec, beforeWindow.spec, before.spec, title.spec, message.spec,
    style.spec, adapt.spec, hold.spec,
  ]

  /// The first of the "what" options given.
  static func subject(_ context: Context) throws(UsageError) -> (Reminder.Kind, String)? {
    let given = [
      (activity, Reminder.Kind.activity), (text, .general), (habit, .habit), (task, .task),
    ]
    .compactMap { option, kind in context.arguments.text(option).map { (kind, $0, option.name) } }
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
    func invalid(_ option: Option<String>, _ expected: String, _ found: String) -> UsageError {
      UsageError(
        "--\(option.name): expected \(expected), found '\(found)'", command: context.command)
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
          throw invalid(activity, "an event kind", value)
        }
        reminder.activity = activity
      case .general:
        guard !value.trimmingBlanks.isEmpty else {
          throw invalid(Self.text, "some text", value)
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
    if let text = arguments.text(title) { reminder.title = text.isEmpty ? nil : text }
    if let text = arguments.text(message) {
      // A text reminder's text is its message: two options for one field would overwrite
      // each other.
      guard reminder.kind != .general else {
        throw UsageError(
          "--message does not apply to a --text reminder: its text is the message (change it with --text; --title gives it a title)",
          command: context.command)
      }
      reminder.message = text.isEmpty ? nil : text
    }
    if let style = try arguments.value(style) { reminder.style = style }
    if let mode = try arguments.value(adapt) { reminder.adapt = mode }
    if let choice = try arguments.value(hold) { reminder.hold = choice.hold }
    if let hours = try arguments.value(lookback) {
      guard reminder.kind == .activity else {
        throw UsageError("--lookback applies to activity reminders", command: context.command)
      }
      reminder.lookBackHours = hours
    }
    if let minutes = try arguments.value(before) {
      guard reminder.kind == .task else {
        throw UsageError("--before applies to task reminders", command: context.command)
      }
      reminder.minutesBefore = minutes
    }
    if let minutes = try arguments.value(beforeWindow) {
      guard reminder.kind == .habit else {
        throw UsageError("--before-window applies to habit reminders", command: context.command)
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
    func invalid(_ option: Option<String>, _ expected: String, _ found: String) -> UsageError {
      UsageError(
        "--\(option.name): expected \(expected), found '\(found)'", command: context.command)
    }
    let given = [at.spec, window.spec, days.spec, day.spec, `repeat`.spec].map(\.name).filter {
      arguments.value($0) != nil
    }
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
    if let text = arguments.text(at) {
      if let time = TimeArgument.clockTime(text) {
        // A time alone is the time it repeats at: firings are on the minute.
        guard time.secondsSinceMidnight % 60 == 0 else {
          throw invalid(
            at, "HH:MM, a time of day on the minute (09:00, 9am, 7:30 pm, noon)", text)
        }
        schedule.time = time
      } else if reminder.kind == .general {
        switch try TimeArgument.read(
          text, option: at.name, now: now, zone: zone, meaning: .upcoming, command: context.command)
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
          throw invalid(at, "a time with the date, like '2026-05-01 09:00' or 'fri 9am'", text)
        }
      } else {
        throw invalid(at, "HH:MM, a time of day on the minute (09:00, 9am, 7:30 pm, noon)", text)
      }
      if reminder.kind == .habit { reminder.habitTiming = .at(schedule.time) }
    }
    if let window = try arguments.value(window) {
      guard reminder.kind == .activity else {
        throw UsageError(
          "--window applies to activity reminders (habits have their own: 'routine habits add --window')",
          command: context.command)
      }
      schedule.time = window.lowerBound
      schedule.windowEnd = window.upperBound
    }
    var givenDays: WeekdaySet?
    if let days = try arguments.value(days) {
      schedule.weekdays = days
      givenDays = days
      if reminder.kind != .activity { schedule.repetition = days == .everyDay ? .daily : .weekly }
    }
    if let day = try arguments.value(day) {
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
    if let repetition = try arguments.value(`repeat`) {
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
        throw conflict("--days \(arguments.text(Self.days)!) says weekly; leave out one of them")
      }
      if arguments.isGiven(day) { throw conflict(monthly) }
    case .weekly:
      if arguments.isGiven(day) { throw conflict(monthly) }
      // An activity reminder is weekly on its days anyway (every day by default).
      if kind != .activity, days == nil, schedule.weekdays == .everyDay {
        throw conflict("which days? give --days (mon,wed or weekdays); every day is --repeat daily")
      }
    case .monthly:
      if arguments.isGiven(Self.days) {
        throw conflict("--days says weekly; a monthly reminder takes --day N")
      }
    case .once:
      if arguments.isGiven(Self.days) || arguments.isGiven(day) {
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

extension ValueType where Value == WeekdaySet {
  /// `mon,wed`, `mon-fri`, `weekdays`, `weekends`, `daily` or (unless `allowsNone` is false)
  /// `none`, as ``WeekdaySet/init(parsing:)`` reads them.
  static func weekdays(allowsNone: Bool = true) -> Self {
    ValueType(
      placeholder: "LIST",
      expected: allowsNone
        ? "mon,tue,..., mon-fri, weekdays, weekends, daily or none"
        : "mon,tue,..., mon-fri, weekdays, weekends or daily"
    ) { text in
      WeekdaySet(parsing: text).flatMap { allowsNone || !$0.isEmpty ? $0 : nil }
    }
  }
}

extension ValueType where Value == ClosedRange<TimeOfDay> {
  /// `HH:MM-HH:MM` within one day, the start not after the end.
  static var window: Self {
    ValueType(placeholder: "HH:MM-HH:MM", expected: "HH:MM-HH:MM with the start before the end") {
      try? HabitsAddCommand.window($0).get()
    }
  }
}

extension ValueType where Value == Int {
  /// A day of the month, 1 to 31.
  static var dayOfMonth: Self {
    var type = integer("N", in: 1...31)
    type.expected = "a day of the month from 1 to 31"
    return type
  }

  /// How many minutes before a habit's window a reminder fires.
  static var minutesBeforeWindow: Self {
    var type = integer("MINUTES", in: 1...720)
    type.expected = "minutes from 1 to 720"
    return type
  }

  /// A duration in minutes (`1h`, `1d`, `90m`, `2h30m`, `45`, `0`), as
  /// ``ReminderOptions/duration(_:)`` reads it; whether it is too long is checked later.
  static var duration: Self {
    ValueType(placeholder: "DURATION", expected: "a duration like 1h, 1d, 90m or 0") {
      ReminderOptions.duration($0)
    }
  }
}
