import Foundation
import RoutineCore
import RoutineStore

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
