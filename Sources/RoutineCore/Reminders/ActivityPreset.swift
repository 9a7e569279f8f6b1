/// The activities the original smart reminders knew, with their defaults, words and actions.
public enum ActivityPreset: String, Sendable, CaseIterable {
  /// Meditation, at 20:00, "Start Meditation".
  case mindfulness
  /// A workout, at 18:00, "Start Workout".
  case workout
  /// The daily alcohol check-in, at 09:00: "Steady", "Easy", "Wild".
  case noalc

  /// The event kind that counts as doing it.
  public var kind: EventKind {
    switch self {
    case .mindfulness: EventKind("Meditation")!
    case .workout: EventKind("Workout")!
    case .noalc: EventKind("Alcohol")!
    }
  }

  /// Every kind whose events count as doing it: its own, then the names other apps give the
  /// same activity ("Mindfulness" is what the reminder says and what Apple Health calls a
  /// mindful session). docs/reminders.md lists them.
  public var kinds: [EventKind] {
    switch self {
    case .mindfulness: [kind, EventKind("Mindfulness")!]
    case .workout: [kind]
    case .noalc: [kind]
    }
  }

  /// The kinds whose events count as `kind`: a preset's kinds when `kind` is one of them,
  /// otherwise `kind` alone.
  public static func kinds(countingAs kind: EventKind) -> [EventKind] {
    presetKinds.first { $0.contains { $0.key == kind.key } } ?? [kind]
  }

  /// Each preset's kinds, made once: a plan asks for thousands of reminders' kinds, and making
  /// a kind normalises its name.
  private static let presetKinds: [[EventKind]] = allCases.map(\.kinds)

  /// The default time of day.
  public var time: TimeOfDay {
    switch self {
    case .mindfulness: TimeOfDay(hour: 20, minute: 0)!
    case .workout: TimeOfDay(hour: 18, minute: 0)!
    case .noalc: TimeOfDay(hour: 9, minute: 0)!
    }
  }

  /// The default look-back in hours: the design leaned to 12 for meditation and workouts, 24
  /// for NoAlc (yesterday's entry).
  public var lookBackHours: Int {
    self == .noalc ? 24 : 12
  }

  /// The notification category: its actions.
  public var category: NotificationCategory.ID {
    switch self {
    case .mindfulness: .mindfulness
    case .workout: .workout
    case .noalc: .noalc
    }
  }

  /// The default title.
  public var title: String {
    switch self {
    case .mindfulness: "Mindfulness"
    case .workout: "Workout"
    case .noalc: "NoAlc"
    }
  }

  /// The default message.
  public var message: String {
    switch self {
    case .mindfulness: "Take a moment to breathe: a few minutes of meditation."
    case .workout: "Time to move: your workout is waiting."
    case .noalc: "How was yesterday: steady, easy or wild?"
    }
  }

  /// The preset `name` names: `mindfulness` (or `meditation`), `workout`, `noalc`.
  public init?(named name: String) {
    switch name.lowercased() {
    case "mindfulness", "meditation": self = .mindfulness
    case "workout": self = .workout
    case "noalc", "alcohol": self = .noalc
    default: return nil
    }
  }

  /// NoAlc's levels: the value an answer logs, and its note (docs/reminders.md).
  public static let levels: [(action: String, value: Double)] = [
    ("steady", 0), ("easy", 1), ("wild", 2),
  ]
}
