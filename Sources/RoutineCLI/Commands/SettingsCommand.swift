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
      horizon no longer than --window (0, say) learns none. Reminders adapt to how you answer
      them (--adapt): their time follows your answers, they back off when ignored and pause
      while you keep the habit on your own (docs/reminders.md); --daily-cap limits how many a
      day reach you. Reminders can wait while you are away or busy (--hold-while-idle, do not
      disturb, --quiet): held, then delivered once when you are back, at most --hold-at-most
      minutes late, or recorded as missed; alarms and task reminders ring (docs/delivery.md).
      An alarm plays --alarm-sound on each ring until it is answered.
      """,
    options: [
      enabled.spec, threshold.spec, lead.spec, buffer.spec, window.spec, weekly.spec, grace.spec,
      snooze.spec, adapt.spec, dailyCap.spec, holdWhileIdle.spec, holdWhileDoNotDisturb.spec,
      holdAtMost.spec, settle.spec, quiet.spec, alarmSound.spec, timeZone.spec, locale.spec,
    ],
    globals: ["store", "tz", "json"])

  /// `--enabled true|false`.
  static let enabled = Option(
    "enabled", .boolean,
    "Smart reminders on or off (default true; yes/no, on/off and 1/0 also read).")
  /// `--threshold P`: from 0 up to, not including, 1 (a confidence is never above 1).
  static let threshold = Option(
    "threshold",
    ValueType(placeholder: "P", expected: "a number from 0 up to 1") { text in
      Double(text).flatMap { $0.isFinite && $0 >= 0 && $0 < 1 ? $0 : nil }
    }, "Routines with a confidence above P become reminders (default 0.6).")
  /// `--lead MINUTES`.
  static let lead = minutes(
    "lead", "MINUTES", "leadMinutes", "Minutes before the usual time a reminder fires (default 5).")
  /// `--buffer MINUTES`.
  static let buffer = minutes(
    "buffer", "MINUTES", "bufferMinutes",
    "Extra minutes before leaving home, 0 for none (default 10).")
  /// `--window DAYS`.
  static let window = minutes(
    "window", "DAYS", "windowDays", "Days of events a plan learns from (default 7).")
  /// `--weekly DAYS`.
  static let weekly = minutes(
    "weekly", "DAYS", "weeklyDays",
    "Days a plan learns routines of some weekdays from (default 42).")
  /// `--grace MINUTES`: beyond a day, "late" stops meaning anything; delivery looks back a week
  /// at most.
  static let grace = minutes(
    "grace", "MINUTES", "graceMinutes",
    "Reminders up to this late (after downtime) are still delivered, marked late (default 15).")
  /// `--snooze MINUTES`.
  static let snooze = minutes(
    "snooze", "MINUTES", "snoozeMinutes",
    "Minutes until a snoozed reminder comes back (default 5).")
  /// `--adapt true|false`.
  static let adapt = Option(
    "adapt", .boolean,
    "Reminders adapt to how you answer them: time, dose, fading (default true; false: they fire as planned)."
  )
  /// `--daily-cap N`.
  static let dailyCap = minutes(
    "daily-cap", "N", "dailyCap",
    "At most N reminders a day, yours before learned ones; alarms and tasks always (default 0: no cap)."
  )
  /// `--hold-while-idle MINUTES`.
  static let holdWhileIdle = minutes(
    "hold-while-idle", "MINUTES", "holdWhileIdleMinutes",
    "Hold reminders while the desktop has had no input this long or is locked (default 0: never)."
  )
  /// `--hold-while-dnd true|false`.
  static let holdWhileDoNotDisturb = Option(
    "hold-while-dnd", .boolean,
    "Hold reminders while the notification daemon is paused, do not disturb (default true).")
  /// `--hold-at-most MINUTES`.
  static let holdAtMost = minutes(
    "hold-at-most", "MINUTES", "holdAtMostMinutes",
    "A held reminder is delivered at most this late, else recorded as missed (default 120).")
  /// `--settle SECONDS`.
  static let settle = minutes(
    "settle", "SECONDS", "settleSeconds",
    "Seconds to wait after you are back before delivering what was held (default 60).")
  /// `--quiet HH:MM-HH:MM|off`: `.some(nil)` for off.
  static let quiet = Option(
    "quiet",
    ValueType<QuietHours?>(
      placeholder: "HH:MM-HH:MM|off",
      expected: "a range of two different times like 21:00-07:30, or off", choices: ["off"]
    ) { text in
      ["off", "none"].contains(text.lowercased())
        ? .some(nil) : QuietHours(parsing: text).map { .some($0) }
    },
    "Quiet hours: reminders due inside are held (alarms and tasks ring); off for none (default)."
  )
  /// `--alarm-sound NAME|FILE|off`: a sound theme name, or a file (made absolute, so that cron
  /// finds it), `.some(nil)` for off.
  static let alarmSound = Option(
    "alarm-sound",
    ValueType<String?>(
      placeholder: "NAME|FILE|off",
      expected: "a sound theme name like alarm-clock-elapsed, a sound file, or off"
    ) { text in
      if ["off", "none"].contains(text.lowercased()) { return .some(nil) }
      if text.contains("/") { return .some(text) }
      let allowed = text.unicodeScalars.allSatisfy {
        CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == "."
      }
      return allowed && !text.isEmpty ? .some(text) : nil
    },
    "The alarm's sound: a sound theme name (default alarm-clock-elapsed), a file, or off.")
  /// `--time-zone ZONE|none`, checked against the zone database when the command runs.
  static let timeZone = Option(
    "time-zone", .zone(alsoNone: true),
    "The user's IANA time zone, or none to use --tz, $TZ or the system's.")
  /// `--locale NAME|none`: `.some(nil)` for none.
  static let locale = Option(
    "locale",
    ValueType<String?>(
      placeholder: "NAME|none", expected: "a locale name like en_US, de_DE or C, or none",
      choices: ["none"]
    ) { text in
      text.lowercased() == "none" ? .some(nil) : localeName(text).map { .some($0) }
    },
    "The locale of reminder texts' times: en_US (6:46 AM), de_DE or C (06:46); none to take the environment's again."
  )

  /// A whole-number setting in the range the store accepts for `key` (``PlannerSettings/ranges``).
  private static func minutes(
    _ name: String, _ placeholder: String, _ key: String, _ help: String
  ) -> Option<Int> {
    Option(name, .integer(placeholder, in: PlannerSettings.ranges[key]!), help)
  }

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
    var adapt: Bool?
    var dailyCap: Int?
    var holdWhileIdle: Int?
    var holdWhileDoNotDisturb: Bool?
    var holdAtMost: Int?
    var settle: Int?
    /// `.some(nil)` turns quiet hours off.
    var quiet: QuietHours?? = nil
    /// `.some(nil)` turns the alarm's sound off.
    var alarmSound: String?? = nil
    /// `.some(nil)` unsets the zone.
    var timeZone: String?? = nil
    /// `.some(nil)` forgets the locale (the next write records the environment's).
    var locale: String?? = nil

    var isEmpty: Bool {
      enabled == nil && threshold == nil && lead == nil && buffer == nil && window == nil
        && weekly == nil && grace == nil && snooze == nil && adapt == nil && dailyCap == nil
        && holdWhileIdle == nil && holdWhileDoNotDisturb == nil && holdAtMost == nil
        && settle == nil && quiet == nil && alarmSound == nil && timeZone == nil && locale == nil
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
      if let adapt { settings.adapts = adapt }
      if let dailyCap { settings.dailyCap = dailyCap }
      if let holdWhileIdle { settings.holdWhileIdleMinutes = holdWhileIdle }
      if let holdWhileDoNotDisturb { settings.holdWhileDoNotDisturb = holdWhileDoNotDisturb }
      if let holdAtMost { settings.holdAtMostMinutes = holdAtMost }
      if let settle { settings.settleSeconds = settle }
      if let quiet { settings.quietHours = quiet }
      if let alarmSound { settings.alarmSound = alarmSound }
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
          ("adapt", .bool(settings.adapts)), ("dailyCap", .integer(settings.dailyCap)),
          ("holdWhileIdleMinutes", .integer(settings.holdWhileIdleMinutes)),
          ("holdWhileDoNotDisturb", .bool(settings.holdWhileDoNotDisturb)),
          ("holdAtMostMinutes", .integer(settings.holdAtMostMinutes)),
          ("settleSeconds", .integer(settings.settleSeconds)),
          ("quietHours", .optional(settings.quietHours?.description)),
          ("alarmSound", .optional(settings.alarmSound)),
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
      ("adapt", settings.adapts ? "true" : "false"),
      ("daily cap", settings.dailyCap == 0 ? "none" : "\(settings.dailyCap)"),
      (
        "hold while idle",
        settings.holdWhileIdleMinutes == 0 ? "never" : "after \(settings.holdWhileIdleMinutes) min"
      ),
      ("hold while dnd", settings.holdWhileDoNotDisturb ? "true" : "false"),
      ("hold at most", "\(settings.holdAtMostMinutes) min"),
      ("settle seconds", "\(settings.settleSeconds)"),
      ("quiet hours", settings.quietHours?.description ?? "off"),
      ("alarm sound", settings.alarmSound.map { context.displayPath($0) } ?? "off"),
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

  /// A sound file made absolute and checked to be readable (cron runs elsewhere, and finds out
  /// nothing when it cannot read it); a theme name as it is.
  private static func soundFile(_ sound: String?, context: Context) throws(UsageError) -> String? {
    // A name without a slash is a theme name, unless a file of that name is here: someone
    // typing `--alarm-sound bell.wav` beside bell.wav means the file.
    guard let sound, sound.contains("/") || FileSystem.kind(of: sound) == .regularFile else {
      return sound
    }
    let path =
      sound.hasPrefix("/")
      ? sound
      : URL(fileURLWithPath: sound).standardizedFileURL.path
    guard FileSystem.kind(of: path) == .regularFile,
      FileManager.default.isReadableFile(atPath: path)
    else {
      throw UsageError(
        "--alarm-sound: '\(context.displayPath(path))' is not a readable file", command: spec.name)
    }
    return path
  }

  private static func parse(_ context: Context) throws(UsageError) -> Change {
    let arguments = context.arguments
    var change = Change()
    change.enabled = try arguments.value(enabled)
    change.threshold = try arguments.value(threshold)
    change.lead = try arguments.value(lead)
    change.buffer = try arguments.value(buffer)
    change.window = try arguments.value(window)
    change.weekly = try arguments.value(weekly)
    change.grace = try arguments.value(grace)
    change.snooze = try arguments.value(snooze)
    change.adapt = try arguments.value(adapt)
    change.dailyCap = try arguments.value(dailyCap)
    change.holdWhileIdle = try arguments.value(holdWhileIdle)
    change.holdWhileDoNotDisturb = try arguments.value(holdWhileDoNotDisturb)
    change.holdAtMost = try arguments.value(holdAtMost)
    change.settle = try arguments.value(settle)
    change.quiet = try arguments.value(quiet)
    if let sound = try arguments.value(alarmSound) {
      change.alarmSound = .some(try soundFile(sound, context: context))
    }
    change.locale = try arguments.value(locale)
    if let text = arguments.text(timeZone) {
      if text.lowercased() == "none" || text.isEmpty {
        change.timeZone = .some(String?.none)
      } else {
        // As the database spells it (`Europe/Berlin` for `europe/berlin`).
        let source = "--\(timeZone.name)"
        guard let name = try context.zone(named: text, source: source)?.identifier else {
          throw UsageError(context.unknownZone(text, source: source), command: spec.name)
        }
        change.timeZone = name
      }
    }
    return change
  }
}
