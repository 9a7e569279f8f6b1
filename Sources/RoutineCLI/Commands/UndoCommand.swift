import Foundation
import RoutineCore
import RoutineStore

/// `routine undo [--list] [--yes]`
enum UndoCommand: Command {
  static let list = OptionSpec.flag("list", "List the recent changes instead (newest first).")
  static let yes = OptionSpec.flag("yes", "Undo without asking on a terminal.")

  /// How many changes `--list` shows.
  static let listed = 20

  static let spec = CommandSpec(
    name: "undo",
    summary:
      "Revert the last change to the store (events, kinds, reminders, habits, tasks, settings).",
    discussion: """
      Every command that changes what you recorded keeps a record of the change in the store;
      undo reverts the latest change not yet undone, in one transaction. Run again, it reverts
      the one before (there is no redo). On a terminal it shows the change and asks (--yes: do
      not ask); otherwise it reverts it and says what it reverted. --list shows the recent
      changes. The store keeps the last 100 changes. A change that cannot be undone (what it
      would restore is in the store again) is refused with exit status 1, and nothing changes.
      """,
    options: [list, yes],
    globals: ["store", "now", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    guard let store = try context.openExistingStore() else {
      return nothing(NothingToUndo(), context)
    }
    let zone = try context.userTimeZone(try store.settings())
    if context.arguments.flag(list) { return try showList(store, zone: zone, context) }
    let pending = try store.nextUndo()
    guard let latest = pending.first else { return nothing(try store.nothingToUndo(), context) }
    // Only a change the user was shown and said yes to is reverted; without asking, the latest
    // one when the write lock is had (another undo may have taken the one seen here).
    var expected: Int64?
    if context.environment.isInteractive, !context.arguments.flag(yes), !context.isJSON {
      expected = latest.id
      let question = "Undo \(describe(pending, zone: zone))?"
      context.errors.write("\(TerminalText.escaped(question)) [y/N] ")
      context.errors.flush()
      let answer = context.environment.readLine()?.trimmingBlanks.lowercased()
      guard answer == "y" || answer == "yes" else {
        context.output.line("Nothing undone.")
        return .ok
      }
    }
    let undone: [RecordedChange]?
    do {
      // Said before the undo commits: an answer nobody can read changes nothing.
      undone = try store.undoLatest(expected: expected, at: try context.nowSeconds()) { undone in
        if context.isJSON {
          context.output.line(
            JSON.object([
              ("undone", .bool(true)), ("changes", .array(undone.map { json($0, zone: zone) })),
            ]).serialized())
        } else {
          context.output.line("Undid \(describe(undone, zone: zone)).")
        }
        try context.output.deliver()
      }
    } catch let refusal as UndoRefusal {
      context.errors.line(
        "error: cannot undo \(describe([refusal.change], zone: zone)): \(refusal.reason); nothing changed"
      )
      return .failure
    }
    guard undone != nil else {
      guard expected != nil else { return nothing(try store.nothingToUndo(), context) }
      context.errors.line(
        "error: the store changed while undo was asking (another change or undo); nothing changed. See 'routine undo --list'."
      )
      return .failure
    }
    return .ok
  }

  /// Nothing to undo: fine on a store with no history before its journal; a failure (exit 1)
  /// when there are changes left that cannot be undone (from before the journal, or forgotten).
  private static func nothing(_ reason: NothingToUndo, _ context: Context) -> ExitCode {
    // After every recorded change was undone, 'no change is recorded' read as if the list
    // were empty: it is not, each is marked undone there.
    var text =
      reason.undoneAlready > 0
      ? "Nothing to undo: the \(counted(reason.undoneAlready, "recorded change")) \(reason.undoneAlready == 1 ? "is" : "are all") undone already ('routine undo --list' shows \(reason.undoneAlready == 1 ? "it" : "them"))"
      : "Nothing to undo: no change is recorded"
    var code = ExitCode.ok
    if reason.olderForgotten {
      text +=
        "; older changes are no longer kept (the store keeps the last \(EventStore.keptChanges))"
      code = .failure
    }
    if reason.predatesJournal, let started = reason.journalStarted {
      let date = Timestamp(secondsSince1970: started, utcOffsetSeconds: 0).localDate
      text +=
        "; changes made before \(date) (when this store began recording them) cannot be undone"
      code = .failure
    }
    if context.isJSON {
      context.output.line(
        JSON.object([("undone", .bool(false)), ("changes", .array([])), ("reason", .string(text))])
          .serialized())
    } else if code == .ok {
      context.output.line(text + ".")
    } else {
      context.errors.line("error: " + text.prefix(1).lowercased() + text.dropFirst() + ".")
    }
    return code
  }

  private static func showList(_ store: EventStore, zone: Zone, _ context: Context) throws
    -> ExitCode
  {
    let changes = try store.recordedChanges(limit: listed)
    if context.isJSON {
      context.output.line(JSON.array(changes.map { json($0, zone: zone) }).serialized())
      return .ok
    }
    guard !changes.isEmpty else {
      context.output.line("No change is recorded.")
      return .ok
    }
    for change in changes {
      var line = "\(time(change.madeAt, zone: zone))  \(TerminalText.escaped(change.command))"
      line += "  \(summary(change))"
      if change.undoneAt != nil { line += "  (undone)" }
      context.output.line(line)
    }
    return .ok
  }

  /// `'kinds rename Coffe Coffee' of 2026-04-27 09:00 (1 kind renamed)`, for the changes of one
  /// command (newest first).
  static func describe(_ changes: [RecordedChange], zone: Zone) -> String {
    guard let last = changes.first else { return "nothing" }
    let first = changes.last!
    var merged = first
    merged.eventsAdded = changes.reduce(0) { $0 + $1.eventsAdded }
    var tallies: [String: ChangeTally] = [:]
    for change in changes {
      for tally in change.tallies {
        tallies[tally.table, default: ChangeTally(table: tally.table)].inserted += tally.inserted
        tallies[tally.table, default: ChangeTally(table: tally.table)].updated += tally.updated
        tallies[tally.table, default: ChangeTally(table: tally.table)].deleted += tally.deleted
      }
    }
    merged.tallies = tallies.values.sorted { $0.table < $1.table }
    return
      "'\(TerminalText.escaped(last.command))' of \(time(first.madeAt, zone: zone)) (\(summary(merged)))"
  }

  /// The tables a user knows, with their nouns, in the order a summary names them. Requests,
  /// cancellations, adaptations and the ids of removed definitions follow from these.
  private static let nouns: [(table: String, noun: String)] = [
    ("events", "event"), ("kinds", "kind"), ("reminders", "reminder"), ("habits", "habit"),
    ("tasks", "task"), ("settings", "setting"), ("answers", "answer"),
    ("day_marks", "day done"),
  ]

  /// `3 events added, 1 kind renamed`.
  static func summary(_ change: RecordedChange) -> String {
    var parts: [String] = []
    for (table, noun) in nouns {
      let tally = change.tallies.first { $0.table == table } ?? ChangeTally(table: table)
      let added = table == "events" ? change.eventsAdded : tally.inserted
      // A setting is one row, written whether new or not: both are a change.
      let changed = table == "settings" ? tally.updated + tally.inserted : tally.updated
      if added > 0, table == "day_marks" {
        parts.append("\(added) \(added == 1 ? "day" : "days") done added")
      } else if added > 0, table != "settings" {
        parts.append(counted(added, noun) + (table == "answers" ? " given" : " added"))
      }
      if changed > 0 {
        parts.append(counted(changed, noun) + (table == "kinds" ? " renamed" : " changed"))
      }
      if tally.deleted > 0, table == "day_marks" {
        parts.append("\(tally.deleted) \(tally.deleted == 1 ? "day" : "days") done removed")
      } else if tally.deleted > 0 {
        parts.append(counted(tally.deleted, noun) + " removed")
      }
    }
    return parts.isEmpty ? "no visible change" : parts.joined(separator: ", ")
  }

  private static func time(_ seconds: Int64, zone: Zone) -> String {
    let timestamp = Timestamp(
      secondsSince1970: seconds, utcOffsetSeconds: Int32(zone.offset(at: seconds)))
    return "\(timestamp.localDate) \(EventFormatting.clock(timestamp.timeOfDay))"
  }

  private static func json(_ change: RecordedChange, zone: Zone) -> JSON {
    .object([
      ("id", .integer(Int(change.id))),
      (
        "madeAt",
        .string(
          Timestamp(
            secondsSince1970: change.madeAt,
            utcOffsetSeconds: Int32(zone.offset(at: change.madeAt))
          ).iso8601)
      ),
      ("command", .string(change.command)),
      ("summary", .string(summary(change))),
      ("undone", .bool(change.undoneAt != nil)),
    ])
  }
}
