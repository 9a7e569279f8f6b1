import RoutineCore
import RoutineStore

/// `routine kinds rename OLD NEW [--yes]`
enum KindsRenameCommand: Command {
  static let spec = CommandSpec(
    name: "kinds rename",
    summary: "Rename a kind, or merge it into another.",
    discussion: """
      Renames the kind OLD to NEW: its events keep their times and now carry the new name;
      pending reminders log the new name when answered at once, and take it in their titles at
      the next 'routine plan'. With NEW a spelling of the same kind ("wake up" to "Wake Up"), only
      the displayed spelling changes. When NEW is another kind already in the store,
      OLD's events move to it (the merge asks first; --yes skips the question) and events NEW
      already has at the same second are dropped as duplicates.
      """,
    arguments: [
      ArgumentSpec(
        "OLD", "The kind to rename, as stored (case and spacing ignored).", completes: .kind),
      ArgumentSpec("NEW", "The new name."),
    ],
    options: [yes],
    globals: ["store", "json"])

  /// `--yes`.
  static let yes = CommonOptions.yes.describing("Merge without asking.")

  static func run(_ context: Context) throws -> ExitCode {
    let words = context.arguments.arguments
    guard let old = EventKind(words[0]), let new = EventKind(words[1]) else {
      throw UsageError("kind names must not be empty", command: spec.name)
    }
    guard let store = try context.openExistingStore(),
      let stored = try store.storedKind(old) ?? store.dayMarkedKind(old)
    else {
      let known = try context.openExistingStore()?.kindSummaries().map(\.kind.name) ?? []
      throw unknownKind(old.name, suggestion: Suggestion.nearest(to: old.name, among: known))
    }
    if new.key != old.key, let target = try store.storedKind(new) {
      let question =
        "Merge '\(TerminalText.escaped(stored.name))' into '\(TerminalText.escaped(target.name))'? "
        + "Its events will carry that name (routine undo reverts it)."
      guard try context.confirm(question) else {
        context.output.line("Nothing changed.")
        return .ok
      }
    }
    // The answer reaches the user before the change is committed: output that cannot be
    // written leaves the kind as it was.
    // Days marked done (Loop's) move with their kind: said, so that a habit counting them is
    // not surprised.
    let days = try store.dayMarkCounts()[old.key] ?? 0
    let daysNote = days > 0 ? ", \(days) \(days == 1 ? "day" : "days") done" : ""
    try store.write {
      guard let result = try store.renameKind(old, to: new) else {
        throw unknownKind(old.name, suggestion: nil)
      }
      switch result {
      case .renamed(let from, let to, let events):
        if context.isJSON {
          context.output.line(
            JSON.object([
              ("renamed", .string(from.name)), ("to", .string(to.name)),
              ("events", .integer(events)),
            ]).serialized())
        } else {
          context.output.line(
            "Renamed '\(TerminalText.escaped(from.name))' to '\(TerminalText.escaped(to.name))' (\(counted(events, "event"))\(daysNote))."
          )
        }
      case .merged(let from, let into, let moved, let duplicates):
        if context.isJSON {
          context.output.line(
            JSON.object([
              ("merged", .string(from.name)), ("into", .string(into.name)),
              ("moved", .integer(moved)), ("duplicates", .integer(duplicates)),
            ]).serialized())
        } else {
          context.output.line(
            "Merged '\(TerminalText.escaped(from.name))' into '\(TerminalText.escaped(into.name))': "
              + "\(counted(moved, "event")) moved\(daysNote), \(counted(duplicates, "duplicate")) dropped."
          )
        }
      case .daysDone(let from, let to, let days):
        if context.isJSON {
          context.output.line(
            JSON.object([
              ("renamed", .string(from.name)), ("to", .string(to.name)), ("events", .integer(0)),
              ("daysDone", .integer(days)),
            ]).serialized())
        } else {
          context.output.line(
            "Renamed '\(TerminalText.escaped(from.name))' to '\(TerminalText.escaped(to.name))' (\(days) \(days == 1 ? "day" : "days") done)."
          )
        }
      }
      try context.output.deliver()
    }
    return .ok
  }

  /// A kind the store does not hold: bad data, exit 65, with the nearest name.
  static func unknownKind(_ name: String, suggestion: String?) -> CommandError {
    CommandError(
      .dataError,
      "there is no kind '\(name)' in the store"
        + (suggestion.map { "; did you mean '\($0)'?" } ?? "; 'routine kinds' lists them"))
  }
}
