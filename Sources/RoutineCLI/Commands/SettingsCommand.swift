import Foundation
import RoutineCore
import RoutineStore

/// `routine settings [--enabled B] [--threshold P] [--lead N] [--buffer N] [--window N]
/// [--weekly N] [--grace N] [--snooze N] [--time-zone ZONE|none] [--locale NAME]`
enum SettingsCommand: Command {
  static let spec = CommandSpec(
    name: "settings",
    summary: "Show or change the settings, stored in the store.",
    discussion: """
      With no option, shows the settings and which store holds them. Changes are read and
      written in one transaction, so changes made at the same time never undo one another.
      Turning smart reminders off removes the learned requests at once. The time zone, when set,
      is the user's zone for every command that uses the store; without it, --tz, then $TZ, then
      the system's. The locale decides whether reminder texts read 6:46 AM or 06:46; it is taken
      from LC_ALL, LC_TIME or LANG the first time routine writes to a store. Routines of some
      weekdays (the gym on Monday, Wednesday and Friday) are learned from the --weekly days; a
      horizon no longer than --window (0, say) learns none.
      """,
    options: [
      .value("enabled", "true|false", "Smart reminders on or off (default true)."),
      .value(
        "threshold", "P", "Routines with a confidence above P become reminders (default 0.6)."),
      .value("lead", "MINUTES", "Minutes before the usual time a reminder fires (default 5)."),
      .value("buffer", "MINUTES", "Extra minutes before leaving home, 0 for none (default 10)."),
      .value("window", "DAYS", "Days of events a plan learns from (default 7)."),
      .value(
        "weekly", "DAYS",
        "Days a plan learns routines of some weekdays from (default 42)."
      ),
      .value(
        "grace", "MINUTES",
        "Reminders up to this late (after downtime) are still delivered, marked late (default 15)."
      ),
      .value("snooze", "MINUTES", "Minutes until a snoozed reminder comes back (default 5)."),
      .value(
        "time-zone", "ZONE|none",
        "The user's IANA time zone, or none to use --tz, $TZ or the system's.", completes: .zone),
      .value(
        "locale", "NAME|none",
        "The locale of reminder texts' times: en_US (6:46 AM), de_DE or C (06:46); none to take the environment's again."
      ),
    ],
    globals: ["store", "tz", "json"])

  /// A change asked for on the command line, checked before the store is opened.
  private struct Change {
    var enabled: Bool?
    var threshold: Double?
    var lead: Int?
    var buffer: Int?
    var window: Int?
    var weekly: Int?
    var grace: Int?
    var snooze: Int?
    /// `.some(nil)` unsets the zone.
    var timeZone: String?? = nil
    /// `.some(nil)` forgets the locale (the next write records the environment's).
    var locale: String?? = nil

    var isEmpty: Bool {
      enabled == nil && threshold == nil && lead == nil && buffer == nil && window == nil
        && weekly == nil && grace == nil && snooze == nil && timeZone == nil && locale == nil
    }

    func apply(to settings: inout PlannerSettings) {
      if let enabled { settings.isEnabled = enabled }
      if let threshold { settings.threshold = threshold }
      if let lead { settings.leadMinutes = lead }
      if let buffer { settings.bufferMinutes = buffer }
      if let window { settings.windowDays = window }
      if let weekly { settings.weeklyDays = weekly }
      if let grace { settings.graceMinutes = grace }
      if let snooze { settings.snoozeMinutes = snooze }
      if let timeZone { settings.timeZone = timeZone }
      if let locale { settings.locale = locale }
    }
  }

  static func run(_ context: Context) throws -> ExitCode {
    let change = try parse(context)
    guard !change.isEmpty else {
      try show(
        try context.openExistingStore()?.settings() ?? PlannerSettings(), removed: nil,
        context: context)
      return .ok
    }
    // Read and changed in one transaction (updateSettings); a zone being set is the one that
    // counts, so an invalid $TZ or the old zone do not stand in the way.
    try context.withWritableStore(checkingZone: change.timeZone == nil) { store in
      try store.write {
        let update = try store.updateSettings { change.apply(to: &$0) }
        try show(
          update.after,
          removed: update.before.isEnabled && !update.after.isEnabled
            ? update.removedRequests : nil, changed: true, context: context)
        // Before the commit: output that cannot be written leaves the settings as they were.
        try context.output.deliver()
      }
    }
    return .ok
  }

  /// Shows `settings` (`changed` by this run), and how many learned requests turning them off
  /// removed.
  private static func show(
    _ settings: PlannerSettings, removed: Int?, changed: Bool = false, context: Context
  ) throws {
    // The same warning as every command when --tz disagrees with the zone in the settings.
    if settings.timeZone != nil { _ = try? context.userTimeZone(settings) }
    let store = try context.storePath()
    // A change is being written to the store, which takes its place when this run commits.
    let exists = changed || FileSystem.kind(of: store) != .missing
    let locale = settings.locale ?? context.environmentLocale

    if context.isJSON {
      context.output.line(
        JSON.object([
          ("enabled", .bool(settings.isEnabled)), ("threshold", .number(settings.threshold)),
          ("leadMinutes", .integer(settings.leadMinutes)),
          ("bufferMinutes", .integer(settings.bufferMinutes)),
          ("windowDays", .integer(settings.windowDays)),
          ("weeklyDays", .integer(settings.weeklyDays)),
          ("graceMinutes", .integer(settings.graceMinutes)),
          ("snoozeMinutes", .integer(settings.snoozeMinutes)),
          ("timeZone", .optional(settings.timeZone)),
          ("locale", .optional(settings.locale)), ("store", .string(store)),
          ("removedRequests", removed.map(JSON.integer) ?? .null),
        ]).serialized())
      return
    }
    let zone: String
    if let name = settings.timeZone {
      zone =
        (try? context.zone(named: name, source: "the settings"))?.map(ZoneNames.display) ?? name
    } else {
      switch context.environmentTimeZone {
      case .success(let fallback):
        zone = "not set (now \(ZoneNames.display(fallback)), from --tz, $TZ or the system)"
      case .failure(let error): zone = "not set (and \(error.message))"
      }
    }
    let clock = ClockStyle(localeIdentifier: locale)
    let example = clock.format(TimeOfDay(hour: 18, minute: 46)!)
    let rows = [
      ("enabled", settings.isEnabled ? "true" : "false"),
      ("threshold", JSON.format(settings.threshold)),
      ("lead minutes", "\(settings.leadMinutes)"), ("buffer minutes", "\(settings.bufferMinutes)"),
      ("window days", "\(settings.windowDays)"),
      (
        "weekly days",
        "\(settings.weeklyDays)"
          + (settings.weeklyDays > settings.windowDays ? "" : " (no weekday sets)")
      ),
      ("grace minutes", "\(settings.graceMinutes)"),
      ("snooze minutes", "\(settings.snoozeMinutes)"),
      ("time zone", zone),
      (
        "locale",
        "\(locale) (times like \(example))"
          + (settings.locale == nil ? ", from the environment until something is stored" : "")
      ),
      ("store", context.displayPath(store) + (exists ? "" : " (not created yet)")),
    ]
    for (name, value) in rows {
      context.output.line(HelpFormatter.padded(name, to: 16) + TerminalText.escaped(value))
    }
    if let removed {
      context.output.line(
        "Smart reminders off: \(counted(removed, "learned request")) removed "
          + "(snooze and outlier alerts stay).")
    }
  }

  /// A locale as Foundation names it (`en_GB` for `en_gb`, `en-GB` or `en_GB.UTF-8`), or `C`,
  /// or `nil` when no locale has the name.
  static func localeName(_ text: String) -> String? {
    let base =
      text.split(separator: ".").first.map(String.init)?.split(separator: "@").first.map(
        String.init) ?? ""
    if base.uppercased() == "C" || base.uppercased() == "POSIX" { return base.uppercased() }
    let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" })
    guard (1...2).contains(parts.count) else { return nil }
    let name =
      parts[0].lowercased() + (parts.count == 2 ? "_" + parts[1].uppercased() : "")
    return Locale.availableIdentifiers.contains(name) ? name : nil
  }

  private static func parse(_ context: Context) throws(UsageError) -> Change {
    let arguments = context.arguments
    var change = Change()
    func invalid(_ option: String, _ expected: String, _ found: String) -> UsageError {
      UsageError("--\(option): expected \(expected), found '\(found)'", command: spec.name)
    }
    if let text = arguments.value("enabled") {
      switch text.lowercased() {
      case "true", "yes", "on", "1": change.enabled = true
      case "false", "no", "off", "0": change.enabled = false
      default: throw invalid("enabled", "true or false", text)
      }
    }
    if let text = arguments.value("threshold") {
      guard let value = Double(text), value >= 0, value < 1 else {
        throw invalid("threshold", "a number from 0 up to 1", text)
      }
      change.threshold = value
    }
    func minutes(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int? {
      guard let text = arguments.value(name) else { return nil }
      guard let value = Int(text), range.contains(value) else {
        throw invalid(name, "a whole number from \(range.lowerBound) to \(range.upperBound)", text)
      }
      return value
    }
    let ranges = PlannerSettings.ranges
    change.lead = try minutes("lead", ranges["leadMinutes"]!)
    change.buffer = try minutes("buffer", ranges["bufferMinutes"]!)
    change.window = try minutes("window", ranges["windowDays"]!)
    change.weekly = try minutes("weekly", ranges["weeklyDays"]!)
    // Beyond a day, "late" stops meaning anything; delivery looks back a week at most.
    change.grace = try minutes("grace", ranges["graceMinutes"]!)
    change.snooze = try minutes("snooze", ranges["snoozeMinutes"]!)
    if let text = arguments.value("time-zone") {
      if text.lowercased() == "none" || text.isEmpty {
        change.timeZone = .some(String?.none)
      } else {
        // As the database spells it (`Europe/Berlin` for `europe/berlin`).
        guard let name = try context.zone(named: text, source: "--time-zone")?.identifier else {
          throw UsageError(context.unknownZone(text, source: "--time-zone"), command: spec.name)
        }
        change.timeZone = name
      }
    }
    if let text = arguments.value("locale") {
      if text.lowercased() == "none" {
        change.locale = .some(String?.none)
      } else {
        guard let name = localeName(text) else {
          throw invalid("locale", "a locale name like en_US, de_DE or C, or none", text)
        }
        change.locale = name
      }
    }
    return change
  }
}
