import Foundation
import RoutineCore
import RoutineStore

/// `routine history [--from TIME] [--to TIME] [--id ID]`
enum HistoryCommand: Command {
  static let spec = CommandSpec(
    name: "history",
    summary: "List what became of each firing: delivered, late, missed, skipped, answered.",
    discussion: """
      Deliveries (late or not), alarms ringing again, outlier alerts, firings missed after
      downtime, firings skipped because the activity was logged (suppressed at fire time, or
      cancelled when it was logged), failed deliveries, and answers with what they logged; and
      the cancellations still ahead. The range defaults to the 7 days before now; --from is
      inclusive, --to exclusive.
      """,
    options: [from.spec, to.spec, id.spec] + ListingOptions.specs)

  /// `--from TIME`.
  static let from = RangeOptions.from.describing(
    "The start: a date and time, a date, yesterday, 'mon', '-3d' or a time today (see 'routine help dates'; default: 7 days ago)."
  )
  /// `--to TIME`.
  static let to = RangeOptions.to.describing(
    "The end, in the same forms (default: now, and what is ahead).")
  /// `--id ID`.
  static let id = Option("id", .text("ID"), "Only this request, or every request of reminder ID.")

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.requireNow()
    let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
    let only = context.arguments.text(id)
    let output = context.output
    try ListingOptions.apply(context)
    return try context.reading { store, settings, zone in
      let clock = context.clockStyle(settings)
      let from =
        try RangeOptions.bound(context, Self.from, now: now, zone: zone) ?? seconds - 7
        * 86_400
      let explicitEnd = try RangeOptions.bound(context, Self.to, now: now, zone: zone)
      guard from < explicitEnd ?? Int64.max else {
        throw UsageError(
          !context.arguments.isGiven(Self.from)
            ? "--\(Self.to.name) must come after the start, 7 days ago (--\(Self.from.name) not given)"
            : "--\(Self.to.name) must come after --\(Self.from.name)",
          command: spec.name)
      }
      if store == nil, let only { throw HistoryCommand.unknown(only, known: []) }
      let to = explicitEnd ?? Int64.max
      func matches(_ id: String) -> Bool { id == only || id.hasPrefix((only ?? "") + "-") }
      var keep: ((String) -> Bool)?
      if let store, only != nil {
        // A snoozed reminder comes back as an alert of its own id: it belongs to it too.
        let alerts = Set(
          try store.deliveredRequests(from: from, to: to)
            .filter { $0.reminderID.map(matches) == true }.map(\.requestID))
        keep = { matches($0) || alerts.contains($0) }
      }
      // Read as they are printed: a year of deliveries every minute is never held in memory.
      func entries(judged: Bool = true) throws -> HistoryMerge? {
        try store.map {
          try HistoryMerge(
            store: $0, from: from, to: to, now: seconds, clock: clock, keep: keep,
            outcomes: judged ? OutcomeReader(store: $0, zone: zone, now: seconds) : nil)
        }
      }
      // Nothing in the range is an answer; an id nothing ever had is a typo, as in 'why'.
      func checkKnown() throws {
        guard let store, let only, try store.reminder(id: only) == nil else { return }
        let pending = try store.pendingRequests(clock: clock).map(\.id)
        if !pending.contains(where: matches),
          !(try store.deliveredRequests().contains { matches($0.requestID) })
        {
          throw HistoryCommand.unknown(only, known: pending + (try store.reminders().map(\.id)))
        }
      }
      if context.isJSON {
        var list = JSONListWriter(output, key: "entries")
        var merge = try entries()
        while let entry = try merge?.next() { list.append(entry.json(zone: zone)) }
        if list.count == 0 { try checkKnown() }
        list.finish()
        return .ok
      }
      // Two passes over the same snapshot: the first measures the columns, the second prints.
      var (count, width, stampWidth) = (0, 0, 0)
      var measuring = try entries(judged: false)
      while let entry = try measuring?.next() {
        count += 1
        width = max(width, entry.requestID.count)
        stampWidth = max(stampWidth, entry.stamp(zone: zone).count)
      }
      guard count > 0 else {
        try checkKnown()
        output.line(
          only == nil
            ? "Nothing in that range: 'routine deliver' records each firing it decides about."
            : "Nothing about '\(TerminalText.escaped(only ?? ""))' in that range.")
        return .ok
      }
      var printing = try entries()
      while let entry = try printing?.next() {
        output.line(
          entry.text(
            zone: zone, clock: clock, idWidth: width, stampWidth: stampWidth, output: output))
      }
      return .ok
    }
  }
}

extension HistoryCommand {
  /// The error for an id that no request, reminder or firing ever had.
  static func unknown(_ id: String, known: [String]) -> CommandError {
    CommandError(
      .dataError,
      "there is no request or reminder '\(id)'"
        + (Suggestion.nearest(to: id, among: known).map { "; did you mean '\($0)'?" }
          ?? "; 'routine pending' lists the requests"))
  }
}
