import Foundation
import RoutineCore
import RoutineStore

/// `routine habits`
enum HabitsCommand: Command {
  static let subcommands: [any Command.Type] = [
    HabitsListCommand.self, HabitsAddCommand.self, HabitsEditCommand.self, HabitsRemoveCommand.self,
  ]
  static let spec = CommandSpec(
    name: "habits",
    summary: "List your habits: their days, time windows and reminders.",
    discussion: """
      A habit is something done on certain days, perhaps within a time window. Logging an event
      named like the habit counts as doing it: its reminders stay quiet that day.
      'routine reminders add --habit NAME' reminds of it.
      """,
    globals: ["store", "json"],
    subcommands: subcommands.map { $0.spec })

  static func run(_ context: Context) throws -> ExitCode {
    let store = try context.openExistingStore()
    let habits = try store?.habits() ?? []
    let reminders = try store?.reminders() ?? []
    if context.isJSON {
      context.output.line(
        JSON.object([("habits", .array(habits.map(Definitions.habitJSON)))]).serialized())
      return .ok
    }
    guard !habits.isEmpty else {
      context.output.line("No habits yet: 'routine habits add NAME' defines one.")
      return .ok
    }
    for habit in habits {
      let linked = reminders.filter { $0.link == habit.id }.map(\.id)
      context.output.line(
        "  \(habit.id)  \(TerminalText.escaped(habit.name.name))  \(pattern(habit))"
          + (linked.isEmpty ? "" : "  reminders: \(linked.joined(separator: ", "))"))
    }
    return .ok
  }

  /// `daily`, `weekly mon,wed`, `monthly on the 1st`, with the window.
  static func pattern(_ habit: Habit) -> String {
    var text: String
    switch habit.repetition {
    case .weekly: text = "weekly \(habit.weekdays)"
    case .monthly: text = "monthly on day \(habit.dayOfMonth ?? 1)"
    default: text = "daily"
    }
    if let window = habit.window { text += ", \(window.lowerBound)-\(window.upperBound)" }
    return text
  }
}

/// `routine habits list`: the same as `routine habits`.
enum HabitsListCommand: Command {
  static let spec = CommandSpec(
    name: "habits list", summary: "The same as 'routine habits': list your habits.",
    globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode { try HabitsCommand.run(context) }
}

/// `routine tasks list`: the same as `routine tasks`.
enum TasksListCommand: Command {
  static let spec = CommandSpec(
    name: "tasks list", summary: "The same as 'routine tasks': list your tasks.")

  static func run(_ context: Context) throws -> ExitCode { try TasksCommand.run(context) }
}

/// The options of `habits add` and `habits edit`.
enum HabitOptions {
  static let options: [OptionSpec] = [
    .value(
      "days", "LIST", "mon,tue,..., mon-fri, weekdays, weekends, daily or none (a weekly habit)."),
    .value("window", "HH:MM-HH:MM", "Its time window (or none)."),
    .value("repeat", "daily|weekly|monthly", "How often (default daily; --days makes it weekly)."),
    .value("day", "N", "Its day of the month (a monthly habit)."),
  ]

  static func apply(_ context: Context, to habit: inout Habit) throws(UsageError) {
    let arguments = context.arguments
    func invalid(_ option: String, _ expected: String, _ found: String) -> UsageError {
      UsageError("--\(option): expected \(expected), found '\(found)'", command: context.command)
    }
    if let text = arguments.value("days") {
      guard let days = WeekdaySet(parsing: text), !days.isEmpty else {
        throw invalid("days", "mon,tue,..., mon-fri, weekdays, weekends, daily or none", text)
      }
      habit.weekdays = days
      habit.repetition = days == .everyDay ? .daily : .weekly
    }
    if let text = arguments.value("day") {
      guard let day = Int(text), (1...31).contains(day) else {
        throw invalid("day", "a day of the month from 1 to 31", text)
      }
      habit.dayOfMonth = day
      habit.repetition = .monthly
    }
    if let text = arguments.value("repeat") {
      guard let repetition = Repetition(rawValue: text.lowercased()), repetition != .once else {
        throw invalid("repeat", "daily, weekly or monthly", text)
      }
      habit.repetition = repetition
    }
    if let text = arguments.value("window") {
      if text.lowercased() == "none" {
        habit.window = nil
      } else {
        switch HabitsAddCommand.window(text) {
        case .success(let window): habit.window = window
        case .failure(let problem):
          throw UsageError("--window: \(problem.message)", command: context.command)
        }
      }
    }
    do throws(DefinitionProblem) {
      try habit.validate()
    } catch {
      throw ReminderOptions.usage(error, context)
    }
  }
}

/// `routine habits add NAME [--days LIST] [--window HH:MM-HH:MM] [--repeat ...] [--day N]`
enum HabitsAddCommand: Command {
  static let spec = CommandSpec(
    name: "habits add", summary: "Define a habit.",
    arguments: [
      ArgumentSpec("NAME", "The habit, as you will log it (\"Stretch\").", repeatable: true)
    ],
    options: HabitOptions.options, globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    guard let name = EventKind(context.arguments.arguments.joined(separator: " ")) else {
      throw UsageError("NAME is empty", command: spec.name)
    }
    var habit = Habit(id: "", name: name)
    try HabitOptions.apply(context, to: &habit)
    try context.writing { store, _, _ in
      if try store.habit(id: name.name) != nil {
        throw CommandError(
          .dataError, "there is a habit '\(name.name)' already; 'routine habits edit' changes it")
      }
      let added = try store.addHabit(habit)
      if context.isJSON {
        context.output.line(JSON.object([("id", .string(added.id))]).serialized())
      } else {
        context.output.line(
          "Added \(added.id): \(TerminalText.escaped(name.name)), \(HabitsCommand.pattern(added)).")
      }
      try context.output.deliver()
    }
    return .ok
  }

  /// `07:00-07:30` as a range, or the error `problem` makes of a message.
  /// What is wrong with a habit's time window, as the end of a sentence.
  struct WindowProblem: Error { var message: String }

  /// Reads `HH:MM-HH:MM`; shared by `--window` and the definitions JSON.
  static func window(_ text: String) -> Result<ClosedRange<TimeOfDay>, WindowProblem> {
    let parts = text.split(separator: "-").map(String.init)
    guard parts.count == 2, let start = TimeArgument.minuteTime(parts[0]),
      let end = TimeArgument.minuteTime(parts[1])
    else { return .failure(WindowProblem(message: "expected HH:MM-HH:MM, found '\(text)'")) }
    guard start <= end else {
      return .failure(WindowProblem(message: "expected the start before the end, found '\(text)'"))
    }
    return .success(start...end)
  }
}

/// `routine habits edit NAME [--name NEW] [options]`
enum HabitsEditCommand: Command {
  static let spec = CommandSpec(
    name: "habits edit", summary: "Change a habit; its reminders follow.",
    arguments: [ArgumentSpec("HABIT", "The habit's name or id.", completes: .habit)],
    options: [.value("name", "NAME", "A new name.")] + HabitOptions.options,
    globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    try context.writing { store, _, _ in
      guard var habit = try store.habit(id: id) else {
        throw CommandError(.dataError, "there is no habit '\(id)'; 'routine habits' lists them")
      }
      if let text = context.arguments.value("name") {
        guard let name = EventKind(text) else {
          throw UsageError("--name: the name is empty", command: spec.name)
        }
        habit.name = name
      }
      try HabitOptions.apply(context, to: &habit)
      try store.updateHabit(habit)
      context.output.line(
        context.isJSON
          ? Definitions.habitJSON(habit).serialized()
          : "Changed \(habit.id): \(TerminalText.escaped(habit.name.name)), \(HabitsCommand.pattern(habit))."
      )
      // A reminder the change leaves unable to fire (its window gone) is disabled, as one
      // without days is: what is enabled can fire, so an export of it imports back as it is.
      let planner = ReminderPlanner(clock: context.clockStyle(try store.settings()))
      for reminder in try store.reminders() where reminder.link == habit.id && reminder.isEnabled {
        do {
          _ = try planner.requests(for: reminder, habit: habit, task: nil)
        } catch {
          var disabled = reminder
          disabled.isEnabled = false
          _ = try store.updateReminder(disabled, now: try context.nowSeconds())
          context.warn(
            "\(reminder.id) is disabled: \(error); 'routine reminders enable \(reminder.id)' once the habit allows it"
          )
        }
      }
      try context.output.deliver()
    }
    return .ok
  }
}

/// `routine habits remove NAME [--yes]`
enum HabitsRemoveCommand: Command {
  static let spec = CommandSpec(
    name: "habits remove", summary: "Remove a habit and its reminders, for good.",
    arguments: [ArgumentSpec("HABIT", "The habit's name or id.", completes: .habit)],
    options: [.flag("yes", "Remove without asking.")], globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    try LinkedRemoval.run(
      context, noun: "habit", list: "habits",
      find: { store, id in try store.habit(id: id).map { ($0.id, $0.name.name) } },
      remove: { store, id in try store.removeHabit(id: id) })
  }
}

/// `routine tasks`
enum TasksCommand: Command {
  static let subcommands: [any Command.Type] = [
    TasksListCommand.self, TasksAddCommand.self, TasksEditCommand.self, TasksDoneCommand.self,
    TasksRemoveCommand.self,
  ]
  static let spec = CommandSpec(
    name: "tasks",
    summary: "List your tasks: due dates, and whether they are done.",
    discussion: """
      A task has a due date; 'routine reminders add --task NAME --before 1h' reminds of it, and
      follows the due date when it changes. Answering 'done' marks the task done.
      """,
    subcommands: subcommands.map { $0.spec })

  static func run(_ context: Context) throws -> ExitCode {
    let store = try context.openExistingStore()
    let tasks = try store?.tasks() ?? []
    let reminders = try store?.reminders() ?? []
    let zone = try context.userTimeZone(try store?.settings() ?? PlannerSettings())
    if context.isJSON {
      context.output.line(
        JSON.object([("tasks", .array(tasks.map { Definitions.taskJSON($0, zone: zone) }))])
          .serialized())
      return .ok
    }
    guard !tasks.isEmpty else {
      context.output.line("No tasks yet: 'routine tasks add NAME --due TIME' defines one.")
      return .ok
    }
    for task in tasks {
      let linked = reminders.filter { $0.link == task.id }.map(\.id)
      context.output.line(
        "  \(task.id)  \(TerminalText.escaped(task.name.name))  due \(TasksCommand.text(task.due))"
          + (task.doneAt.map { "  done \(EventFormatting.localDateTime($0))" } ?? "")
          + (linked.isEmpty ? "" : "  reminders: \(linked.joined(separator: ", "))"))
    }
    return .ok
  }

  /// A due date already past is taken (a task can be late), with a warning: its reminders
  /// will not fire.
  static func warnIfPast(_ due: DueTime, zone: Zone, _ context: Context) throws {
    guard due.instant(in: zone) <= (try context.nowSeconds()) else { return }
    context.warn("\(text(due)) has passed, so its reminders will not fire")
  }

  /// `Fri 2026-03-27 12:00`, with the offset of a pinned instant: `Fri 2026-03-27 12:00
  /// (+00:00)`.
  static func text(_ due: DueTime) -> String {
    "\(due.date.weekdayName) \(due.date) \(EventFormatting.clock(due.time))"
      + (due.pinnedOffset.map {
        " (\(Timestamp(secondsSince1970: 0, utcOffsetSeconds: $0).offsetText))"
      } ?? "")
  }

  /// The `--due` option: a wall-clock time in the user's zone (a date alone is
  /// ``DueTime/defaultTime`` that day; a time alone, today), or an instant when it has an offset.
  static func due(_ context: Context, zone: Zone) throws -> DueTime? {
    guard let text = context.arguments.value("due") else { return nil }
    let now = try context.requireNow()
    if let stamp = Timestamp(iso8601: text.trimmingBlanks) { return DueTime(pinnedTo: stamp) }
    switch try TimeArgument.read(
      text, option: "due", now: now, zone: zone, meaning: .upcoming, command: context.command)
    {
    case .instant(let stamp):
      // An elapsed time (`in 2 hours`): the wall-clock time it reaches, as if typed.
      let local = TimeArgument.stamp(stamp.secondsSince1970, zone)
      return DueTime(date: local.localDate, time: local.timeOfDay)
    case .wallClock(let date, let time):
      return DueTime(date: date, time: time ?? DueTime.defaultTime)
    }
  }
}

/// `routine tasks add NAME --due TIME`
enum TasksAddCommand: Command {
  static let spec = CommandSpec(
    name: "tasks add", summary: "Define a task with a due date.",
    arguments: [ArgumentSpec("NAME", "The task (\"Taxes\").", repeatable: true)],
    options: [
      .value(
        "due", "TIME",
        "When it is due: '2026-05-01 17:00', 'tomorrow 9am', 'fri 5pm', ... (see 'routine help dates')."
      )
    ])

  static func run(_ context: Context) throws -> ExitCode {
    guard let name = EventKind(context.arguments.arguments.joined(separator: " ")) else {
      throw UsageError("NAME is empty", command: spec.name)
    }
    guard context.arguments.value("due") != nil else {
      throw UsageError("a task needs --due TIME", command: spec.name)
    }
    try context.writing { store, _, zone in
      let due = try TasksCommand.due(context, zone: zone)!
      try TasksCommand.warnIfPast(due, zone: zone, context)
      let added = try store.addTask(TodoTask(id: "", name: name, due: due))
      if context.isJSON {
        context.output.line(JSON.object([("id", .string(added.id))]).serialized())
      } else {
        context.output.line(
          "Added \(added.id): \(TerminalText.escaped(name.name)), due \(TasksCommand.text(due))."
        )
      }
      try context.output.deliver()
    }
    return .ok
  }
}

/// `routine tasks edit TASK [--name NAME] [--due TIME]`
enum TasksEditCommand: Command {
  static let spec = CommandSpec(
    name: "tasks edit", summary: "Change a task; its reminders follow the due date.",
    arguments: [ArgumentSpec("TASK", "The task's name or id.", completes: .task)],
    options: [
      .value("name", "NAME", "A new name."), .value("due", "TIME", "A new due date."),
      .flag("undone", "Mark it not done again."),
    ], globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    try context.writing { store, _, zone in
      guard var task = try store.task(id: id) else {
        throw CommandError(.dataError, "there is no task '\(id)'; 'routine tasks' lists them")
      }
      if let text = context.arguments.value("name") {
        guard let name = EventKind(text) else {
          throw UsageError("--name: the name is empty", command: spec.name)
        }
        task.name = name
      }
      if let due = try TasksCommand.due(context, zone: zone) {
        task.due = due
        if task.doneAt == nil { try TasksCommand.warnIfPast(due, zone: zone, context) }
      }
      if context.arguments.flag("undone") { task.doneAt = nil }
      try store.updateTask(task)
      context.output.line(
        context.isJSON
          ? Definitions.taskJSON(task, zone: zone).serialized()
          : "Changed \(task.id): \(TerminalText.escaped(task.name.name)), due \(TasksCommand.text(task.due))."
      )
      try context.output.deliver()
    }
    return .ok
  }
}

/// `routine tasks done TASK`
enum TasksDoneCommand: Command {
  static let spec = CommandSpec(
    name: "tasks done", summary: "Mark a task done: its reminders stop.",
    arguments: [ArgumentSpec("TASK", "The task's name or id.", completes: .task)],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.requireNow()
    try context.writing { store, _, zone in
      guard var task = try store.task(id: id) else {
        throw CommandError(.dataError, "there is no task '\(id)'; 'routine tasks' lists them")
      }
      if task.doneAt == nil { task.doneAt = Timestamp(now, in: zone) }
      try store.updateTask(task)
      context.output.line(
        context.isJSON
          ? Definitions.taskJSON(task, zone: zone).serialized()
          : "\(task.id) (\(TerminalText.escaped(task.name.name))) is done.")
      try context.output.deliver()
    }
    return .ok
  }
}

/// `routine tasks remove TASK [--yes]`
enum TasksRemoveCommand: Command {
  static let spec = CommandSpec(
    name: "tasks remove", summary: "Remove a task and its reminders, for good.",
    arguments: [ArgumentSpec("TASK", "The task's name or id.", completes: .task)],
    options: [.flag("yes", "Remove without asking.")], globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    try LinkedRemoval.run(
      context, noun: "task", list: "tasks",
      find: { store, id in try store.task(id: id).map { ($0.id, $0.name.name) } },
      remove: { store, id in try store.removeTask(id: id) })
  }
}

/// `habits remove` and `tasks remove`: asks (naming how many reminders go too), then removes
/// the definition and its reminders in one transaction.
enum LinkedRemoval {
  static func run(
    _ context: Context, noun: String, list: String,
    find: (EventStore, String) throws -> (id: String, name: String)?,
    remove: (EventStore, String) throws -> [String]?
  ) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    guard let store = try context.openExistingStore(), let found = try find(store, id) else {
      throw CommandError(.dataError, "there is no \(noun) '\(id)'; 'routine \(list)' lists them")
    }
    let linked = try store.reminders().filter { $0.link == found.id }.count
    let reminders = linked > 0 ? " and its \(counted(linked, "reminder"))" : ""
    let name = TerminalText.escaped(found.name)
    guard try context.confirm("Remove the \(noun) \(name) (\(found.id))\(reminders)?") else {
      context.output.line(
        context.isJSON
          ? JSON.object([("id", .string(found.id)), ("removed", .array([]))]).serialized()
          : "Nothing removed.")
      return .ok
    }
    try store.write {
      let removed = try remove(store, found.id) ?? []
      context.output.line(
        context.isJSON
          ? JSON.object([
            ("id", .string(found.id)),
            ("removed", .array(([found.id] + removed).map(JSON.string))),
          ]).serialized()
          : "Removed \(found.id)"
            + (removed.isEmpty ? "." : " and \(removed.joined(separator: ", ")).")
      )
      try context.output.deliver()
    }
    return .ok
  }
}
