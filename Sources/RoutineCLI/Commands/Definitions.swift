import Foundation
import RoutineCore
import RoutineStore

/// The JSON of reminder, habit and task definitions (docs/formats.md), for export and import.
enum Definitions {
  static func habitJSON(_ habit: Habit) -> JSON {
    var members: [(String, JSON)] = [
      ("id", .string(habit.id)), ("name", .string(habit.name.name)),
      ("repeat", .string(habit.repetition.rawValue)),
    ]
    if habit.repetition == .weekly { members.append(("days", .string(habit.weekdays.description))) }
    if let day = habit.dayOfMonth { members.append(("day", .integer(day))) }
    if let window = habit.window {
      members.append(("window", .string("\(window.lowerBound)-\(window.upperBound)")))
    }
    return .object(members)
  }

  /// A task: `due` is the instant it is due in `zone` (a wall-clock due time there, or the
  /// pinned instant with its own offset), `pinned` whether it is an instant.
  static func taskJSON(_ task: TodoTask, zone: Zone) -> JSON {
    .object([
      ("id", .string(task.id)), ("name", .string(task.name.name)),
      ("due", .string(task.due.timestamp(in: zone).iso8601)), ("pinned", .bool(task.due.isPinned)),
      ("done", .optional(task.doneAt?.iso8601)),
    ])
  }

  /// A problem at a field: `reminders[2].schedule.at: expected HH:MM, found '25:00'`.
  struct FieldError: Error, CustomStringConvertible {
    var field: String
    var message: String
    var description: String { "\(field): \(message)" }
  }

  /// Reads one definitions document.
  struct Reader {
    let object: JSONValue

    func string(_ value: JSONValue?, _ field: String, optional: Bool = false) throws -> String? {
      switch value {
      case nil, .null?:
        if optional { return nil }
        throw FieldError(field: field, message: "expected a string, found nothing")
      case .string(let text)?:
        return text
      case let value?:
        throw FieldError(field: field, message: "expected a string, found \(kind(of: value))")
      }
    }

    func int(_ value: JSONValue?, _ field: String) throws -> Int? {
      switch value {
      case nil, .null?:
        return nil
      case .integer(let number)?:
        return number
      // 3.0 and 3e0 are whole numbers too, as long as an Int holds them.
      case .number(let number)?
      where number.rounded() == number && number >= -0x1p63
        && number < 0x1p63:
        return Int(number)
      default:
        throw FieldError(field: field, message: "expected a whole number, found \(kind(of: value))")
      }
    }

    func time(_ value: JSONValue?, _ field: String) throws -> TimeOfDay? {
      guard let text = try string(value, field, optional: true) else { return nil }
      guard let time = TimeArgument.minuteTime(text) else {
        throw FieldError(field: field, message: "expected HH:MM, found '\(text)'")
      }
      return time
    }

    func kind(of value: JSONValue?) -> String {
      switch value {
      case .string?: "a string"
      case .bool?: "a boolean"
      case .integer?, .number?: "a number"
      case .array?: "an array"
      case .object?: "an object"
      case .null?, nil: "nothing"
      }
    }

    /// The objects of the array `key` (none when it is missing).
    func objects(_ key: String) throws -> [JSONValue] {
      guard let list = object[key] else { return [] }
      guard case .array(let items) = list,
        items.allSatisfy({ if case .object = $0 { true } else { false } })
      else {
        throw FieldError(field: key, message: "expected an array of objects")
      }
      return items
    }

    func habits() throws -> [Habit] {
      try objects("habits").enumerated().map { index, item in
        let field = "habits[\(index)]"
        guard let name = EventKind(try string(item["name"], "\(field).name") ?? "") else {
          throw FieldError(field: "\(field).name", message: "expected a name, found an empty one")
        }
        let repeatText = try string(item["repeat"], "\(field).repeat", optional: true) ?? "daily"
        guard let repetition = Repetition(rawValue: repeatText), repetition != .once else {
          throw FieldError(
            field: "\(field).repeat",
            message: "expected daily, weekly or monthly, found '\(repeatText)'")
        }
        var days = WeekdaySet.everyDay
        if let text = try string(item["days"], "\(field).days", optional: true) {
          guard let parsed = WeekdaySet(parsing: text) else {
            throw FieldError(
              field: "\(field).days",
              message:
                "expected mon,tue,..., mon-fri, weekdays, weekends, daily or none, found '\(text)'")
          }
          days = parsed
        }
        var window: ClosedRange<TimeOfDay>?
        if let text = try string(item["window"], "\(field).window", optional: true) {
          switch HabitsAddCommand.window(text) {
          case .success(let range): window = range
          case .failure(let problem):
            throw FieldError(field: "\(field).window", message: problem.message)
          }
        }
        let habit = Habit(
          id: try string(item["id"], "\(field).id", optional: true) ?? "", name: name,
          repetition: repetition, weekdays: days, dayOfMonth: try int(item["day"], "\(field).day"),
          window: window)
        do throws(DefinitionProblem) {
          try habit.validate()
        } catch {
          throw FieldError(field: "\(field).\(error.field)", message: error.description)
        }
        return habit
      }
    }

    func tasks() throws -> [TodoTask] {
      try objects("tasks").enumerated().map { index, item in
        let field = "tasks[\(index)]"
        guard let name = EventKind(try string(item["name"], "\(field).name") ?? "") else {
          throw FieldError(field: "\(field).name", message: "expected a name, found an empty one")
        }
        let dueText = try string(item["due"], "\(field).due") ?? ""
        guard let stamp = Timestamp(iso8601: dueText) else {
          throw FieldError(
            field: "\(field).due",
            message: "expected \(Timestamp.expectedFormat), found '\(dueText)'")
        }
        // A wall-clock due time is written with the offset it had where it was exported: its
        // local reading is the due time.
        // As JSONSerialization read it on Linux: `true`, or the number 1.
        let pinned: Bool
        switch item["pinned"] {
        case .bool(let flag)?: pinned = flag
        case .integer(let number)?: pinned = number == 1
        case .number(let number)?: pinned = number == 1
        default: pinned = false
        }
        let due =
          pinned
          ? DueTime(pinnedTo: stamp) : DueTime(date: stamp.localDate, time: stamp.timeOfDay)
        var done: Timestamp?
        if let text = try string(item["done"], "\(field).done", optional: true) {
          guard let parsed = Timestamp(iso8601: text) else {
            throw FieldError(
              field: "\(field).done",
              message: "expected \(Timestamp.expectedFormat), found '\(text)'")
          }
          done = parsed
        }
        return TodoTask(
          id: try string(item["id"], "\(field).id", optional: true) ?? "", name: name, due: due,
          doneAt: done)
      }
    }

    func reminders() throws -> [Reminder] {
      try objects("reminders").enumerated().map { index, item in
        let field = "reminders[\(index)]"
        let typeText = try string(item["type"], "\(field).type") ?? ""
        guard let kind = Reminder.Kind(rawValue: typeText) else {
          throw FieldError(
            field: "\(field).type",
            message: "expected activity, general, habit or task, found '\(typeText)'")
        }
        var reminder = Reminder(
          id: try string(item["id"], "\(field).id", optional: true) ?? "", kind: kind)
        switch item["enabled"] {
        case nil, .null?: break
        case .bool(let flag)?: reminder.isEnabled = flag
        case let other?:
          throw FieldError(
            field: "\(field).enabled",
            message: "expected true or false, found \(self.kind(of: other))")
        }
        if let name = try string(item["preset"], "\(field).preset", optional: true) {
          guard let preset = ActivityPreset(named: name) else {
            throw FieldError(
              field: "\(field).preset",
              message: "expected mindfulness, workout or noalc, found '\(name)'")
          }
          reminder.preset = preset
        }
        reminder.activity =
          try string(item["activity"], "\(field).activity", optional: true)
          .flatMap(EventKind.init) ?? reminder.preset?.kind
        reminder.title = try string(item["title"], "\(field).title", optional: true)
        reminder.message = try string(item["message"], "\(field).message", optional: true)
        let styleText =
          try string(item["style"], "\(field).style", optional: true) ?? "notification"
        guard let style = Reminder.Style(rawValue: styleText) else {
          throw FieldError(
            field: "\(field).style", message: "expected notification or alarm, found '\(styleText)'"
          )
        }
        reminder.style = style
        if let schedule = item["schedule"] {
          guard case .object = schedule else {
            throw FieldError(field: "\(field).schedule", message: "expected an object")
          }
          reminder.schedule = try self.schedule(schedule, field: "\(field).schedule")
        }
        reminder.lookBackHours = try int(item["lookbackHours"], "\(field).lookbackHours")
        reminder.link = try string(item["link"], "\(field).link", optional: true)
        if let timing = try string(item["habitTiming"], "\(field).habitTiming", optional: true) {
          let words = timing.split(separator: " ").map(String.init)
          switch (words.first, words.count) {
          case ("windowStart", 1): reminder.habitTiming = .windowStart
          case ("at", 2):
            guard let time = TimeArgument.minuteTime(words[1]) else { fallthrough }
            reminder.habitTiming = .at(time)
          case ("beforeWindow", 2):
            guard let minutes = Int(words[1]) else { fallthrough }
            reminder.habitTiming = .beforeWindow(minutes: minutes)
          default:
            throw FieldError(
              field: "\(field).habitTiming",
              message:
                "expected 'windowStart', 'at HH:MM' or 'beforeWindow MINUTES', found '\(timing)'")
          }
        }
        reminder.minutesBefore = try int(item["minutesBefore"], "\(field).minutesBefore")
        // The rules `reminders add` keeps (the schedule's were checked above).
        do throws(DefinitionProblem) {
          try reminder.validate()
        } catch {
          throw FieldError(field: "\(field).\(error.field)", message: error.description)
        }
        return reminder
      }
    }

    func schedule(_ fields: JSONValue, field: String) throws -> ReminderSchedule {
      let repeatText = try string(fields["repeat"], "\(field).repeat") ?? ""
      guard let repetition = Repetition(rawValue: repeatText) else {
        throw FieldError(
          field: "\(field).repeat",
          message: "expected once, daily, weekly or monthly, found '\(repeatText)'")
      }
      guard let time = try self.time(fields["at"], "\(field).at") else {
        throw FieldError(field: "\(field).at", message: "expected HH:MM, found nothing")
      }
      var schedule = ReminderSchedule(repetition: repetition, time: time)
      schedule.windowEnd = try self.time(fields["windowEnd"], "\(field).windowEnd")
      if let text = try string(fields["days"], "\(field).days", optional: true) {
        guard let days = WeekdaySet(parsing: text) else {
          throw FieldError(
            field: "\(field).days",
            message:
              "expected mon,tue,..., mon-fri, weekdays, weekends, daily or none, found '\(text)'")
        }
        schedule.weekdays = days
      }
      schedule.dayOfMonth = try int(fields["day"], "\(field).day")
      if let text = try string(fields["date"], "\(field).date", optional: true) {
        guard let date = TimeArgument.date(text) else {
          throw FieldError(field: "\(field).date", message: "expected YYYY-MM-DD, found '\(text)'")
        }
        schedule.date = date
      }
      do throws(DefinitionProblem) {
        try schedule.validate()
      } catch {
        throw FieldError(field: "\(field).\(error.field)", message: error.description)
      }
      return schedule
    }
  }
}

/// `routine reminders export [--output FILE]`
enum RemindersExportCommand: Command {
  static let spec = CommandSpec(
    name: "reminders export",
    summary: "Write every reminder, habit and task definition as JSON.",
    discussion: "The format is in docs/formats.md; 'routine reminders import' reads it back.",
    options: [
      .value(
        "output", "FILE",
        "Write to FILE instead of stdout (replaced atomically; a new file is readable by you only).",
        completes: .file)
    ],
    globals: ["store", "tz"], jsonNote: "its output is JSON already (docs/formats.md)")

  static func run(_ context: Context) throws -> ExitCode {
    let store = try context.openExistingStore()
    let zone =
      (try? context.userTimeZone(try store?.settings() ?? PlannerSettings()))
      ?? Zone.utc
    let document =
      JSON.object([
        ("format", .string("routine-definitions")), ("version", .integer(1)),
        ("habits", .array(try (store?.habits() ?? []).map(Definitions.habitJSON))),
        ("tasks", .array(try (store?.tasks() ?? []).map { Definitions.taskJSON($0, zone: zone) })),
        ("reminders", .array(try (store?.reminders() ?? []).map(ReminderFormatting.json))),
      ]).serialized() + "\n"
    if let path = try context.outputPath(command: spec.name) {
      // The store's data, as private as the store (0600); an existing file keeps its mode.
      let writer = try FileWriter(path: path, newFileMode: 0o600)
      try writer.write(document)
      try writer.finish()
    } else {
      context.output.writeVerbatim(document)
    }
    return .ok
  }
}

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
