import Foundation
import RoutineCore
import RoutineStore

/// The options of `habits add` and `habits edit`.
enum HabitOptions {
  /// `--days LIST`: a habit is on some day, so `none` is no value.
  static let days = Option(
    "days", .weekdays(allowsNone: false),
    "mon,tue,..., mon-fri, weekdays, weekends or daily (a weekly habit).")
  /// `--window HH:MM-HH:MM|none`.
  static let window = Option("window", .habitWindow, "Its time window (or none).")
  /// `--repeat daily|weekly|monthly`: a habit is never once.
  static let `repeat` = Option(
    "repeat", .oneOf([Repetition.daily, .weekly, .monthly]),
    "How often (default daily; --days makes it weekly).")
  /// `--day N`.
  static let day = Option("day", .dayOfMonth, "Its day of the month (a monthly habit).")

  static let options: [OptionSpec] = [days.spec, window.spec, `repeat`.spec, day.spec]

  static func apply(_ context: Context, to habit: inout Habit) throws(UsageError) {
    let arguments = context.arguments
    if let days = try arguments.value(days) {
      habit.weekdays = days
      habit.repetition = days == .everyDay ? .daily : .weekly
    }
    if let day = try arguments.value(day) {
      habit.dayOfMonth = day
      habit.repetition = .monthly
    }
    if let repetition = try arguments.value(`repeat`) { habit.repetition = repetition }
    if let window = try arguments.value(window) { habit.window = window.range }
    do throws(DefinitionProblem) {
      try habit.validate()
    } catch {
      throw ReminderOptions.usage(error, context)
    }
  }
}

/// A habit's `--window`: a range of the day, or `none` for a habit at any time.
struct HabitWindow: Sendable {
  /// The window, or `nil` for `none`.
  var range: ClosedRange<TimeOfDay>?
}

extension ValueType where Value == HabitWindow {
  /// `HH:MM-HH:MM` (as ``ValueType/window``) or `none`.
  static var habitWindow: Self {
    let window = ValueType<ClosedRange<TimeOfDay>>.window
    return ValueType(
      placeholder: window.placeholder, expected: "\(window.expected), or none", choices: []
    ) { text in
      text.lowercased() == "none"
        ? HabitWindow(range: nil) : window.read(text).map { HabitWindow(range: $0) }
    }
  }
}
