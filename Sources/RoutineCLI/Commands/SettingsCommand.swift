import Foundation
import RoutineCore
import RoutineStore

/// `routine settings [--enabled true|false] [--threshold P] [--lead N] [--buffer N] [--window N]
/// [--time-zone ZONE|none]`
enum SettingsCommand: Command {
  static let spec = CommandSpec(
    name: "settings",
    summary: "Show or change the planner's settings, stored in the store.",
    discussion: """
      With no option, shows the settings. Turning smart reminders off removes the learned
      requests at once. The time zone here, when set, is the user's zone for every command that
      uses the store; without it, --tz, then $TZ, then the system's.
      """,
    options: [
      .value("enabled", "true|false", "Smart reminders on or off (default true)."),
      .value(
        "threshold", "P", "Routines with a confidence above P become reminders (default 0.6)."),
      .value("lead", "MINUTES", "Minutes before the usual time a reminder fires (default 5)."),
      .value("buffer", "MINUTES", "Extra minutes before leaving home, 0 for none (default 10)."),
      .value("window", "DAYS", "Days of events a plan learns from (default 7)."),
      .value(
        "time-zone", "ZONE|none",
        "The user's IANA time zone, or none to use --tz, $TZ or the system's."),
    ],
    globals: ["store", "json", "tz"])

  static func run(_ context: Context) throws -> ExitCode {
    let store = try context.openStore()
    var settings = try store.settings()
    let arguments = context.arguments
    let before = settings
    func invalid(_ option: String, _ expected: String, _ found: String) -> UsageError {
      UsageError("--\(option): expected \(expected), found '\(found)'", command: spec.name)
    }
    if let text = arguments.value("enabled") {
      switch text.lowercased() {
      case "true", "yes", "on", "1": settings.isEnabled = true
      case "false", "no", "off", "0": settings.isEnabled = false
      default: throw invalid("enabled", "true or false", text)
      }
    }
    if let text = arguments.value("threshold") {
      guard let value = Double(text), value >= 0, value < 1 else {
        throw invalid("threshold", "a number from 0 up to 1", text)
      }
      settings.threshold = value
    }
    func minutes(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int? {
      guard let text = arguments.value(name) else { return nil }
      guard let value = Int(text), range.contains(value) else {
        throw invalid(name, "a whole number from \(range.lowerBound) to \(range.upperBound)", text)
      }
      return value
    }
    settings.leadMinutes = try minutes("lead", 0...720) ?? settings.leadMinutes
    settings.bufferMinutes = try minutes("buffer", 0...240) ?? settings.bufferMinutes
    settings.windowDays = try minutes("window", 1...3660) ?? settings.windowDays
    if let text = arguments.value("time-zone") {
      if text.lowercased() == "none" || text.isEmpty {
        settings.timeZone = nil
      } else {
        guard TimeZone(identifier: text) != nil else {
          throw invalid("time-zone", "an IANA time zone like Europe/Berlin, or none", text)
        }
        settings.timeZone = text
      }
    }
    var removed = 0
    if settings != before {
      if before.isEnabled && !settings.isEnabled {
        removed = try store.requests().filter { $0.origin == .learned }.count
      }
      try store.save(settings)
    }

    if context.isJSON {
      context.output.line(
        JSON.object([
          ("enabled", .bool(settings.isEnabled)), ("threshold", .number(settings.threshold)),
          ("leadMinutes", .integer(settings.leadMinutes)),
          ("bufferMinutes", .integer(settings.bufferMinutes)),
          ("windowDays", .integer(settings.windowDays)), ("timeZone", .optional(settings.timeZone)),
        ]).serialized())
      return .ok
    }
    let fallback = try context.requireTimeZone().identifier
    let zone = settings.timeZone ?? "not set (now \(fallback), from --tz, $TZ or the system)"
    let rows = [
      ("enabled", settings.isEnabled ? "true" : "false"),
      ("threshold", JSON.format(settings.threshold)),
      ("lead minutes", "\(settings.leadMinutes)"), ("buffer minutes", "\(settings.bufferMinutes)"),
      ("window days", "\(settings.windowDays)"), ("time zone", zone),
    ]
    for (name, value) in rows { context.output.line(HelpFormatter.padded(name, to: 16) + value) }
    if removed > 0 {
      context.output.line("Smart reminders off: \(removed) learned requests removed.")
    }
    return .ok
  }
}
