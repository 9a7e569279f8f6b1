/// A notification category and the actions it offers, as in the original designs.
public struct NotificationCategory: Hashable, Sendable {
  /// The categories.
  public enum ID: String, Sendable, CaseIterable {
    /// Learned reminders: "I'm on it", "Remind me in 5 min", "Dismiss".
    case routineReminder = "routine_reminder"
    /// Time-sensitive one-time alerts (snoozed reminders): "I'm on it", "Dismiss".
    case earlyWarning = "early_warning"
    /// An event far off its pattern: "Dismiss".
    case outlierAlert = "outlier_alert"
    /// An activity reminder for any kind: "Done", "Remind me in 5 min", "Dismiss".
    case activityReminder = "activity_reminder"
    /// The mindfulness reminder: "Start Meditation", "Remind me in 5 min", "Dismiss".
    case mindfulness
    /// The workout reminder: "Start Workout", "Remind me in 5 min", "Dismiss".
    case workout
    /// The NoAlc check-in: "Steady", "Easy", "Wild" (each logs alcohol), "Dismiss".
    case noalc
    /// A reminder with the user's own text: "Done", "Remind me in 5 min", "Dismiss".
    case reminder
    /// A habit's reminder: "Done" (logs the habit), "Remind me in 5 min", "Dismiss".
    case habitReminder = "habit_reminder"
    /// A task's reminder: "Done" (the task is done), "Remind me in 5 min", "Dismiss".
    case taskReminder = "task_reminder"
  }

  /// What answering an action does to the app.
  public enum ActionKind: String, Sendable {
    /// Opens the app (logs the event).
    case foreground
    /// Runs without opening the app (reschedules, or logs a value).
    case background
    /// Removes the notification; nothing is logged.
    case destructive
  }

  /// One button, or the tap on the body (`open`).
  public struct Action: Hashable, Sendable {
    /// The short stable id used on the command line: `routine respond ID onit`.
    public var id: String
    /// The button's title, at most 20 characters.
    public var title: String
    /// What it does to the app.
    public var kind: ActionKind
  }

  /// The category.
  public var id: ID
  /// Its buttons, at most 4.
  public var actions: [Action]

  /// "I'm on it": log the event now.
  public static let onIt = Action(id: "onit", title: "I'm on it", kind: .foreground)
  /// "Remind me in 5 min": a one-time alert five minutes later.
  public static let snooze = Action(id: "snooze", title: "Remind me in 5 min", kind: .background)
  /// "Dismiss": nothing is logged.
  public static let dismiss = Action(id: "dismiss", title: "Dismiss", kind: .destructive)
  /// A tap on the body rather than a button: opens the app, logs nothing.
  public static let open = Action(id: "open", title: "Open", kind: .foreground)
  /// "Done": the reminder's activity, habit or task is done now (logged).
  public static let done = Action(id: "done", title: "Done", kind: .background)
  /// "Start Meditation": would open the meditation timer; logs nothing.
  public static let startMeditation = Action(
    id: "start", title: "Start Meditation", kind: .foreground)
  /// "Start Workout": would open the workout; logs nothing.
  public static let startWorkout = Action(id: "start", title: "Start Workout", kind: .foreground)
  /// NoAlc's quick-log levels.
  public static let steady = Action(id: "steady", title: "Steady", kind: .background)
  /// NoAlc: a little.
  public static let easy = Action(id: "easy", title: "Easy", kind: .background)
  /// NoAlc: a lot.
  public static let wild = Action(id: "wild", title: "Wild", kind: .background)

  /// Every category.
  public static let all: [NotificationCategory] = [
    NotificationCategory(id: .routineReminder, actions: [onIt, snooze, dismiss]),
    NotificationCategory(id: .earlyWarning, actions: [onIt, dismiss]),
    NotificationCategory(id: .outlierAlert, actions: [dismiss]),
    NotificationCategory(id: .activityReminder, actions: [done, snooze, dismiss]),
    NotificationCategory(id: .mindfulness, actions: [startMeditation, snooze, dismiss]),
    NotificationCategory(id: .workout, actions: [startWorkout, snooze, dismiss]),
    NotificationCategory(id: .noalc, actions: [steady, easy, wild, dismiss]),
    NotificationCategory(id: .reminder, actions: [done, snooze, dismiss]),
    NotificationCategory(id: .habitReminder, actions: [done, snooze, dismiss]),
    NotificationCategory(id: .taskReminder, actions: [done, snooze, dismiss]),
  ]

  /// The category with `id`.
  public static func category(_ id: ID) -> NotificationCategory {
    all.first { $0.id == id }!
  }

  /// The action with the short id `actionID` in this category, including `open`.
  public func action(_ actionID: String) -> Action? {
    actionID == NotificationCategory.open.id
      ? NotificationCategory.open : actions.first { $0.id == actionID }
  }

  /// The buttons as shown when a snooze lasts `snoozeMinutes` (`routine settings --snooze`):
  /// "Remind me in 10 min", "Remind me in 1 h".
  public func actions(snoozeMinutes: Int) -> [Action] {
    actions.map { action in
      guard action.id == NotificationCategory.snooze.id else { return action }
      var shown = action
      shown.title = NotificationCategory.snoozeTitle(minutes: snoozeMinutes)
      return shown
    }
  }

  /// "Remind me in 5 min", "Remind me in 1 h", "Remind me in 90 min", "Again in 135 min": at
  /// most 20 characters, as a notification's button allows.
  public static func snoozeTitle(minutes: Int) -> String {
    if minutes >= 60, minutes % 60 == 0 { return "Remind me in \(minutes / 60) h" }
    return minutes < 100 ? "Remind me in \(minutes) min" : "Again in \(minutes) min"
  }

  /// The ids of the actions an answer may name: the buttons, then `open`.
  public var actionIDs: [String] { actions.map(\.id) + [NotificationCategory.open.id] }
}
