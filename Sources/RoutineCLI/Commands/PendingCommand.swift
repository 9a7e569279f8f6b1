import Foundation
import RoutineCore
import RoutineStore

/// `routine pending`
enum PendingCommand: Command {
  static let spec = CommandSpec(
    name: "pending",
    summary: "List the pending notification requests with their next fire time.",
    discussion: """
      Ordered by next fire time; requests that will not fire again come last. One-time
      requests that are over (fired, or a day past) are left out unless --all asks.
      """,
    options: [all] + ListingOptions.specs)

  /// `--all`.
  static let all = OptionSpec.flag(
    "all", "List the one-time requests that are over too (fired, or a day past).")

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.nowSeconds()
    let showAll = context.arguments.flag(all)
    try ListingOptions.apply(context)
    let (pending, zone, skips, pausedMessage, hidden) = try context.reading {
      store, settings, zone in
      let clock = context.clockStyle(settings)
      var requests = try store?.pendingRequests(clock: clock, zone: zone) ?? []
      var hidden = 0
      if !showAll {
        let before = requests.count
        requests = try requests.filter {
          try !UsedUp.isOver([$0], store: store, now: now, zone: zone)
        }
        hidden = before - requests.count
      }
      return (
        requests, zone,
        try Skips(store: store, requests: requests, now: now, zone: zone, clock: clock),
        try LearnedPause.message(store), hidden
      )
    }
    let firings = pending.map { ($0, $0.trigger.nextFiring(after: now, in: zone)) }
    let requests =
      firings
      .map { ($0.0, $0.1?.at ?? Int64.max, $0.1) }
      .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
      .map { ($0.0, $0.1) }
    let nextFirings = Dictionary(
      firings.compactMap { request, firing in firing.map { (request.id, $0) } },
      uniquingKeysWith: { first, _ in first })
    func skipped(_ request: NotificationRequest, _ next: Int64) -> String? {
      nextFirings[request.id].flatMap { skips.reason(request, at: $0) }
    }
    if context.isJSON {
      context.output.line(
        JSON.object([
          (
            "requests",
            .array(
              requests.map { request, next in
                guard
                  case .object(var members) = RequestFormatting.json(request, now: now, in: zone)
                else { return .null }
                members.append(("nextSkipped", .optional(skipped(request, next))))
                return .object(members)
              })
          )
        ])
        .serialized())
      return .ok
    }
    defer {
      if hidden > 0, !context.isJSON {
        context.output.line(
          "\(counted(hidden, "one-time request")) over, not shown ('routine pending --all' lists \(hidden == 1 ? "it" : "them"))."
        )
      }
    }
    guard !requests.isEmpty else {
      context.output.line(
        "No pending requests ('routine plan' makes them from your routines, 'routine reminders add' from yours)."
      )
      if let paused = pausedMessage {
        context.output.line("Learned reminders: paused: \(paused).")
      }
      return .ok
    }
    let width = requests.map(\.0.id.count).max() ?? 0
    let triggers = requests.map { RequestFormatting.trigger($0.0.trigger, in: zone) }
    let triggerWidth = max(13, (triggers.map(\.count).max() ?? 0) + 1)
    let whens = requests.map { _, next in
      next == Int64.max
        ? "no further firing"
        : "next \(EventFormatting.localDateTime(RequestFormatting.stamp(next, zone)))"
    }
    // A firing with seconds (a snoozed alert) is longer than the usual 26 characters.
    let whenWidth = max(27, (whens.map(\.count).max() ?? 0) + 1)
    for (((request, next), trigger), when) in zip(zip(requests, triggers), whens) {
      var line =
        HelpFormatter.padded(request.id, to: width + 2)
        + HelpFormatter.padded(trigger, to: triggerWidth)
        + HelpFormatter.padded(when, to: whenWidth) + TerminalText.escaped(request.title)
      if let reason = skipped(request, next) {
        line += context.output.paint(" (skipped: \(TerminalText.escaped(reason)))", .yellow)
      }
      context.output.line(line)
    }
    return .ok
  }
}
