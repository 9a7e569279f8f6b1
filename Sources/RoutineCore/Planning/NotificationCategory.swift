/// A notification category and the actions it offers, as in the original design.
public struct NotificationCategory: Hashable, Sendable {
  /// The categories.
  public enum ID: String, Sendable, CaseIterable {
    /// Learned reminders: "I'm on it", "Remind me in 5 min", "Dismiss".
    case routineReminder = "routine_reminder"
    /// Time-sensitive one-time alerts (snoozed reminders): "I'm on it", "Dismiss".
    case earlyWarning = "early_warning"
    /// An event far off its pattern: "Dismiss".
    case outlierAlert = "outlier_alert"
  }

  /// What answering an action does to the app.
  public enum ActionKind: String, Sendable {
    /// Opens the app (logs the event).
    case foreground
    /// Runs without opening the app (reschedules).
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

  /// Every category.
  public static let all: [NotificationCategory] = [
    NotificationCategory(id: .routineReminder, actions: [onIt, snooze, dismiss]),
    NotificationCategory(id: .earlyWarning, actions: [onIt, dismiss]),
    NotificationCategory(id: .outlierAlert, actions: [dismiss]),
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
}
