import Foundation
import RoutineCore
import RoutineStore

/// `routine habits`
enum HabitsCommand: Command {
  static let subcommands: [any Command.Type] = [
    HabitsListCommand.self, HabitsAddCommand.self, HabitsEditCommand.self, HabitsRemoveCommand.self,
  ]
  static let spec = CommandSpec(
    name: "habits",
    summary: "List your habits: their days, time windows and reminders.",
    discussion: """
      A habit is something done on certain days, perhaps within a time window. Logging an event
      named like the habit counts as doing it: its reminders stay quiet that day.
      'routine reminders add --habit NAME' reminds of it. Each habit shows its strength (a share
      of its days done, the last 13 weighing half, as Loop Habit Tracker scores it) and its
      streak of days done in a row. Days imported from Loop Habit Tracker (done, without a
      time) count as days done.
      """,
    globals: ["store", "now", "tz", "json"],
    subcommands: subcommands.map { $0.spec })

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.nowSeconds()
    return try context.reading { store, _, zone in
      let habits = try store?.habits() ?? []
      let reminders = try store?.reminders() ?? []
      let scores = try HabitsCommand.scores(habits, store: store, now: now, zone: zone)
      if context.isJSON {
        let list = habits.map { habit -> JSON in
          guard case .object(var members) = Definitions.habitJSON(habit) else { return .null }
          let score = scores[habit.id]
          members += [
            ("strength", .rounded(score?.strength, places: 3)),
            ("streak", score.map { .integer($0.streak) } ?? .null),
          ]
          return .object(members)
        }
        context.output.line(JSON.object([("habits", .array(list))]).serialized())
        return .ok
      }
      guard !habits.isEmpty else {
        context.output.line("No habits yet: 'routine habits add NAME' defines one.")
        return .ok
      }
      let idWidth = habits.map(\.id.count).max() ?? 0
      let nameWidth = min(habits.map { TerminalText.escaped($0.name.name).count }.max() ?? 0, 24)
      let patternWidth = habits.map { pattern($0).count }.max() ?? 0
      for habit in habits {
        let linked = reminders.filter { $0.link == habit.id }.map(\.id)
        let score = scores[habit.id].map {
          "strength \(Int(($0.strength * 100).rounded()))%, streak \(counted($0.streak, "day"))"
        }
        context.output.line(
          ("  " + HelpFormatter.padded(habit.id, to: idWidth + 2)
            + HelpFormatter.padded(TerminalText.escaped(habit.name.name), to: nameWidth + 2)
            + HelpFormatter.padded(pattern(habit), to: patternWidth + 2) + (score ?? "")
            + (linked.isEmpty ? "" : "  reminders: \(linked.joined(separator: ", "))"))
            .trimmingTrailingSpaces)
      }
      return .ok
    }
  }

  /// Each habit's strength and streak at `now`, from its last 90 days of events (one read of
  /// the log for all of them).
  static func scores(_ habits: [Habit], store: EventStore?, now: Int64, zone: Zone) throws
    -> [String: (strength: Double, streak: Int)]
  {
    guard let store, !habits.isEmpty else { return [:] }
    let today = WallClock.localDate(at: now, in: zone)
    let first = today.adding(days: -Adaptation.strengthDays)
    let start = WallClock.instant(on: first, at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    let keys = Set(habits.map(\.name.key))
    let times = try store.eventTimes(ofKeys: keys, from: start, to: now)
    // Days done without a time (another tracker's checkmarks) count as the day's act.
    let marked = try store.markedDays(ofKeys: keys, from: first, through: today)
    var result: [String: (strength: Double, streak: Int)] = [:]
    for habit in habits {
      let done = HabitScore.days(
        from: first, through: today, isOn: habit.isOn, acts: times[habit.name.key] ?? [],
        markedDays: marked[habit.name.key] ?? [])
      let score = HabitScore.score(done, lastIsToday: habit.isOn(today))
      result[habit.id] = (score.strength, score.streak)
    }
    return result
  }

  /// `daily`, `weekly mon,wed`, `monthly on the 1st`, with the window.
  static func pattern(_ habit: Habit) -> String {
    var text: String
    switch habit.repetition {
    case .weekly: text = "weekly \(habit.weekdays)"
    case .monthly: text = "monthly on day \(habit.dayOfMonth ?? 1)"
    default: text = "daily"
    }
    if let window = habit.window { text += ", \(window.lowerBound)-\(window.upperBound)" }
    return text
  }
}
