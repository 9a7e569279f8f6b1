import Foundation
import RoutineCore
import RoutineStore

/// `routine plan [--dry-run]`
enum PlanCommand: Command {
  static let spec = CommandSpec(
    name: "plan",
    summary: "Turn confident routines into reminders (learned notification requests).",
    discussion: """
      Analyses the store over the settings' window, takes routines with a confidence above the
      threshold and schedules each lead minutes before its usual time, every day or on its
      weekdays. Running it again changes nothing; requests of other origins (snooze and outlier
      alerts) are left alone; at most 64 requests are pending, the soonest kept. After three
      days with nothing logged it plans no learned request and says why ('Paused: nothing
      logged since ...'); the next event logged plans again at once. Run it nightly from cron
      (docs/planner.md).
      """,
    options: [dryRun])

  /// `--dry-run`.
  static let dryRun = OptionSpec.flag(
    "dry-run", "Show what would be added, replaced, removed and kept; change nothing.")

  /// What a plan found and did.
  struct Outcome {
    var settings: PlannerSettings
    var zone: Zone
    var now: Int64
    var wanted: [NotificationRequest]
    var change: PlanChange
    /// Why nothing was learned, when the reason is that every event lies outside the window.
    var emptyNote: String? = nil
    /// Why the next firing of a wanted request will be skipped, by request id.
    var nextSkipped: [String: String] = [:]
    /// The reminders whose adaptations changed at this plan.
    var adapted: [AdaptationRecord] = []
    /// Why no learned reminder was planned, when nothing was logged for days
    /// (``LoggingSilence``).
    var silence: LoggingSilence? = nil
  }

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.requireNow()
    let dryRun = context.arguments.flag(Self.dryRun)
    // The settings, the events and the pending requests are read, and the change written, in one
    // transaction: a 'settings --enabled false' running meanwhile either comes before the plan
    // (which then adds nothing) or after it (and removes what the plan added).
    func plan(_ store: EventStore?, _ settings: PlannerSettings, _ zone: Zone) throws
      -> Outcome
    {
      try PlanCommand.plan(
        store, settings: settings, zone: zone, now: now, dryRun: dryRun, context: context)
    }
    // Without a store there is nothing to plan, and cron's nightly plan must not create one
    // (it would fix the store's locale to cron's).
    if try dryRun || !context.storeExists() {
      show(
        try context.reading { store, settings, zone in try plan(store, settings, zone) },
        dryRun: dryRun, context: context)
    } else {
      try context.writing { store, settings, zone in
        show(try plan(store, settings, zone), dryRun: dryRun, context: context)
        // Before the commit: output that cannot be written leaves the plan as it was.
        try context.output.deliver()
      }
    }
    return .ok
  }

  /// A request as in `pending --json`, with `nextSkipped`.
  private static func json(_ request: NotificationRequest, _ outcome: Outcome) -> JSON {
    guard
      case .object(var members) = RequestFormatting.json(
        request, now: outcome.now, in: outcome.zone)
    else { return .null }
    members.append(("nextSkipped", .optional(outcome.nextSkipped[request.id])))
    return .object(members)
  }

  /// Says what the plan changed.
  private static func show(_ outcome: Outcome, dryRun: Bool, context: Context) {
    let (settings, zone, wanted, change) = (
      outcome.settings, outcome.zone, outcome.wanted, outcome.change
    )

    if context.isJSON {
      context.output.line(
        JSON.object([
          ("dryRun", .bool(dryRun)),
          ("added", .array(change.added.map { json($0, outcome) })),
          ("replaced", .array(change.replaced.map { json($0.new, outcome) })),
          ("removed", .array(change.removed.map { .string($0.id) })),
          ("kept", .array(change.kept.map { .string($0.id) })),
          ("leftOut", .array(change.leftOut.map { .string($0.id) })),
          (
            "paused",
            outcome.silence.flatMap { silence in
              silence.message.map { message in
                JSON.object([
                  ("lastLogged", .optional(silence.lastLogged?.description)),
                  ("silentDays", .integer(silence.silentDays)), ("message", .string(message)),
                ])
              }
            } ?? .null
          ),
          (
            "adapted",
            .array(
              outcome.adapted.map { record in
                .object([
                  ("key", .string(record.key)), ("state", .string(record.state.rawValue)),
                  ("explanations", .array(record.explanations.map { .string($0) })),
                ])
              })
          ),
        ]).serialized())
      return
    }
    let output = context.output
    guard settings.isEnabled else {
      output.line("Smart reminders are off ('routine settings --enabled true' turns them on).")
      if !change.removed.isEmpty {
        output.line("  removed   \(counted(change.removed.count, "learned request"))")
      }
      return
    }
    output.line(
      "Plan from \(counted(settings.windowDays, "day")) of events"
        + (settings.weeklyDays > settings.windowDays
          ? ", \(settings.weeklyDays) for some weekdays" : "")
        + " (confidence above \(JSON.format(settings.threshold)), "
        + "\(settings.leadMinutes) min ahead, \(ZoneNames.display(zone)))\(dryRun ? ", dry run: nothing changed" : ""):"
    )
    // A request whose time and title stay and whose words alone changed (its confidence and
    // reason move a little every night) is counted, not listed: a nightly plan's log says what
    // changed for the person, in a few lines (the JSON has every request).
    let (changed, reworded) = change.replaced.reduce(
      into: ([NotificationRequest](), 0)
    ) { result, pair in
      if pair.old.trigger == pair.new.trigger && pair.old.title == pair.new.title {
        result.1 += 1
      } else {
        result.0.append(pair.new)
      }
    }
    let width = max(
      (change.added + changed).map(\.id.count).max() ?? 0,
      change.removed.map(\.id.count).max() ?? 0, outcome.adapted.map(\.key.count).max() ?? 0)
    // "would replace" is the longest label; the columns after it line up in both modes.
    let labelWidth = dryRun ? 15 : 10
    // Triggers as wide as the widest shown ("Mon/Wed/Fri 18:19"), two spaces after.
    let triggerWidth =
      (change.added + changed).map {
        RequestFormatting.trigger($0.trigger, in: zone).count
      }.max().map { $0 + 2 } ?? 0
    func line(_ label: String, _ request: NotificationRequest, detail: Bool = true) {
      let text =
        "  \(HelpFormatter.padded(label, to: labelWidth))\(HelpFormatter.padded(request.id, to: width + 2))"
      output.line(
        detail
          ? text
            + HelpFormatter.padded(
              RequestFormatting.trigger(request.trigger, in: zone), to: triggerWidth)
            + TerminalText.escaped(request.title)
          : text.trimmingTrailingSpaces)
    }
    for request in change.added { line(dryRun ? "would add" : "added", request) }
    for request in changed { line(dryRun ? "would replace" : "replaced", request) }
    for request in change.removed {
      line(dryRun ? "would remove" : "removed", request, detail: false)
    }
    if reworded > 0 {
      output.line(
        "  \(HelpFormatter.padded(dryRun ? "would reword" : "reworded", to: labelWidth))"
          + "\(counted(reworded, "request")) at the same \(reworded == 1 ? "time" : "times")"
          + " (new confidence or reason)")
    }
    output.line(
      "  \(HelpFormatter.padded("kept", to: labelWidth))\(counted(change.kept.count, "request")) "
        + (change.kept.count == 1 ? "as it was" : "as they were"))
    for record in outcome.adapted {
      for explanation in record.explanations {
        output.line(
          "  \(HelpFormatter.padded("adapted", to: labelWidth))"
            + "\(HelpFormatter.padded(record.key, to: width + 2))\(explanation)")
      }
    }
    if !change.leftOut.isEmpty {
      output.line(
        "Left out (\(PlannerSettings.pendingLimit) requests pending at most; these fire latest): "
          + change.leftOut.map(\.id).joined(separator: ", "))
    }
    if let message = outcome.silence?.message {
      output.line("Paused: \(message).")
    } else if let note = outcome.emptyNote {
      output.line("No routine: \(note).")
    } else if wanted.isEmpty {
      output.line("No routine is confident enough yet; 'routine analyze' shows what was found.")
    }
  }

  /// Plans at `now`, inside the caller's transaction: `routine plan` and `routine watch`'s
  /// nightly plan.
  static func plan(
    _ store: EventStore?, settings: PlannerSettings, zone: Zone, now: Date, dryRun: Bool,
    context: Context
  ) throws -> Outcome {
    let window = AnalysisWindow(
      now: now, days: settings.windowDays, zone: zone)
    var analyzer = RoutineAnalyzer(weeklyDays: settings.weeklyDays)
    analyzer.configuration.threshold = settings.threshold
    let log = try store?.eventLog(days: analyzer.daysRead(for: window)) ?? EventLog()
    let analysis = analyzer.analyze(log, window: window)
    var wanted = Planner(
      settings: settings, messages: ReminderMessages(clock: context.clockStyle(settings))
    )
    .requests(for: analysis)
    var adapted: [AdaptationRecord] = []
    if let store, settings.adapts {
      (wanted, adapted) = try adapt(
        wanted, analysis: analysis, store: store, settings: settings, zone: zone, now: window.now,
        dryRun: dryRun, context: context)
    }
    let change =
      try store?.reconcile(wanted: wanted, now: window.now, timeZone: zone, dryRun: dryRun)
      ?? Reconciler.change(pending: [], wanted: wanted, now: window.now, timeZone: zone)
    if let store, !dryRun {
      // The next logged event plans again while the learned reminders pause (LearnedPause).
      try store.setState(
        LearnedPause.stateKey,
        analysis.silence.pausesLearned ? analysis.silence.lastLogged?.description ?? "" : "")
      // The routines reminders are made of, for the outlier check after each logged event.
      let tolerance = RoutineAnalyzer().configuration.toleranceSeconds
      try store.saveLearnedRoutines(
        settings.isEnabled
          ? analysis.routines.filter { $0.confidence > settings.threshold }.map {
            LearnedRoutine($0, toleranceSeconds: tolerance)
          } : [])
    }
    var note: String?
    if analysis.routines.isEmpty {
      if let dates = try store?.eventDates() {
        note = AnalyzeCommand.outsideNote(
          window: window, dates: dates, what: "the store's events run"
        ) {
          "log or import recent ones ('routine analyze --now \($0)' shows what the old ones teach)"
        }
      } else {
        note = "there are no events yet ('routine log' or 'routine import' adds them)"
      }
    }
    // The reminders you defined decide too: a learned one gives way to one for the same act.
    let defined =
      try store?.pendingRequests(clock: context.clockStyle(settings)).filter {
        $0.origin == .reminder
      } ?? []
    let skips = try Skips(
      store: store, requests: wanted + defined, now: window.now, zone: zone,
      clock: context.clockStyle(settings))
    var nextSkipped: [String: String] = [:]
    for request in wanted {
      if let firing = request.trigger.nextFiring(after: window.now, in: zone),
        let reason = skips.reason(request, at: firing)
      {
        nextSkipped[request.id] = reason
      }
    }
    return Outcome(
      settings: settings, zone: zone, now: window.now, wanted: wanted, change: change,
      emptyNote: note, nextSkipped: nextSkipped, adapted: adapted,
      silence: analysis.silence.pausesLearned ? analysis.silence : nil)
  }

  /// Reminders that listen (docs/reminders.md): each reminder's record of the last weeks read
  /// into its state, the learned requests moved, paused into check-ins or made to follow a
  /// moved routine, and the records stored (unless `dryRun`). Returns the requests to plan and
  /// the records whose adaptations changed since the last plan.
  static func adapt(
    _ wanted: [NotificationRequest], analysis: RoutineAnalysis, store: EventStore,
    settings: PlannerSettings, zone: Zone, now: Int64, dryRun: Bool, context: Context
  ) throws -> ([NotificationRequest], [AdaptationRecord]) {
    let clock = context.clockStyle(settings)
    let previousLearned = try store.requests().filter { $0.origin == .learned }
    let defined = try store.pendingRequests(clock: clock, adapted: false).filter {
      $0.origin == .reminder
    }
    let records = try store.adaptations()
    var modes: [String: AdaptationMode] = [:]
    for reminder in try store.reminders() { modes[reminder.id] = reminder.adapt }
    // Where each learned routine usually ends: a reminder never moves past it, and a paused one
    // checks in there.
    var latest: [String: TimeOfDay] = [:]
    for request in wanted {
      guard let key = request.adaptationKey, let usual = request.metadata?.suggestedTime,
        let routine = analysis.routines.first(where: {
          $0.time == usual && $0.kind.name == request.metadata?.eventKind
        })
      else { continue }
      latest[key] = routine.latest
    }
    let histories = try store.reminderRecords(
      for: wanted + previousLearned + defined,
      firingsSince: now - Int64(Adaptation.historyDays + 1) * 86_400,
      actsSince: now - Int64(Adaptation.strengthDays + 1) * 86_400, now: now)
    let output = AdaptationPlanner(settings: settings, zone: zone, now: now).plan(
      AdaptationPlanner.Input(
        learned: wanted, previousLearned: previousLearned, defined: defined, modes: modes,
        records: records, histories: histories, latest: latest))
    if !dryRun { try store.saveAdaptations(output.records, at: now) }
    let changed = output.records.filter {
      !$0.explanations.isEmpty && $0.explanations != records[$0.key]?.explanations
    }
    return (output.learned, changed)
  }
}
