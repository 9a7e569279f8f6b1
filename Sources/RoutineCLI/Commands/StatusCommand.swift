import Foundation
import RoutineCore
import RoutineStore

/// What `routine status --format` prints.
enum StatusFormat: String, CaseIterable {
  /// The line as it is.
  case text
  /// The JSON object waybar's custom modules read (`return-type: json`).
  case waybar
  /// The line with `%` doubled, as polybar's script modules want.
  case polybar
  /// The line with `#` doubled, as tmux's status line wants.
  case tmux
}

/// `routine status [--format text|waybar|polybar|tmux]`: one line for a status bar.
enum StatusCommand: Command {
  static let spec = CommandSpec(
    name: "status",
    summary: "One line for a status bar: the next reminder and how many are left today.",
    discussion: """
      Prints '18:00 Workout · 2 of 3 left today' (a reminder on another day shows its day,
      firings that will be skipped are not counted), or 'no reminders'. Made for waybar,
      polybar, i3status or tmux: it only reads, answers quickly, and prints a line even when
      there is no store yet. --format waybar prints waybar's JSON: "text" (the next
      reminder), "tooltip" (today's remaining reminders), "class" (due-soon within 15 minutes,
      idle, or off when nothing is left to fire) and "alt" (the same); polybar and tmux print
      the line with their markup characters escaped (docs/status-bars.md). With --json:
      {"next": {"id", "at", "title"} or null, "today", "leftToday", "skippedToday",
      "learnedPausedSince"} (the last date with an event while learned reminders pause, or
      null; the line then ends '· paused: nothing logged since Thu').
      """,
    options: [format.spec],
    globals: ["store", "now", "tz", "json"])

  /// `--format text|waybar|polybar|tmux`.
  static let format = Option<StatusFormat>(
    "format", .oneOf(), "What to print (default: text).")

  /// How close the next reminder is when waybar's class says `due-soon`.
  static let dueSoonSeconds: Int64 = 15 * 60

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.nowSeconds()
    let format = try self.format(context)
    let (summary, zone, clock, pausedSince) = try context.reading { store, settings, zone in
      let clock = context.clockStyle(settings)
      let requests = try store?.pendingRequests(clock: clock) ?? []
      let skips = try Skips(store: store, requests: requests, now: now, zone: zone, clock: clock)
      return (
        StatusSummary(requests: requests, now: now, zone: zone) { skips.reason($0, at: $1) },
        zone, clock, try LearnedPause.pausedSince(store)
      )
    }
    if context.isJSON {
      let next: JSON =
        summary.next.map { item in
          .object([
            ("id", .string(item.request.id)),
            ("at", .string(TimeArgument.stamp(item.at, zone).iso8601)),
            ("title", .string(item.request.title)),
          ])
        } ?? .null
      context.output.line(
        JSON.object([
          ("next", next), ("today", .integer(summary.today)),
          ("leftToday", .integer(summary.leftToday)),
          ("skippedToday", .integer(summary.skippedToday)),
          ("learnedPausedSince", .optional(pausedSince?.description)),
        ]).serialized())
      return .ok
    }
    let today = WallClock.localDate(at: now, in: zone)
    /// `18:00 Workout`, or `Fri 18:00 Workout` on another day.
    func label(_ item: Agenda.Item) -> String {
      let stamp = TimeArgument.stamp(item.at, zone)
      let day = stamp.localDate == today ? "" : "\(stamp.localDate.weekdayName) "
      return "\(day)\(clock.format(stamp.timeOfDay)) \(item.request.title)"
    }
    // A bar should show why the learned reminders are gone: nothing logged for days.
    let paused = pausedSince.map { " · paused: nothing logged since \($0.weekdayName)" } ?? ""
    let line =
      (summary.next.map { "\(label($0)) · \(summary.leftToday) of \(summary.today) left today" }
        ?? "no reminders") + paused
    switch format {
    case .text:
      context.output.line(TerminalText.escaped(oneLine(line)))
    case .polybar:
      // Polybar reads %{...} in a script's output as formatting: a title must not restyle the bar.
      context.output.line(oneLine(line).replacingOccurrences(of: "%", with: "%%"))
    case .tmux:
      // tmux reads #[...] and #{...} in a status command's output: ## is a literal #.
      context.output.line(oneLine(line).replacingOccurrences(of: "#", with: "##"))
    case .waybar:
      context.output.line(
        waybar(summary, now: now, pausedSince: pausedSince, label: label).compact())
    }
    return .ok
  }

  /// The object waybar's custom module reads. Its text and tooltip are Pango markup, so `&`,
  /// `<` and `>` in a title are escaped.
  static func waybar(
    _ summary: StatusSummary, now: Int64, pausedSince: LocalDate? = nil,
    label: (Agenda.Item) -> String
  ) -> JSON {
    let state: String
    if let next = summary.next {
      state = next.at - now <= dueSoonSeconds ? "due-soon" : "idle"
    } else {
      state = "off"
    }
    var tooltip: [String]
    if summary.remaining.isEmpty {
      tooltip = ["Nothing left today."]
    } else {
      tooltip = ["\(summary.leftToday) of \(summary.today) left today:"]
      tooltip += summary.remaining.map(label)
    }
    if summary.skippedToday > 0 {
      tooltip.append("\(summary.skippedToday) skipped today (already done).")
    }
    if summary.remaining.isEmpty, let next = summary.next {
      tooltip.append("Next: \(label(next))")
    }
    if let pausedSince {
      tooltip.append(
        "Learned reminders paused: nothing logged since \(pausedSince.weekdayName) \(pausedSince).")
    }
    return .object([
      ("text", .string(markup(summary.next.map(label) ?? "no reminders"))),
      ("tooltip", .string(tooltip.map(markup).joined(separator: "\n"))),
      ("class", .string(state)), ("alt", .string(state)),
    ])
  }

  /// `--format`.
  static func format(_ context: Context) throws(UsageError) -> StatusFormat {
    try context.arguments.value(format) ?? .text
  }

  /// Pango markup's escapes, on a line without control characters.
  static func markup(_ text: String) -> String {
    oneLine(text).replacingOccurrences(of: "&", with: "&amp;")
      .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
  }

  /// A status bar shows one line: control characters (a line break in a title) become spaces,
  /// and bidirectional formatting characters, which a bar would apply to the text around them,
  /// are dropped.
  static func oneLine(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where !BidiControls.contains(scalar) {
      scalars.append(scalar.properties.generalCategory == .control ? " " : scalar)
    }
    return String(scalars)
  }
}

/// What `status` counts: the next firing that is not skipped, and today's firings.
struct StatusSummary {
  var next: Agenda.Item?
  /// Today's firings still to come, not skipped, in order.
  var remaining: [Agenda.Item] = []
  var today = 0
  var leftToday = 0
  var skippedToday = 0

  init(
    requests: [NotificationRequest], now: Int64, zone: Zone,
    skipped: (NotificationRequest, Firing) -> String?
  ) {
    let date = WallClock.localDate(at: now, in: zone)
    let midnight = WallClock.instant(on: date, at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    let tomorrow = WallClock.instant(
      on: date.adding(days: 1), at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    for item in Agenda.items(for: requests, from: midnight, to: tomorrow, in: zone) {
      if skipped(item.request, item.firing) != nil {
        skippedToday += 1
        continue
      }
      today += 1
      if item.at > now {
        leftToday += 1
        remaining.append(item)
        if next == nil { next = item }
      }
    }
    guard next == nil else { return }
    // Nothing more today: the soonest firing after, not skipped, within a month.
    for request in requests {
      var after = max(now, tomorrow - 1)
      for _ in 0..<8 {
        guard let firing = request.trigger.nextFiring(after: after, in: zone),
          firing.at < now + 31 * 86_400
        else { break }
        let at = firing.at
        if skipped(request, firing) == nil {
          if next.map({ (at, request.id) < ($0.at, $0.request.id) }) ?? true {
            next = Agenda.Item(at: at, request: request, slot: firing.slot)
          }
          break
        }
        after = at
      }
    }
  }
}
