import RoutineCore
import RoutineStore

/// `routine import` of Loop Habit Tracker's CSV export (docs/formats.md, "Loop Habit Tracker"):
/// `Checkmarks.csv` becomes days done without a time, `Habits.csv` the habits.
enum LoopImport {
  /// What one Loop file did: marks or habits added, the JSON report and the lines to print.
  struct Outcome {
    var added: Int
    var report: JSON
    var lines: [String]
  }

  /// Imports the Loop file `path` (of `kind`, or the kind its content shows) into `store`,
  /// inside the caller's transaction.
  static func run(
    _ path: String, kind: LoopHabitsFile.Kind?, store: EventStore, firstDate: LocalDate?,
    skippingInvalid skips: Bool, context: Context
  ) throws -> Outcome {
    let name = TerminalText.escaped(displayName(path))
    switch kind ?? LoopHabitsFile.detect(path) ?? .checkmarks {
    case .checkmarks:
      let file = try LoopHabitsFile.readCheckmarks(path, from: firstDate, skipsInvalid: skips)
      for skipped in file.skipped { context.warn("\(skipped) (skipped)") }
      let summary = try store.addDayMarks(file.marks, source: "loop")
      var line =
        "\(name): Loop checkmarks of \(counted(file.habits.count, "habit")) over "
        + "\(counted(file.days, "day")): \(counted(file.marks.count, "day")) done read, "
        + "\(summary.added) added, \(summary.alreadyPresent) already present"
      if let firstDate, file.beforeFirstDate > 0 {
        line += ", \(file.beforeFirstDate) before \(firstDate) left out"
      }
      if !file.skipped.isEmpty {
        line += ", \(counted(file.skipped.count, "invalid line")) skipped"
      }
      var lines = [line + "."]
      let habits = Set(try store.habits().map(\.name.key))
      var named = Set<String>()
      let missing = file.habits.filter { !habits.contains($0.key) && named.insert($0.key).inserted }
        .map { TerminalText.escaped($0.name) }
      if !missing.isEmpty {
        let list =
          missing.count == 1
          ? missing[0] : missing.dropLast().joined(separator: ", ") + " and " + missing.last!
        let add =
          missing.count == 1 ? "'routine habits add \(missing[0])'" : "'routine habits add NAME'"
        lines.append(
          "No habit named \(list) yet: \(missing.count == 1 ? "its" : "their") days count once "
            + "\(missing.count == 1 ? "it is one" : "they are habits") (import Loop's Habits.csv, or \(add))."
        )
      }
      let report = JSON.object([
        ("file", .string(path)), ("format", .string("loop")),
        ("read", .integer(file.marks.count)), ("added", .integer(summary.added)),
        ("alreadyPresent", .integer(summary.alreadyPresent)),
        ("skipped", skippedJSON(file.skipped)),
        ("beforeFrom", .integer(file.beforeFirstDate)), ("error", .null),
      ])
      return Outcome(added: summary.added, report: report, lines: lines)
    case .habits:
      let rows = try LoopHabitsFile.readHabits(path)
      var added: [Habit] = []
      var present: [String] = []
      var notes: [String] = []
      for row in rows {
        if try store.habit(id: row.name.name) != nil {
          if !present.contains(row.name.name) { present.append(row.name.name) }
          continue
        }
        let habit = try store.addHabit(Habit(id: "", name: row.name))
        added.append(habit)
        if row.repetitions != row.interval {
          notes.append(
            "\(TerminalText.escaped(row.name.name)) is \(counted(row.repetitions, "time")) in "
              + "\(counted(row.interval, "day")) in Loop: added as a daily habit "
              + "(give it days: 'routine habits edit \(habit.id) --days mon,wed,fri')."
          )
        }
      }
      var line =
        "\(name): Loop habits: \(rows.count) read, \(added.count) added"
      if !added.isEmpty {
        line +=
          " ("
          + added.map { "\($0.id) \(TerminalText.escaped($0.name.name))" }.joined(separator: ", ")
          + ")"
      }
      line += ", \(present.count) already present"
      if !present.isEmpty {
        line +=
          " (" + present.map(TerminalText.escaped).joined(separator: ", ") + ", left as they are)"
      }
      let report = JSON.object([
        ("file", .string(path)), ("format", .string("loop")), ("read", .integer(rows.count)),
        ("added", .integer(added.count)), ("alreadyPresent", .integer(present.count)),
        ("habits", .array(added.map { .string($0.id) })), ("skipped", .array([])),
        ("error", .null),
      ])
      return Outcome(added: added.count, report: report, lines: [line + "."] + notes)
    }
  }

  private static func skippedJSON(_ errors: [FormatError]) -> JSON {
    .array(
      errors.map { .object([("line", .integer($0.line)), ("message", .string($0.message))]) })
  }
}
