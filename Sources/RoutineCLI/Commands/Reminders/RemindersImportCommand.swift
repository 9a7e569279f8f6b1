import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders import FILE`
enum RemindersImportCommand: Command {
  static let spec = CommandSpec(
    name: "reminders import",
    summary: "Read reminder, habit and task definitions from JSON (as 'reminders export' writes).",
    discussion: """
      Everything is checked first, and an error names the field ('reminders[2].schedule.at:
      expected HH:MM'); then all is added in one transaction, or nothing. Definitions whose id
      exists are left as they are (importing twice adds nothing); removed ids stay removed. A
      definition without an id is already present when one here equals it in every other field.
      The file is read whole, at most 16 MiB, with arrays and objects nested at most \(JSONValue.maximumDepth) deep.
      """,
    arguments: [ArgumentSpec("FILE", "The JSON file, or - for standard input.", completes: .file)],
    globals: ["store", "json"])

  /// The largest definitions file read (docs/formats.md): thousands of reminders fit many times.
  static let maximumBytes = 16 << 20

  static func run(_ context: Context) throws -> ExitCode {
    let path = context.arguments.arguments[0]
    let name = displayName(path)
    // The file and its parsed document are gone before the store is written: only the
    // definitions stay.
    let (habits, tasks, reminders) = try definitions(path: path, name: name)
    let now = try context.nowSeconds()
    var added = 0
    var kept: [String] = []
    var refused: [String] = []
    // Ids are numbered per store: the same id can name another definition here. It is left as
    // it is, and said (never silently taken for the one in the file).
    var differing: [String] = []
    func same(_ stored: JSON, _ imported: JSON) -> Bool {
      stored.serialized() == imported.serialized()
    }
    try context.writing { store, settings, zone in
      // A definition without an id is already here when one here equals it in every field but
      // the id (docs/reminders.md): a file written by hand can be imported again, and a
      // definition given twice is added once.
      func taskKey(_ task: TodoTask) -> String {
        var task = task
        task.id = ""
        return Definitions.taskJSON(task, zone: zone).serialized()
      }
      func reminderKey(_ reminder: Reminder) -> String {
        var reminder = reminder
        reminder.id = ""
        return ReminderFormatting.json(reminder).serialized()
      }
      var tasksHere: [String: String] = [:]
      for task in try store.tasks() where tasksHere[taskKey(task)] == nil {
        tasksHere[taskKey(task)] = task.id
      }
      var remindersHere: [String: String] = [:]
      for reminder in try store.reminders() where remindersHere[reminderKey(reminder)] == nil {
        remindersHere[reminderKey(reminder)] = reminder.id
      }
      for habit in habits {
        if try store.isDeleted(habit.id) { refused.append(habit.id); continue }
        if !habit.id.isEmpty, let existing = try store.habit(id: habit.id) {
          kept.append(habit.id)
          if !same(Definitions.habitJSON(existing), Definitions.habitJSON(habit)) {
            differing.append(habit.id)
          }
          continue
        }
        if let same = try store.habit(id: habit.name.name) {
          var probe = habit
          probe.id = same.id
          if habit.id.isEmpty,
            Definitions.habitJSON(same).serialized() == Definitions.habitJSON(probe).serialized()
          {
            kept.append(same.id)
            continue
          }
          throw CommandError(
            .dataError,
            "\(name): habit '\(habit.name.name)' exists already as \(same.id); a habit's name is its own"
          )
        }
        try store.addHabit(habit)
        added += 1
      }
      for task in tasks {
        if try store.isDeleted(task.id) { refused.append(task.id); continue }
        if !task.id.isEmpty, let existing = try store.task(id: task.id) {
          kept.append(task.id)
          if !same(
            Definitions.taskJSON(existing, zone: zone), Definitions.taskJSON(task, zone: zone))
          {
            differing.append(task.id)
          }
          continue
        }
        if task.id.isEmpty, let id = tasksHere[taskKey(task)] {
          kept.append(id)
          continue
        }
        let stored = try store.addTask(task)
        if tasksHere[taskKey(stored)] == nil { tasksHere[taskKey(stored)] = stored.id }
        added += 1
      }
      let clock = context.clockStyle(settings)
      for (index, imported) in reminders.enumerated() {
        var reminder = imported
        if try store.isDeleted(reminder.id) { refused.append(reminder.id); continue }
        if !reminder.id.isEmpty, let existing = try store.reminder(id: reminder.id) {
          kept.append(reminder.id)
          if !same(ReminderFormatting.json(existing), ReminderFormatting.json(reminder)) {
            differing.append(reminder.id)
          }
          continue
        }
        if reminder.id.isEmpty, let id = remindersHere[reminderKey(reminder)] {
          kept.append(id)
          continue
        }
        if let link = reminder.link, try store.habit(id: link) == nil,
          try store.task(id: link) == nil
        {
          throw CommandError(
            .dataError,
            "\(name): reminders[\(index)].link: '\(link)' is neither a habit nor a task here")
        }
        // What `reminders add` refuses, an import refuses too, naming the reminder.
        var warning: String?
        do {
          try RemindersAddCommand.check(
            &reminder, store: store, clock: clock, warning: &warning, importing: true)
        } catch let error as CommandError {
          throw CommandError(.dataError, "\(name): reminders[\(index)]: \(error.message)")
        }
        // As the check leaves it (a reminder without days is disabled), it may be one here.
        if reminder.id.isEmpty, let id = remindersHere[reminderKey(reminder)] {
          kept.append(id)
          continue
        }
        if let warning { context.warn("\(name): reminders[\(index)]: \(warning)") }
        let stored = try store.addReminder(reminder, now: now)
        if let saved = try store.reminder(id: stored.id), remindersHere[reminderKey(saved)] == nil {
          remindersHere[reminderKey(saved)] = saved.id
        }
        added += 1
      }
      if context.isJSON {
        context.output.line(
          JSON.object([
            ("added", .integer(added)), ("present", .array(kept.map(JSON.string))),
            ("refused", .array(refused.map(JSON.string))),
            ("differing", .array(differing.map(JSON.string))),
          ]).serialized())
      } else {
        let different =
          differing.isEmpty
          ? ""
          : differing.count == 1
            ? " (\(differing[0]) differs here and was left as it is)"
            : " (\(differing.joined(separator: ", ")) differ here and were left as they are)"
        context.output.line(
          "\(name): \(counted(added, "definition")) added, \(kept.count) already present\(different)"
            + (refused.isEmpty
              ? "."
              : ", \(refused.count) removed before and left out (\(refused.joined(separator: ", "))).")
        )
      }
      try context.output.deliver()
    }
    return .ok
  }
}

extension RemindersImportCommand {
  /// The habits, tasks and reminders of the definitions file at `path` (`name` in messages),
  /// checked field by field. The file is read whole (at most ``maximumBytes``) into a compact
  /// document (``JSONValue``), and both are freed on return.
  static func definitions(path: String, name: String) throws -> (
    [Habit], [TodoTask], [Reminder]
  ) {
    let document: JSONValue
    do {
      guard let bytes = try FileSystem.contents(of: path, limit: maximumBytes) else {
        throw CommandError(
          .dataError, "\(name): expected at most 16 MiB of definitions, found more")
      }
      document = try JSONValue.parse(bytes)
    } catch let error as JSONValue.ParseError {
      throw CommandError(.dataError, "\(name) \(error) (the file is not valid JSON)")
    }
    guard case .object = document else {
      throw CommandError(
        .dataError,
        "\(name): expected a JSON object with habits, tasks and reminders, found \(Definitions.Reader(object: document).kind(of: document))"
      )
    }
    let reader = Definitions.Reader(object: document)
    do {
      return (try reader.habits(), try reader.tasks(), try reader.reminders())
    } catch let error as Definitions.FieldError {
      throw CommandError(.dataError, "\(name): \(error)")
    }
  }
}
