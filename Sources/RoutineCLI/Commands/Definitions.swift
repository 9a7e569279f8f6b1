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
            message: "expected \(HabitOptions.repeat.type.expected), found '\(repeatText)'")
        }
        var days = WeekdaySet.everyDay
        if let text = try string(item["days"], "\(field).days", optional: true) {
          guard let parsed = WeekdaySet(parsing: text) else {
            throw FieldError(
              field: "\(field).days",
              message: "expected \(ReminderOptions.days.type.expected), found '\(text)'")
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
            field: "\(field).style",
            message: "expected \(ReminderOptions.style.type.expected), found '\(styleText)'")
        }
        reminder.style = style
        if let text = try string(item["adapt"], "\(field).adapt", optional: true) {
          guard let mode = AdaptationMode(rawValue: text) else {
            throw FieldError(
              field: "\(field).adapt", message: "expected auto, on or off, found '\(text)'")
          }
          reminder.adapt = mode
        }
        if let text = try string(item["hold"], "\(field).hold", optional: true) {
          guard let choice = ReminderOptions.HoldChoice(rawValue: text) else {
            throw FieldError(
              field: "\(field).hold", message: "expected auto, on or off, found '\(text)'")
          }
          reminder.hold = choice.hold
        }
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
          message: "expected \(ReminderOptions.repeat.type.expected), found '\(repeatText)'")
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
