import Foundation
import RoutineCore
import RoutineStore

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
    // Columns as 'habits' and 'reminders' have them: id, name (a long one runs over), due date,
    // whether done, its reminders.
    var linked: [String: [String]] = [:]
    for reminder in reminders {
      if let link = reminder.link { linked[link, default: []].append(reminder.id) }
    }
    let idWidth = tasks.map(\.id.count).max() ?? 0
    let nameWidth = min(tasks.map { TerminalText.escaped($0.name.name).count }.max() ?? 0, 24)
    let dues = tasks.map { "due \(TasksCommand.text($0.due))" }
    let dueWidth = dues.map(\.count).max() ?? 0
    let states = tasks.map { task in
      task.doneAt.map { "done \(EventFormatting.localDateTime($0))" } ?? "open"
    }
    let stateWidth = states.map(\.count).max() ?? 0
    for (index, task) in tasks.enumerated() {
      let ids = linked[task.id] ?? []
      context.output.line(
        ("  " + HelpFormatter.padded(task.id, to: idWidth + 2)
          + HelpFormatter.padded(TerminalText.escaped(task.name.name), to: nameWidth + 2)
          + HelpFormatter.padded(dues[index], to: dueWidth + 2)
          + HelpFormatter.padded(states[index], to: stateWidth + 2)
          + (ids.isEmpty ? "" : "reminders: \(ids.joined(separator: ", "))")).trimmingTrailingSpaces
      )
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

  /// `--due TIME`, read by ``due(_:zone:)``: what it means depends on the clock and the zone.
  static let due = Option("due", .time(), "A new due date.")

  /// The `--due` option: a wall-clock time in the user's zone (a date alone is
  /// ``DueTime/defaultTime`` that day; a time alone, today), or an instant when it has an offset.
  static func due(_ context: Context, zone: Zone) throws -> DueTime? {
    guard let text = context.arguments.text(due) else { return nil }
    let now = try context.requireNow()
    if let stamp = Timestamp(iso8601: text.trimmingBlanks) { return DueTime(pinnedTo: stamp) }
    switch try TimeArgument.read(
      text, option: due.name, now: now, zone: zone, meaning: .upcoming, command: context.command)
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
