/// Why a reminder, habit or schedule definition cannot be: each rule written once, and checked
/// wherever a definition comes in (`reminders add` and `edit`, `reminders import`, `habits`,
/// `tasks`) and again by the planner, so that a definition stored before a rule existed cannot
/// make it fail.
public enum DefinitionProblem: Error, Hashable, Sendable, CustomStringConvertible {
  /// A monthly schedule or habit without its day of the month.
  case monthlyWithoutDay
  /// A day of the month outside 1...31.
  case dayOfMonthOutOfRange(Int)
  /// A one-time schedule without its date.
  case onceWithoutDate
  /// A time with seconds: reminders fire on the minute.
  case timeWithSeconds(TimeOfDay)
  /// A trigger window that ends before it starts.
  case windowEndsBeforeStart(TimeOfDay, TimeOfDay)
  /// An activity reminder without its activity.
  case missingActivity
  /// A text reminder without its text.
  case missingText
  /// A reminder that needs a schedule without one.
  case missingSchedule
  /// An activity reminder that repeats other than on its days (monthly, or once): it is
  /// checked on the days of a week, and was fired every day.
  case activityRepeatsOnItsDays(Repetition)
  /// A habit or task reminder without its habit or task.
  case missingLink(Reminder.Kind)
  /// A look-back the reminders do not offer.
  case lookBackNotOffered(Int)
  /// Minutes before a task's due date out of range.
  case minutesBeforeOutOfRange(Int)
  /// Minutes before a habit's window out of range.
  case minutesBeforeWindowOutOfRange(Int)

  /// The longest a task reminder fires before the due date: a year.
  public static let longestLeadMinutes = 366 * 1440
  /// The longest a habit reminder fires before the habit's window: 12 hours.
  public static let longestLeadBeforeWindowMinutes = 720

  /// The field of the definitions format (docs/formats.md) the problem is in, under the
  /// reminder, habit or schedule object.
  public var field: String {
    switch self {
    case .monthlyWithoutDay, .dayOfMonthOutOfRange: "day"
    case .onceWithoutDate: "date"
    case .timeWithSeconds: "at"
    case .windowEndsBeforeStart: "windowEnd"
    case .missingActivity: "activity"
    case .missingText: "message"
    case .missingSchedule: "schedule"
    case .activityRepeatsOnItsDays: "schedule.repeat"
    case .missingLink: "link"
    case .lookBackNotOffered: "lookbackHours"
    case .minutesBeforeOutOfRange: "minutesBefore"
    case .minutesBeforeWindowOutOfRange: "habitTiming"
    }
  }

  /// A sentence.
  public var description: String {
    switch self {
    case .monthlyWithoutDay: return "a monthly schedule needs a day of the month"
    case .dayOfMonthOutOfRange(let day):
      return "expected a day of the month from 1 to 31, found \(day)"
    case .onceWithoutDate: return "a one-time schedule needs a date"
    case .timeWithSeconds(let time):
      return "expected a time on the minute (HH:MM), found \(time.description)"
    case .windowEndsBeforeStart(let start, let end):
      return "expected the window's start before its end, found \(start)-\(end)"
    case .missingActivity: return "an activity reminder needs an activity"
    case .missingText: return "a text reminder needs its text"
    case .missingSchedule: return "this reminder needs a schedule (a time, and its days)"
    case .activityRepeatsOnItsDays(let repetition):
      return "an activity reminder repeats on its days (\"daily\" or \"weekly\" with \"days\"), "
        + "not \"\(repetition.rawValue)\""
    case .missingLink(let kind):
      return "a \(kind.rawValue) reminder needs the id of its \(kind.rawValue)"
    case .lookBackNotOffered(let hours):
      let choices = Reminder.lookBackChoices.map(String.init)
      return
        "expected a look-back of \(choices.dropLast().joined(separator: ", ")) or \(choices.last!) hours, found \(hours)"
    case .minutesBeforeOutOfRange(let minutes):
      return
        "a task reminder fires from 0 minutes to \(DefinitionProblem.longestLeadMinutes / 1440) days before the due date, not \(DefinitionProblem.minutesText(minutes))"
    case .minutesBeforeWindowOutOfRange(let minutes):
      return
        "a habit reminder fires from 1 to \(DefinitionProblem.longestLeadBeforeWindowMinutes) minutes before the habit's window, not \(DefinitionProblem.minutesText(minutes))"
    }
  }

  /// "90 minutes", "200000000000000 days": a number of minutes as it was probably typed.
  static func minutesText(_ minutes: Int) -> String {
    if minutes != 0, minutes % 1440 == 0 { return "\(minutes / 1440) days" }
    return minutes == 1 ? "1 minute" : "\(minutes) minutes"
  }
}

extension ReminderSchedule {
  /// Checks the schedule's own rules: a monthly one has its day (1...31), a one-time one its
  /// date, times are on the minute, a window ends after it starts. A weekly schedule with no
  /// day on is allowed (the reminder is then off; `reminders add` says so).
  public func validate() throws(DefinitionProblem) {
    if repetition == .monthly, dayOfMonth == nil { throw .monthlyWithoutDay }
    if let day = dayOfMonth, !(1...31).contains(day) { throw .dayOfMonthOutOfRange(day) }
    if repetition == .once, date == nil { throw .onceWithoutDate }
    if time.secondsSinceMidnight % 60 != 0 { throw .timeWithSeconds(time) }
    if let windowEnd {
      if windowEnd.secondsSinceMidnight % 60 != 0 { throw .timeWithSeconds(windowEnd) }
      if windowEnd < time { throw .windowEndsBeforeStart(time, windowEnd) }
    }
  }
}

extension Reminder {
  /// Checks every rule a reminder's definition must keep (its schedule's too): what each kind
  /// needs, the look-backs offered, and bounded leads (a year before a task's due date, 12
  /// hours before a habit's window), so that no number from outside can overflow a firing's
  /// instant.
  public func validate() throws(DefinitionProblem) {
    switch kind {
    case .activity:
      guard activity != nil || preset != nil else { throw .missingActivity }
      guard let schedule else { throw .missingSchedule }
      guard schedule.repetition == .weekly || schedule.repetition == .daily else {
        throw .activityRepeatsOnItsDays(schedule.repetition)
      }
    case .general:
      guard message != nil else { throw .missingText }
      guard schedule != nil else { throw .missingSchedule }
    case .habit, .task:
      guard link != nil else { throw .missingLink(kind) }
    }
    try schedule?.validate()
    if let hours = lookBackHours, !Reminder.lookBackChoices.contains(hours) {
      throw .lookBackNotOffered(hours)
    }
    if let minutes = minutesBefore, !(0...DefinitionProblem.longestLeadMinutes).contains(minutes) {
      throw .minutesBeforeOutOfRange(minutes)
    }
    if case .beforeWindow(let minutes) = habitTiming,
      !(1...DefinitionProblem.longestLeadBeforeWindowMinutes).contains(minutes)
    {
      throw .minutesBeforeWindowOutOfRange(minutes)
    }
    if case .at(let time) = habitTiming, time.secondsSinceMidnight % 60 != 0 {
      throw .timeWithSeconds(time)
    }
  }
}

extension Habit {
  /// Checks a habit's rules: a monthly one has its day (1...31), a window ends after it starts
  /// and is on the minute.
  public func validate() throws(DefinitionProblem) {
    if repetition == .monthly, dayOfMonth == nil { throw .monthlyWithoutDay }
    if let day = dayOfMonth, !(1...31).contains(day) { throw .dayOfMonthOutOfRange(day) }
    if let window {
      for time in [window.lowerBound, window.upperBound] where time.secondsSinceMidnight % 60 != 0 {
        throw .timeWithSeconds(time)
      }
    }
  }
}
