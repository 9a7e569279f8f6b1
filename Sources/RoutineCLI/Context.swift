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
  /// loading zone data is a noticeable part of a short command's start-up). Throws when the
  /// system's zone file is damaged.
  public var systemTimeZone: @Sendable () throws(ZoneDataError) -> Zone
  /// Whether standard input is a terminal (a question can be asked there).
  public var isInteractive: Bool
  /// Reads one line from standard input (the answer to a question), or `nil` at its end.
  public var readLine: @Sendable () -> String?
  /// What the desktop says about the person (idleness, the lock, do not disturb) for the hold
  /// rules of delivery; `nil` reads the real desktop named by ``variables`` (docs/delivery.md
  /// "Held while you are away"). A simulation or a test gives its own.
  public var presence: (@Sendable (HoldRules) -> (presence: Presence, problems: [String]))?

  /// An environment.
  public init(
    variables: [String: String], clock: @escaping @Sendable () -> Date,
    systemTimeZone: @escaping @Sendable () throws(ZoneDataError) -> Zone,
    isInteractive: Bool = false,
    readLine: @escaping @Sendable () -> String? = { nil },
    presence: (@Sendable (HoldRules) -> (presence: Presence, problems: [String]))? = nil
  ) {
    self.variables = variables
    self.clock = clock
    self.systemTimeZone = systemTimeZone
    self.isInteractive = isInteractive
    self.readLine = readLine
    self.presence = presence
  }

  /// The real process environment.
  public static var current: ProcessEnvironment {
    let variables = environmentVariables()
    return ProcessEnvironment(
      variables: variables, clock: { Date() },
      // /etc/localtime, as glibc reads it; named through the database $TZDIR names.
      systemTimeZone: { () throws(ZoneDataError) -> Zone in
        try ZoneDatabase.shared(directory: variables["TZDIR"]).systemZone()
      }, isInteractive: isatty(0) == 1, readLine: { Swift.readLine() })
  }
}

/// The process's environment variables, read from `environ` directly: Foundation's
/// `ProcessInfo.environment` costs about 0.8 M instructions, a tenth of a short command.
private func environmentVariables() -> [String: String] {
  var variables: [String: String] = [:]
  variables.reserveCapacity(64)
  var entry = environ
  while let pointer = entry.pointee {
    // Bytes, not Characters: grapheme breaking every variable costs more than the rest.
    let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
    if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
      let name = String(decoding: bytes[..<equals], as: UTF8.self)
      // The first of a repeated name wins, as getenv(3) has it.
      if variables[name] == nil {
        variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
      }
    }
    entry += 1
  }
  return variables
}

/// One invocation: its arguments, outputs, and the global options resolved.
final class Context {
  let arguments: ParsedArguments
  let environment: ProcessEnvironment
  let output: Output
  let errors: Output
  /// This invocation's mark in the change journal: its writes are undone together.
  let changeRun = UUID().uuidString

  init(arguments: ParsedArguments, environment: ProcessEnvironment, output: Output, errors: Output)
  {
    self.arguments = arguments
    self.environment = environment
    self.output = output
    self.errors = errors
  }

  /// Whether `--json` was given.
  var isJSON: Bool { arguments.flag(GlobalOption.json) }

  /// The command's name, for usage errors.
  var command: String? { arguments.command }

  // MARK: Time

  /// The moment of this invocation: `--now`, else `$ROUTINE_NOW`, else the clock.
  lazy var now: Result<Date, UsageError> = {
    let (text, source) =
      arguments.text(GlobalOption.now).map { ($0, "--now") }
      ?? environment.variables["ROUTINE_NOW"].map { ($0, "ROUTINE_NOW") } ?? (nil, "")
    guard let text else { return .success(environment.clock()) }
    guard let timestamp = Timestamp(iso8601: text) else {
      return .failure(
        UsageError("\(source): expected \(Timestamp.expectedFormat), found '\(text)'"))
    }
    return .success(timestamp.date)
  }()

  /// `now` or a usage error.
  func requireNow() throws(UsageError) -> Date { try now.get() }

  /// `now` in whole seconds since 1970.
  func nowSeconds() throws(UsageError) -> Int64 {
    Int64(try requireNow().timeIntervalSince1970.rounded(.down))
  }

  /// The tz database: the directory `$TZDIR` names, else `/usr/share/zoneinfo`.
  var zoneDatabase: ZoneDatabase { ZoneDatabase.shared(directory: environment.variables["TZDIR"]) }

  /// The zone `name` names (the database's, else Foundation's), or `nil` when none has that
  /// name. A damaged zone file is an error that names `source` and the file, with no usage line:
  /// it is not the command line's fault.
  func zone(named name: String, source: String) throws(UsageError) -> Zone? {
    do {
      return try zoneDatabase.zone(named: name)
    } catch {
      throw UsageError(
        ZoneNames.damaged(name, source: source, error: error), command: "", exitCode: .dataError)
    }
  }

  /// The message for an unknown zone `name` from `source`, with suggestions from the database.
  func unknownZone(_ name: String, source: String, advice: String? = nil) -> String {
    ZoneNames.unknown(name, source: source, advice: advice, in: zoneDatabase)
  }

  /// The system's zone, or the error that its zone file is damaged.
  func systemZone() -> Result<Zone, UsageError> {
    do {
      return .success(try environment.systemTimeZone())
    } catch {
      return .failure(
        UsageError(
          "the system's time zone: \(error); fix it, or set TZ or pass --tz ZONE", command: "",
          exitCode: .dataError))
    }
  }

  /// The zone `--tz` names, if given (an unknown name is a usage error).
  lazy var optionZone: Result<Zone?, UsageError> = {
    guard let name = arguments.text(GlobalOption.tz) else { return .success(nil) }
    do throws(UsageError) {
      guard let zone = try zone(named: name, source: "--tz") else {
        return .failure(UsageError(unknownZone(name, source: "--tz"), command: command))
      }
      return .success(zone)
    } catch {
      return .failure(error)
    }
  }()

  /// The zone when no store says: `--tz`, else `$TZ`, else the system's. An unknown name in
  /// either is a usage error, never a silent fall back to UTC.
  lazy var environmentTimeZone: Result<Zone, UsageError> = {
    switch optionZone {
    case .failure(let error): return .failure(error)
    case .success(let zone?): return .success(zone)
    case .success(nil): break
    }
    guard let original = environment.variables["TZ"], !original.isEmpty else {
      return systemZone()
    }
    // glibc reads "TZ=:Europe/Berlin" and "TZ=/usr/share/zoneinfo/Europe/Berlin" too.
    let name = original.hasPrefix(":") ? String(original.dropFirst()) : original
    if name == "/etc/localtime" { return systemZone() }
    let found: Zone?
    do throws(ZoneDataError) {
      if name.hasPrefix("/") {
        found = try zoneDatabase.zone(atPath: name)
      } else {
        // As glibc: a file of the database first, then a POSIX rule (never after a colon);
        // Foundation's rules last, for a zone the database lacks.
        found =
          try zoneDatabase.databaseZone(named: name)
          ?? (original.hasPrefix(":")
            ? nil : PosixZoneRule(name).map { Zone(posixRule: $0, text: name) })
          ?? ZoneDatabase.foundationZone(named: name)
      }
    } catch {
      return .failure(
        UsageError(
          ZoneNames.damaged(original, source: "TZ", error: error), command: "",
          exitCode: .dataError))
    }
    guard let zone = found else {
      // Not a command-line mistake: the status of one (64), but no usage line.
      return .failure(
        UsageError(
          unknownZone(original, source: "TZ", advice: "Fix or unset TZ, or pass --tz ZONE."),
          command: ""))
    }
    return .success(zone)
  }()

  /// The user's zone: the zone in the store's settings, else `--tz`, else `$TZ`, else the
  /// system's (docs/time.md). The one rule every command that uses a store follows; says once
  /// when a different `--tz` is overridden, unless the command used `--tz` for something else
  /// (`import` reads timestamps without an offset in it) and says `warning: false`.
  func userTimeZone(_ settings: PlannerSettings, warning: Bool = true) throws(UsageError)
    -> Zone
  {
    guard let name = settings.timeZone else { return try environmentTimeZone.get() }
    guard let zone = try zone(named: name, source: "the settings") else {
      warnOnce(
        "the time zone '\(name)' in the settings is unknown here; using --tz, $TZ or the system's")
      return try environmentTimeZone.get()
    }
    if warning, let option = try optionZone.get(), option.identifier != zone.identifier {
      warnOnce(
        "--tz \(ZoneNames.display(option)) ignored: the settings say \(ZoneNames.display(zone)) (change it with 'routine settings --time-zone')"
      )
    }
    return zone
  }

  // MARK: Locale

  /// The locale the environment names: `LC_ALL`, else `LC_TIME`, else `LANG`, as Foundation
  /// names it (`en_US.UTF-8` is `en_US`); `C` when none does, or names no locale there is.
  var environmentLocale: String {
    let variables = environment.variables
    let value =
      [variables["LC_ALL"], variables["LC_TIME"], variables["LANG"]].compactMap { $0 }
      .first { !$0.isEmpty } ?? ""
    return SettingsCommand.localeName(value) ?? "C"
  }

  /// The clock reminder texts use: from the locale in the settings, else the environment's.
  func clockStyle(_ settings: PlannerSettings) -> ClockStyle {
    ClockStyle(localeIdentifier: settings.locale ?? environmentLocale)
  }

  // MARK: Store

  /// The store's path: `--store`, else `$ROUTINE_STORE`, else the XDG location.
  func storePath() throws -> String {
    if let option = arguments.text(GlobalOption.store), option.isEmpty {
      throw UsageError("--store: expected the path of a store file, found an empty value")
    }
    guard
      let path = StoreLocation.resolve(
        option: arguments.text(GlobalOption.store), environment: environment.variables)
    else { throw StoreError.noLocation }
    return path
  }

  /// Opens the store, creating it when missing. The first time a store is opened to be written,
  /// the environment's locale is recorded in its settings (docs/planner.md): later runs under
  /// another `LANG` (a cron job) word reminders the same way.
  func openStore() throws -> EventStore {
    let path = try storePath()
    // Created complete and in place at once (EventStore.create), like every new store.
    _ = try EventStore.create(at: path) { store in _ = try recordingLocale(store) }
    return try recordingChanges(recordingLocale(EventStore(path: path, creating: true)))
  }

  /// `store`, with the environment's locale recorded in its settings if none is yet.
  func recordingLocale(_ store: EventStore) throws -> EventStore {
    if try store.settings().locale == nil {
      _ = try store.updateSettings { settings in
        if settings.locale == nil { settings.locale = environmentLocale }
      }
    }
    return store
  }

  /// Opens the store if it exists; `nil` when it does not (commands that only read never create
  /// a store).
  func openExistingStore() throws -> EventStore? {
    do {
      return try recordingChanges(EventStore(path: try storePath(), creating: false))
    } catch StoreError.missing {
      return nil
    }
  }

  /// Whether there is a store to open, without opening it: a file with something in it (an empty
  /// file is no store yet, as for ``openExistingStore()``).
  func storeExists() throws -> Bool {
    (FileSystem.size(of: try storePath()) ?? 0) > 0
  }

  /// Runs `body` on the store, to write to it. When there is no store yet, `body` writes to a new
  /// one that takes the store's place only if `body` succeeds and `keep` accepts its result
  /// (``EventStore/create(at:keep:_:)``): a command that fails on a fresh install leaves nothing
  /// behind. An invalid zone fails before anything is created, when `checkingZone`.
  func withWritableStore<T>(
    keep: (T) -> Bool = { _ in true }, checkingZone: Bool = true,
    _ body: (EventStore) throws -> T
  ) throws -> T {
    if let existing = try openExistingStore() { return try body(try recordingLocale(existing)) }
    if checkingZone { _ = try userTimeZone(PlannerSettings()) }
    if let value = try EventStore.create(
      at: try storePath(), keep: keep,
      { store in try body(try recordingChanges(try recordingLocale(store))) })
    {
      return value
    }
    return try body(try openStore())
  }

  /// The store, created when missing, for a command that runs on whatever it holds (`watch`);
  /// an invalid zone fails before anything is created. The locale is not recorded: a watch
  /// started by a service manager (no `LANG`) must not fix it before the first command typed
  /// in a terminal records that one (docs/planner.md).
  func openOrCreateStore() throws -> EventStore {
    if let existing = try openExistingStore() { return existing }
    _ = try userTimeZone(PlannerSettings())
    let path = try storePath()
    _ = try EventStore.create(at: path) { _ in () }
    return try EventStore(path: path, creating: true)
  }

  /// Runs `body` in one write transaction of the store (created when missing, and only if `body`
  /// succeeds), with the settings read inside it and the user's zone resolved from them.
  func writing<T>(_ body: (EventStore, PlannerSettings, Zone) throws -> T) throws -> T {
    try withWritableStore { store in
      try store.write {
        let settings = try store.settings()
        let zone = try userTimeZone(settings)
        return try body(store, settings, zone)
      }
    }
  }

  /// Runs `body` on one snapshot of the store, with its settings and the user's zone; the store is
  /// `nil` (and the settings the defaults) when there is none yet.
  func reading<T>(_ body: (EventStore?, PlannerSettings, Zone) throws -> T) throws -> T {
    guard let store = try openExistingStore() else {
      let settings = PlannerSettings()
      let zone = try userTimeZone(settings)
      return try body(nil, settings, zone)
    }
    return try store.read {
      let settings = try store.settings()
      let zone = try userTimeZone(settings)
      return try body(store, settings, zone)
    }
  }

  /// The file `--output` (or the `option` a command names its output with) names, or `nil` for
  /// standard output (no option, or `-`). An empty path is refused, and so is the store itself
  /// or a file beside it that SQLite keeps (its log, its index, its journal), under any name:
  /// replacing it would lose every event.
  func outputPath(command: String, option: Option<String> = CommonOptions.output) throws
    -> String?
  {
    guard let path = arguments.text(option), path != "-" else { return nil }
    guard !path.isEmpty else {
      throw UsageError(
        "--\(option.name): expected a file path, found an empty value", command: command)
    }
    try refuseStoreFile(path, option: "--\(option.name)", command: command)
    return path
  }

  /// Refuses `path` when it is the store or a file SQLite keeps beside it, under any name.
  func refuseStoreFile(_ path: String, option: String, command: String) throws {
    guard let store = try? storePath() else { return }
    let files = ["", "-wal", "-shm", "-journal"].map { store + $0 }
    /// The directory holding `path` and the name in it.
    func place(_ path: String) -> (FileIdentity?, String) {
      let url = URL(fileURLWithPath: path)
      return (FileSystem.identity(of: url.deletingLastPathComponent().path), url.lastPathComponent)
    }
    let target = FileSystem.identity(of: path)
    // SQLite's files beside the store exist only while it is open, and are deleted when it
    // closes: one named now would vanish with what was written to it. So a name is refused too,
    // wherever that name lies in the store's directory, not only a file that exists.
    let (directory, name) = place(path)
    let clash = files.contains { file in
      if let target, FileSystem.identity(of: file) == target { return true }
      let (fileDirectory, fileName) = place(file)
      return directory != nil && fileDirectory == directory && fileName == name
    }
    if clash {
      throw UsageError(
        "\(option): '\(displayPath(path))' is the store, or a file SQLite keeps beside it; writing there would replace every event: give another file",
        command: command)
    }
  }

  /// `path` for display: under the home directory as `~/...`, with control and direction
  /// characters escaped (a path is anything the user typed).
  func displayPath(_ path: String) -> String {
    guard let home = environment.variables["HOME"], home.count > 1, path.hasPrefix(home + "/")
    else { return TerminalText.escaped(path) }
    return TerminalText.escaped("~" + path.dropFirst(home.count))
  }

  // MARK: Messages

  /// Prints a warning on stderr.
  func warn(_ message: String) {
    errors.line("warning: \(TerminalText.escaped(message))")
  }

  private var warned = Set<String>()

  /// Prints a warning once per invocation.
  func warnOnce(_ message: String) {
    guard warned.insert(message).inserted else { return }
    warn(message)
  }

  /// Asks `question` on a terminal and returns whether the answer is yes. Without a terminal
  /// (and without `--yes`), refuses with a usage error that names `--yes`.
  func confirm(_ question: String) throws -> Bool {
    if arguments.flag(CommonOptions.yes) { return true }
    guard environment.isInteractive else {
      throw UsageError(
        "\(question) Standard input is not a terminal: add --yes to confirm", command: command)
    }
    errors.write("\(TerminalText.escaped(question)) [y/N] ")
    errors.flush()
    let answer = environment.readLine()?.trimmingBlanks.lowercased()
    return answer == "y" || answer == "yes"
  }

  // MARK: Options

  /// The zone local timestamps in files are read in: `--assume-zone`, else `--tz` (given on the
  /// command line); `nil` when neither is, and such timestamps are rejected.
  func assumedZone() throws(UsageError) -> Zone? {
    if let name = arguments.text(CommonOptions.assumeZone) {
      guard let zone = try zone(named: name, source: "--assume-zone") else {
        throw UsageError(unknownZone(name, source: "--assume-zone"), command: command)
      }
      return zone
    }
    return try optionZone.get()
  }
}
