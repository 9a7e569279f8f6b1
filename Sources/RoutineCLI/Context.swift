import Foundation
import RoutineCore
import RoutineStore

/// What the process was started with: the only place the clock and the environment come from.
public struct ProcessEnvironment: Sendable {
  /// Environment variables.
  public var variables: [String: String]
  /// The clock, read once per invocation when `--now`/`ROUTINE_NOW` do not say.
  public var clock: @Sendable () -> Date
  /// The system's time zone, used when neither `--tz` nor `TZ` name one (read only when needed:
  /// loading zone data is a noticeable part of a short command's start-up).
  public var systemTimeZone: @Sendable () -> TimeZone

  /// An environment.
  public init(
    variables: [String: String], clock: @escaping @Sendable () -> Date,
    systemTimeZone: @escaping @Sendable () -> TimeZone
  ) {
    self.variables = variables
    self.clock = clock
    self.systemTimeZone = systemTimeZone
  }

  /// The real process environment.
  public static var current: ProcessEnvironment {
    ProcessEnvironment(
      variables: ProcessInfo.processInfo.environment, clock: { Date() },
      systemTimeZone: { TimeZone.current })
  }
}

/// One invocation: its arguments, outputs, and the global options resolved.
final class Context {
  let arguments: ParsedArguments
  let environment: ProcessEnvironment
  let output: Output
  let errors: Output

  init(arguments: ParsedArguments, environment: ProcessEnvironment, output: Output, errors: Output)
  {
    self.arguments = arguments
    self.environment = environment
    self.output = output
    self.errors = errors
  }

  /// Whether `--json` was given.
  var isJSON: Bool { arguments.flag("json") }

  /// The moment of this invocation: `--now`, else `$ROUTINE_NOW`, else the clock.
  lazy var now: Result<Date, UsageError> = {
    let (text, source) =
      arguments.value("now").map { ($0, "--now") }
      ?? environment.variables["ROUTINE_NOW"].map { ($0, "ROUTINE_NOW") } ?? (nil, "")
    guard let text else { return .success(environment.clock()) }
    guard let timestamp = Timestamp(iso8601: text) else {
      return .failure(
        UsageError("\(source): expected \(Timestamp.expectedFormat), found '\(text)'"))
    }
    return .success(timestamp.date)
  }()

  /// The user's time zone: `--tz`, else `$TZ`, else the system's.
  lazy var timeZone: Result<TimeZone, UsageError> = {
    if let name = arguments.value("tz") {
      guard let zone = TimeZone(identifier: name) else {
        return .failure(
          UsageError("--tz: unknown time zone '\(name)'; expected an IANA name like Europe/Berlin"))
      }
      return .success(zone)
    }
    if var name = environment.variables["TZ"], !name.isEmpty {
      if name.hasPrefix(":") { name.removeFirst() }
      if let zone = TimeZone(identifier: name) { return .success(zone) }
      if name.hasPrefix("/"), let range = name.range(of: "zoneinfo/"),
        let zone = TimeZone(identifier: String(name[range.upperBound...]))
      {
        return .success(zone)
      }
    }
    return .success(environment.systemTimeZone())
  }()

  /// `now` or a usage error.
  func requireNow() throws(UsageError) -> Date { try now.get() }

  /// The zone or a usage error.
  func requireTimeZone() throws(UsageError) -> TimeZone { try timeZone.get() }

  /// A Gregorian calendar in the user's zone.
  func calendar() throws(UsageError) -> Calendar {
    calendar(in: try requireTimeZone())
  }

  /// A Gregorian calendar in `zone`.
  func calendar(in zone: TimeZone) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar
  }

  /// The user's zone for commands that use the store: the zone in the settings, else `--tz`,
  /// else `$TZ`, else the system's (the order of docs/time.md). Says so when `--tz` is overridden.
  func userTimeZone(_ settings: PlannerSettings) throws(UsageError) -> TimeZone {
    guard let name = settings.timeZone else { return try requireTimeZone() }
    guard let zone = TimeZone(identifier: name) else {
      warn("the time zone '\(name)' in the settings is unknown; using --tz, $TZ or the system's")
      return try requireTimeZone()
    }
    if let option = arguments.value("tz"), option != name {
      warn(
        "--tz \(option) ignored: the settings say \(name) (change it with 'routine settings --time-zone')"
      )
    }
    return zone
  }

  /// The locale for times in messages: `LC_ALL`, else `LC_TIME`, else `LANG` (`en_US.UTF-8` is
  /// `en_US`); `nil` for the C/POSIX locale or none, meaning 24-hour `HH:MM`.
  var messageLocale: Locale? {
    let variables = environment.variables
    let value =
      [variables["LC_ALL"], variables["LC_TIME"], variables["LANG"]].compactMap { $0 }
      .first { !$0.isEmpty } ?? ""
    let name =
      value.split(separator: ".").first.map(String.init)?.split(separator: "@").first.map(
        String.init) ?? ""
    guard !name.isEmpty, name != "C", name != "POSIX" else { return nil }
    return Locale(identifier: name)
  }

  /// Opens the store named by `--store` or the environment.
  func openStore() throws -> EventStore {
    guard
      let path = StoreLocation.resolve(
        option: arguments.value("store"), environment: environment.variables)
    else { throw StoreError.noLocation }
    return try EventStore(path: path)
  }

  /// Prints a warning on stderr.
  func warn(_ message: String) {
    errors.line("warning: \(message)")
  }

  /// A positive integer option, or its default.
  func positiveInteger(_ name: String, default value: Int, maximum: Int = 1_000_000)
    throws(UsageError) -> Int
  {
    guard let text = arguments.value(name) else { return value }
    guard let number = Int(text), number > 0, number <= maximum else {
      throw UsageError(
        "--\(name): expected a whole number from 1 to \(maximum), found '\(text)'",
        command: arguments.command)
    }
    return number
  }

  /// The `--format` option.
  func fileFormat() throws(UsageError) -> EventFileFormat? {
    guard let text = arguments.value("format") else { return nil }
    guard let format = EventFileFormat(rawValue: text.lowercased()) else {
      throw UsageError(
        "--format: expected csv or jsonl, found '\(text)'", command: arguments.command)
    }
    return format
  }
}
