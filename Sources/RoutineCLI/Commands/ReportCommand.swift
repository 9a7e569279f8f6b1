import Foundation
import RoutineCore
import RoutineStore

/// `routine report [--out FILE] [--from TIME] [--to TIME]`: one self-contained HTML page (or,
/// for `--out FILE.svg`, the timelines alone).
enum ReportCommand: Command {
  /// The days a report covers when `--from` is not given.
  static let defaultDays = 28

  static let spec = CommandSpec(
    name: "report",
    summary: "Write one HTML page of your routines, what is coming, and what became of reminders.",
    discussion: """
      For each routine: a 24-hour timeline with a row per day of its kind (weekdays, weekends
      or its days of the week apart), each event a dot, outliers a cross with how far off they
      were, the usual time and its spread, the confidence and why. Then the firings of the next
      7 days, what became of each reminder's firings in the range (delivered, answered and how,
      snoozed, skipped because already done, missed), and the reminders you defined with their
      next firing. The page needs nothing else: no script, font or image to fetch; it reads the
      same offline, on a phone, in print and without colour. Routines are learned from the days
      from --from to the day before --to, as 'analyze --days N' would. --out FILE.svg writes the
      timelines alone, as one SVG. docs/report.md shows the page.
      """,
    options: [out.spec, from.spec, to.spec],
    globals: ["store", "now", "tz"], jsonNote: "it writes a page, not data")

  /// `--out FILE`: the page or the timelines, by the file's name (a report.png of HTML would
  /// open as a broken image).
  static let out = Option(
    "out",
    ValueType(
      placeholder: "FILE",
      expected: "FILE.html (or .htm) for the page or FILE.svg for the timelines",
      completes: .file
    ) { text in
      let name = text.lowercased()
      return name == "-" || [".html", ".htm", ".svg"].contains { name.hasSuffix($0) } ? text : nil
    },
    "Write to FILE instead of stdout (FILE.svg: the timelines alone; replaced atomically; a new file is readable by you only)."
  )
  /// `--from TIME`.
  static let from = RangeOptions.from.describing(
    "The first day, in any form of 'routine help dates' (default: \(defaultDays) days before --to)."
  )
  /// `--to TIME`.
  static let to = RangeOptions.to.describing("The end, in the same forms (default: now).")

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.requireNow()
    let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
    let isSVG = (context.arguments.text(out) ?? "").lowercased().hasSuffix(".svg")
    let model = try context.reading { store, settings, zone in
      let clock = context.clockStyle(settings)
      let to = try RangeOptions.bound(context, to, now: now, zone: zone) ?? nowSeconds
      let toDate = WallClock.localDate(at: to, in: zone)
      let fromDate =
        try RangeOptions.bound(context, from, now: now, zone: zone).map {
          WallClock.localDate(at: $0, in: zone)
        } ?? toDate.adding(days: -defaultDays)
      let days = toDate.daysSince1970 - fromDate.daysSince1970
      guard days >= 1 else {
        throw UsageError(
          "--from must be a day before --to (the report learns from the days between)",
          command: spec.name)
      }
      guard days <= Agenda.maximumDays else {
        throw UsageError(
          "--from: a report spans at most \(Agenda.maximumDays) days; found \(days) days",
          command: spec.name)
      }
      let window = AnalysisWindow(
        now: Date(timeIntervalSince1970: Double(to)), days: days, zone: zone)
      let analyzer = RoutineAnalyzer()
      let log = try store?.eventLog(days: analyzer.daysRead(for: window)) ?? EventLog()
      let analysis = analyzer.analyze(log, window: window)
      let requests = try store?.pendingRequests(clock: clock) ?? []
      let skips = try Skips(
        store: store, requests: requests, now: nowSeconds, zone: zone, clock: clock)
      let upcoming = Agenda.items(
        for: requests, from: nowSeconds,
        to: Agenda.end(after: nowSeconds, days: Agenda.defaultDays, in: zone), in: zone)
      let start = WallClock.instant(
        on: fromDate, at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
      let found = try store.map {
        try outcomes($0, from: start, to: to, now: nowSeconds, zone: zone)
      }
      return ReportModel(
        generated: EventFormatting.localDateTime(TimeArgument.stamp(nowSeconds, zone)),
        zoneName: ZoneNames.display(zone), days: fromDate...toDate,
        daysLogged: daysLogged(log, in: fromDate...toDate, until: to),
        routines: ReportCommand.routines(analysis, log: log, days: fromDate...toDate, until: to),
        upcoming: upcoming.map { item in
          ReportFiring(
            at: EventFormatting.localDateTime(TimeArgument.stamp(item.at, zone)),
            title: item.request.title, body: item.request.body,
            skipped: skips.reason(item.request, at: item.firing))
        },
        outcomes: found?.outcomes ?? [],
        reminders: try RemindersCommand.listing(
          store: store, now: nowSeconds, zone: zone, clock: clock
        ).map { row in
          ReportReminder(
            id: row.0.id, subject: row.1, schedule: row.2, isEnabled: row.0.isEnabled,
            next: row.4.map { EventFormatting.localDateTime(TimeArgument.stamp($0, zone)) },
            nextSkipped: row.5)
        }, holds: found?.holds ?? [])
    }
    let document =
      isSVG
      ? ReportTimeline.document(model.routines, emptyNote: ReportPage.emptyRoutines(model))
      : ReportPage.html(model)
    let size = document.utf8.count
    let what =
      (isSVG ? "the timelines of " : "a report of ")
      + "\(counted(model.routines.count, "routine")) (\(size < 10_240 ? "\(size) bytes" : "\(size / 1024) KiB"))"
    try ExportCommand.write(document, summary: what, context: context, command: spec.name)
    return .ok
  }

  /// Local dates in `days` with an event before `until`.
  static func daysLogged(_ log: EventLog, in days: ClosedRange<LocalDate>, until: Int64) -> Int {
    var dates = Set<Int>()
    for times in log.times {
      for time in times where time.secondsSince1970 < until && days.contains(time.localDate) {
        dates.insert(time.localDate.daysSince1970)
      }
    }
    return dates.count
  }

  /// Each routine with the events of its days in `days` (those of its day kind, by the routine
  /// day an event belongs to, so 00:10 is on the row of a 23:50 routine's evening), the outliers
  /// `analyze` found marked.
  static func routines(
    _ analysis: RoutineAnalysis, log: EventLog, days: ClosedRange<LocalDate>, until: Int64
  ) -> [ReportRoutine] {
    var outliers: [String: [Int64: Int]] = [:]
    for outlier in analysis.outliers {
      outliers["\(outlier.kind.key)|\(outlier.expected)", default: [:]][
        outlier.timestamp.secondsSince1970] = outlier.deviationMinutes
    }
    return analysis.routines.map { routine in
      var marks: [Int: [ReportMark]] = [:]
      let flagged = outliers["\(routine.kind.key)|\(routine.time)"] ?? [:]
      if let index = log.index(ofKey: routine.kind.key) {
        for time in log.times[index] where time.secondsSince1970 < until {
          let day = routine.routineDay(ofLocalSeconds: time.localSeconds)
          guard days.contains(day), routine.dayKind.contains(day) else { continue }
          marks[day.daysSince1970, default: []].append(
            ReportMark(time: time.timeOfDay, outlierMinutes: flagged[time.secondsSince1970]))
        }
      }
      let rows = (days.lowerBound.daysSince1970...days.upperBound.daysSince1970)
        .map(LocalDate.init(daysSince1970:))
        .filter { routine.dayKind.contains($0) }
        .map { ReportDay(date: $0, marks: marks[$0.daysSince1970] ?? []) }
      return ReportRoutine(routine: routine, days: rows)
    }
  }

  /// What became of the firings in `from..<to`, per reminder, judged by the core
  /// (``FiringOutcome``) from the delivery records, the answers and the log. Learned reminders
  /// are one row per kind: the planner's keys for a kind (`routine_BedTime`,
  /// `routine_BedTime-2`, one per routine of its day kinds, renumbered as routines are learned
  /// again) are listed together in the row's id.
  static func outcomes(_ store: EventStore, from: Int64, to: Int64, now: Int64, zone: Zone)
    throws -> (outcomes: [ReportOutcome], holds: [ReportHold])
  {
    let settings = try store.settings()
    var holds: [ReportHold] = []
    let records = settings.adapts ? try store.adaptations() : [:]
    let reader = OutcomeReader(store: store, zone: zone, now: now)
    var byOwner: [String: ReportOutcome] = [:]
    var owners: [String: String] = [:]
    // The adaptation keys of each row, for its id and its standing.
    var keys: [String: Set<String>] = [:]
    let deliveries = try store.deliveryCursor(from: from, to: to)
    while let record = try deliveries.next() {
      let key = record.request.adaptationKey ?? record.occurrence.requestID
      var owner = key
      if record.request.origin == .learned, let name = record.request.metadata?.eventKind {
        owner = "learned:" + (EventKind(name)?.key ?? name)
      }
      owners[record.occurrence.requestID] = owner
      keys[owner, default: []].insert(key)
      var outcome = byOwner[owner] ?? ReportOutcome(id: owner, title: record.request.title)
      if record.attempt == 0, let reason = record.heldReason {
        holds.append(ReportCommand.hold(record, reason: reason, zone: zone))
        if holds.count > ReportHold.limit { holds.removeFirst() }
        if record.outcome == .held { outcome.heldNow += 1 }
        if record.releasedAt != nil { outcome.released += 1 }
        if record.outcome == .missed { outcome.missedWhileHeld += 1 }
        byOwner[owner] = outcome
      }
      // A snoozed alert comes back as a request of its own: its firing is the snooze's.
      guard record.attempt == 0, record.request.origin != .snooze else { continue }
      switch try reader.outcome(of: record) {
      case .acted:
        outcome.delivered += 1
        outcome.acted += 1
      case .snoozedThenActed:
        outcome.delivered += 1
        outcome.acted += 1
        outcome.snoozedThenActed += 1
      case .dismissed:
        outcome.delivered += 1
        outcome.dismissed += 1
      case .ignored:
        outcome.delivered += 1
        outcome.ignored += 1
      case .preEmpted:
        outcome.delivered += 1
        outcome.preEmpted += 1
      case .open, nil:
        outcome.delivered += 1
      case .skipped:
        outcome.skipped += 1
      case .notDelivered:
        switch record.outcome {
        case .missed: outcome.missed += 1
        case .held: break
        default: outcome.failed += 1
        }
      }
      byOwner[owner] = outcome
    }
    var actions: [String: [String: Int]] = [:]
    let answers = try store.answerCursor(from: from, to: to)
    while let answer = try answers.next() {
      let id = answer.occurrence.requestID
      let owner = owners[id] ?? id
      guard byOwner[owner] != nil, answer.action != NotificationCategory.snooze.id else { continue }
      actions[owner, default: [:]][answer.action, default: 0] += 1
    }
    for (owner, ids) in keys {
      let sorted = ids.sorted { ($0.count, $0) < ($1.count, $1) }
      byOwner[owner]?.id = sorted.joined(separator: ", ")
      let standings = sorted.compactMap { key in
        records[key].map { (key, WhyCommand.standing($0)) }
      }
      byOwner[owner]?.standing =
        standings.count > 1
        ? standings.map { "\($0.0): \($0.1)" }.joined(separator: "; ") : standings.first?.1
    }
    for (owner, counts) in actions {
      byOwner[owner]?.answers = counts.map { (action: $0.key, count: $0.value) }
        .sorted { ($1.count, $0.action) < ($0.count, $1.action) }
    }
    let outcomes = byOwner.values.filter {
      $0.delivered + $0.skipped + $0.missed + $0.failed + $0.heldNow > 0
    }
    .sorted { ($0.title, $0.id) < ($1.title, $1.id) }
    return (outcomes, holds)
  }

  /// A held firing as the report lists it.
  static func hold(_ record: DeliveryRecord, reason: String, zone: Zone) -> ReportHold {
    let state: String
    if let released = record.releasedAt {
      state =
        "released after \(counted(Int(max(0, released - record.occurrence.at) / 60), "minute"))"
    } else {
      switch record.outcome {
      case .held: state = "held now"
      case .missed: state = "missed: held past its time"
      case .suppressed, .cancelled, .skipped: state = "not delivered: \(record.reason ?? "skipped")"
      default: state = record.outcome.rawValue
      }
    }
    return ReportHold(
      at: EventFormatting.localDateTime(TimeArgument.stamp(record.occurrence.at, zone)),
      id: record.occurrence.requestID, title: record.request.title, state: state, reason: reason)
  }
}
