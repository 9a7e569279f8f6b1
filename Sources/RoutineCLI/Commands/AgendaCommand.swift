import Foundation
import RoutineCore
import RoutineStore

/// `routine agenda [--from TIME] [--to TIME]`
enum AgendaCommand: Command {
  static let spec = CommandSpec(
    name: "agenda",
    summary: "List every notification that will fire in a range, in order.",
    discussion: """
      The range defaults to 7 days: from the start to the same time of day 7 days later (across
      a daylight-saving change, 167 or 169 hours). --from is inclusive, --to exclusive; --to may
      be at most \(Agenda.maximumDays) days after the start (a longer range is a usage error).
      Firings are printed as they are worked out, not collected first.
      """,
    options: [from.spec, to.spec] + ListingOptions.specs)

  /// `--from TIME`.
  static let from = RangeOptions.from.describing(
    "The start: a date and time, a date, tomorrow, 'fri', '+2d' or a time today (see 'routine help dates'; default: now)."
  )
  /// `--to TIME`.
  static let to = RangeOptions.to.describing(
    "The end, in the same forms (default: 7 days after the start, at its time of day; at most \(Agenda.maximumDays) days after it)."
  )

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.requireNow()
    try ListingOptions.apply(context)
    let (requests, zone, skips) = try context.reading { store, settings, zone in
      let clock = context.clockStyle(settings)
      let requests = try store?.pendingRequests(clock: clock) ?? []
      return (
        requests, zone,
        try Skips(
          store: store, requests: requests, now: Int64(now.timeIntervalSince1970.rounded(.down)),
          zone: zone, clock: clock)
      )
    }
    let (from, to) = try range(context, now: now, zone: zone)
    // Streamed: a year of thousands of requests is written as it is worked out, never held.
    var items = Agenda.stream(for: requests, from: from, to: to, in: zone)
    if context.isJSON {
      var list = JSONListWriter(context.output, key: "items")
      while let item = items.next() {
        list.append(
          .object([
            ("at", .string(RequestFormatting.stamp(item.at, zone).iso8601)),
            ("id", .string(item.request.id)),
            ("category", .string(item.request.category.rawValue)),
            ("title", .string(item.request.title)), ("body", .string(item.request.body)),
            ("skipped", .optional(skips.reason(item.request, at: item.firing))),
          ]))
      }
      list.finish()
      return .ok
    }
    // Each request's words, escaped once: a year's agenda repeats them thousands of times.
    var words: [String: String] = [:]
    for request in requests {
      words[request.id] = TerminalText.escaped("\(request.title): \(request.body)")
    }
    var count = 0
    while let item = items.next() {
      let stamp = RequestFormatting.stamp(item.at, zone)
      var line =
        context.output.paint(
          "\(EventFormatting.localDateTime(stamp)) \(stamp.iso8601.suffix(6))", .bold) + "  "
        + (words[item.request.id] ?? "")
      if let reason = skips.reason(item.request, at: item.firing) {
        line += context.output.paint(" (skipped: \(TerminalText.escaped(reason)))", .yellow)
      }
      context.output.line(line)
      count += 1
    }
    if count == 0 { context.output.line("Nothing fires in that range.") }
    return .ok
  }

  /// The range the options name: `--from` (now by default) to `--to` (7 local days later by
  /// default), at most ``Agenda/maximumDays`` local days long.
  static func range(_ context: Context, now: Date, zone: Zone) throws(UsageError) -> (
    Int64, Int64
  ) {
    let from =
      try RangeOptions.bound(context, Self.from, now: now, zone: zone, meaning: .upcoming)
      ?? Int64(now.timeIntervalSince1970.rounded(.down))
    let to =
      try RangeOptions.bound(context, Self.to, now: now, zone: zone, meaning: .upcoming)
      ?? Agenda.end(after: from, days: Agenda.defaultDays, in: zone)
    guard from < to else {
      throw UsageError(
        !context.arguments.isGiven(Self.from)
          ? "--\(Self.to.name) must come after the start, now (--\(Self.from.name) not given)"
          : "--\(Self.to.name) must come after --\(Self.from.name)",
        command: spec.name)
    }
    let latest = Agenda.end(after: from, days: Agenda.maximumDays, in: zone)
    guard to <= latest else {
      let start = EventFormatting.localDateTime(RequestFormatting.stamp(from, zone))
      let end = EventFormatting.localDateTime(RequestFormatting.stamp(latest, zone))
      throw UsageError(
        "--\(Self.to.name): an agenda spans at most \(Agenda.maximumDays) days; from \(start) it can end at \(end) at the latest, found '\(context.arguments.text(Self.to) ?? "")'",
        command: spec.name)
    }
    return (from, to)
  }
}
