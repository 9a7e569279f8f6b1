import Foundation
import RoutineCore
import RoutineStore

/// `routine doctor`: whether reminders can reach the person here.
enum DoctorCommand: Command {
  static let spec = CommandSpec(
    name: "doctor",
    summary: "Check that reminders can be delivered here: store, zone, sinks, cron or timers.",
    discussion: """
      The store's path and health (SQLite's quick check), the time zone and where it comes
      from, which tz data gives its rules (the system's tz database and its version, or
      Foundation's built-in copy, a warning), when delivery last ran, whether each sink can
      deliver here (notify-send installed, a D-Bus session, a notification daemon answering),
      and the crontab lines and systemd user units that run routine. Exits 0 when nothing stops
      delivery, 1 when something does (a damaged store, an unknown zone); what only limits it
      (no notify-send, no schedule) is a warning. Reads only.
      """,
    globals: ["store", "now", "tz", "json"])

  /// One finding.
  struct Check {
    enum Level: String { case ok, warning, problem, info }
    var area: String
    var level: Level
    var text: String
  }

  static func run(_ context: Context) throws -> ExitCode {
    var checks: [Check] = []
    let now = try context.nowSeconds()
    let (found, zone) = storeChecks(context, now: now)
    checks += found
    let data = zone.map { zoneData($0, context: context) }
    if let data { checks.append(data.check) }
    checks += sinkChecks(context)
    checks += holdChecks(context)
    checks += scheduleChecks(context)
    let failed = checks.contains { $0.level == .problem }
    if context.isJSON {
      context.output.line(
        JSON.object([
          ("ok", .bool(!failed)),
          (
            "checks",
            .array(
              checks.map {
                .object([
                  ("area", .string($0.area)), ("level", .string($0.level.rawValue)),
                  ("text", .string($0.text)),
                ])
              })
          ),
          (
            "tzData",
            data.map {
              .object([
                ("source", .string($0.source)), ("directory", .optional($0.directory)),
                ("file", .optional($0.file)), ("version", .optional($0.version)),
              ])
            } ?? .null
          ),
        ]).serialized())
    } else {
      context.output.line("routine \(RoutineCLI.version)")
      let width = (checks.map(\.area.count).max() ?? 0) + 2
      for check in checks {
        let mark =
          switch check.level {
          case .ok, .info: ""
          case .warning: "warning: "
          case .problem: "PROBLEM: "
          }
        context.output.line(
          HelpFormatter.padded(check.area, to: width) + mark + TerminalText.escaped(check.text))
      }
      let problems = checks.filter { $0.level == .problem }.count
      let warnings = checks.filter { $0.level == .warning }.count
      context.output.line(
        problems == 0 && warnings == 0
          ? "All good."
          : "\(counted(problems, "problem")), \(counted(warnings, "warning")).")
    }
    return failed ? .failure : .ok
  }

  /// Why the store is read-only, after "healthy".
  private static func readOnlyNote(_ store: EventStore) -> String {
    if case .diskFull = store.whyReadOnly { return ", read-only while the disk is full" }
    return ", read-only for you"
  }

  /// The checks of the store and of the user's zone, and that zone when it is valid.
  private static func storeChecks(_ context: Context, now: Int64) -> ([Check], Zone?) {
    var checks: [Check] = []
    let path: String
    do {
      path = try context.storePath()
    } catch {
      return ([Check(area: "store", level: .problem, text: ErrorReport.describe(error).1)], nil)
    }
    let shown = context.displayPath(path)
    var settings = PlannerSettings()
    do {
      if let store = try context.openExistingStore() {
        let problems = try store.problems()
        if problems.isEmpty {
          let events = try store.count()
          let reminders = try store.reminders()
          settings = try store.settings()
          let requests = try store.pendingRequests(clock: context.clockStyle(settings))
          checks.append(
            Check(
              area: "store", level: .ok,
              text:
                "\(shown): healthy\(store.isReadOnly ? readOnlyNote(store) : ""); \(counted(events, "event")), \(counted(reminders.count, "reminder")), \(counted(requests.count, "pending request"))"
            ))
          if case .diskFull(_, let mountPoint) = store.whyReadOnly {
            // Reads work; writes wait for space. Not a fault of the setup: a warning.
            checks.append(
              Check(
                area: "store", level: .warning,
                text: StoreError.diskFullReason(mountPoint)
                  + "; until then routine reads the store but records nothing"))
          } else if store.isReadOnly {
            checks.append(
              Check(
                area: "store", level: .problem,
                text: "routine cannot write \(shown): answers and deliveries cannot be recorded"))
          }
          checks.append(deliveryCheck(store, now: now, requests: requests.count, context: context))
          // Not a fault of the setup, but the reason learned reminders stopped.
          if let paused = try LearnedPause.message(store) {
            checks.append(Check(area: "learning", level: .warning, text: paused))
          }
        } else {
          checks.append(
            Check(
              area: "store", level: .problem,
              text:
                "\(shown) is damaged: \(problems.prefix(3).joined(separator: "; ")); restore it from a backup"
            ))
        }
      } else {
        checks.append(
          Check(
            area: "store", level: .info,
            text: "\(shown): not created yet ('routine log' or 'routine reminders add' creates it)")
        )
      }
    } catch {
      checks.append(Check(area: "store", level: .problem, text: ErrorReport.describe(error).1))
    }
    var userZone: Zone?
    do {
      let zone = try context.userTimeZone(settings)
      userZone = zone
      let source =
        settings.timeZone != nil
        ? "from the store's settings"
        : context.arguments.isGiven(GlobalOption.tz)
          ? "from --tz"
          : context.environment.variables["TZ"].flatMap {
            // An empty TZ, or one naming /etc/localtime, is the system's zone.
            $0.isEmpty || $0.hasSuffix("/etc/localtime") ? nil : "from $TZ"
          } ?? "the system's"
      // A POSIX rule from $TZ is no name the settings take; and a system in UTC is most often
      // a server's default, not where the user lives.
      let isUTC = ZoneNames.display(zone) == "UTC"
      let setting = zone.source == .posixRule || isUTC ? "ZONE" : ZoneNames.display(zone)
      var advice = ""
      if settings.timeZone == nil {
        advice =
          isUTC && source == "the system's"
          ? "; the system says UTC: if you live elsewhere, set your zone with 'routine settings --time-zone ZONE' (cron has no $TZ)"
          : "; cron has no $TZ: fix it with 'routine settings --time-zone \(setting)'"
      }
      checks.append(
        Check(
          area: "time zone", level: .ok, text: "\(ZoneNames.display(zone)) (\(source))" + advice))
    } catch {
      checks.append(Check(area: "time zone", level: .problem, text: error.message))
    }
    return (checks, userZone)
  }

  /// Where the rules of the user's zone come from: for the check and for `--json`.
  struct ZoneData {
    var source: String
    var directory: String?
    var file: String?
    var version: String?
    var check: Check
  }

  /// Which tz data `zone` is read from, and its version (docs/time.md, "Where zone rules come
  /// from"): the system's database keeps routine up to date with the system; Foundation's copy
  /// does not, and is a warning.
  static func zoneData(_ zone: Zone, context: Context) -> ZoneData {
    let database = context.zoneDatabase
    switch zone.source {
    case .database(let path):
      // The database that holds the file: $TZDIR's (or the default), or the zoneinfo directory
      // a system zone links into.
      let holder: ZoneDatabase? =
        path.hasPrefix(database.directory + "/")
        ? database
        : ZoneDatabase.directory(holding: path).map { ZoneDatabase.shared(directory: $0) }
      let version = holder?.version
      let name: String
      switch holder?.directory {
      case nil: name = "a copy of a tz database's file"
      case ZoneDatabase.defaultDirectory: name = "the system's tz database"
      case database.directory: name = "the tz database in $TZDIR"
      case let directory?: name = "the tz database in \(directory)"
      }
      return ZoneData(
        source: "database", directory: holder?.directory, file: path, version: version,
        check: Check(
          area: "tz data", level: .ok,
          text: "\(name), version \(version ?? "unknown"): \(path)"))
    case .foundation:
      let version = ZoneDatabase.foundationVersion
      let missing =
        database.exists
        ? "\(ZoneNames.display(zone)) is not in \(database.directory)"
        : "there is no \(database.directory)"
      return ZoneData(
        source: "foundation", directory: nil, file: nil, version: version,
        check: Check(
          area: "tz data", level: .warning,
          text:
            "Foundation's built-in copy, version \(version): \(missing); updates of the system's tz data do not reach it"
        ))
    case .posixRule:
      return ZoneData(
        source: "rule", directory: nil, file: nil, version: nil,
        check: Check(area: "tz data", level: .ok, text: "none: $TZ is a POSIX rule"))
    case .fixed:
      return ZoneData(
        source: "none", directory: nil, file: nil, version: nil,
        check: Check(
          area: "tz data", level: .ok, text: "none: UTC has no rules to read"))
    }
  }

  private static func deliveryCheck(
    _ store: EventStore, now: Int64, requests: Int, context: Context
  ) -> Check {
    let last = (try? store.state(Deliverer.watermark)).flatMap { $0 }.flatMap { Int64($0) }
    guard let last else {
      return Check(
        area: "delivery", level: requests > 0 ? .warning : .info,
        text:
          "'routine deliver' has never run on this store"
          + (requests > 0 ? ": nothing reminds you yet (docs/delivery.md)" : ""))
    }
    let minutes = max(0, (now - last) / 60)
    // With no valid zone (reported as a problem of its own), the time is shown in UTC, saying so.
    let userZone = try? context.userTimeZone(try store.settings())
    let when =
      EventFormatting.localDateTime(
        TimeArgument.stamp(last, userZone ?? Zone.utc))
      + (userZone == nil ? " UTC" : "")
    let ago: String
    switch minutes {
    case 0: ago = "less than a minute ago"
    case ..<120: ago = "\(counted(Int(minutes), "minute")) ago"
    case ..<(48 * 60): ago = "\(counted(Int(minutes / 60), "hour")) ago"
    default: ago = "\(counted(Int(minutes / 1440), "day")) ago"
    }
    // A watch sleeps until something is due; cron runs deliver every minute.
    return Check(
      area: "delivery", level: minutes > 24 * 60 && requests > 0 ? .warning : .ok,
      text: "last ran \(when) (\(ago))")
  }

  private static func sinkChecks(_ context: Context) -> [Check] {
    let environment = context.environment.variables
    var checks = [Check(area: "sink stdout", level: .ok, text: "can deliver (JSON lines)")]
    checks.append(
      FileManager.default.isExecutableFile(atPath: "/bin/sh")
        ? Check(area: "sink exec", level: .ok, text: "can deliver (/bin/sh)")
        : Check(area: "sink exec", level: .warning, text: "/bin/sh is missing"))
    guard let program = DesktopSession.notifySend(environment) else {
      checks.append(
        Check(area: "sink notify-send", level: .warning, text: DesktopSession.missingNotifySend))
      return checks
    }
    guard let bus = DesktopSession.bus(environment) else {
      checks.append(
        Check(area: "sink notify-send", level: .warning, text: DesktopSession.missingBus))
      return checks
    }
    switch DesktopSession.daemon(environment) {
    case .answered(let name):
      checks.append(
        Check(
          area: "sink notify-send", level: .ok,
          text: "can deliver (\(program), session bus \(bus), daemon \(name))"))
    case .cannotAsk:
      checks.append(
        Check(
          area: "sink notify-send", level: .warning,
          text:
            "\(program) and session bus \(bus) found; whether a daemon answers is unknown (install gdbus or dbus-send to check)"
        ))
    case .silent(let problem):
      checks.append(Check(area: "sink notify-send", level: .warning, text: problem))
    }
    return checks
  }

  /// What holding reminders reads here (docs/delivery.md "Held while you are away"): the idle
  /// source in use and what it says now, or why there is none; the same for do not disturb;
  /// the quiet hours. A source the settings do not use is information, not a warning.
  private static func holdChecks(_ context: Context) -> [Check] {
    let store = try? context.openExistingStore()
    let settings = (try? store?.settings()) ?? PlannerSettings()
    // A sound that cannot play matters once an alarm is defined; before, it is information.
    let hasAlarms = ((try? store?.reminders()) ?? []).contains {
      $0.isEnabled && $0.style == .alarm
    }
    let (idle, doNotDisturb) = PresenceReader.diagnose(environment: context.environment.variables)
    var checks: [Check] = []
    if settings.holdWhileIdleMinutes > 0 {
      checks.append(
        Check(
          area: "hold while idle", level: idle.source == nil ? .warning : .ok,
          text: "after \(settings.holdWhileIdleMinutes) min: \(idle.text)"))
    } else {
      checks.append(
        Check(
          area: "hold while idle", level: .info,
          text: "off ('settings --hold-while-idle MINUTES' turns it on); \(idle.text)"))
    }
    checks.append(
      Check(
        area: "hold while dnd",
        level: settings.holdWhileDoNotDisturb ? (doNotDisturb.source == nil ? .info : .ok) : .info,
        text: (settings.holdWhileDoNotDisturb ? "" : "off; ") + doNotDisturb.text
          + " (the notify-send sink only)"))
    let sound = AlarmSound.diagnose(
      setting: settings.alarmSound, environment: context.environment.variables)
    checks.append(
      Check(
        area: "alarm sound", level: sound.ok ? .ok : hasAlarms ? .warning : .info,
        text: sound.text + (hasAlarms ? "" : " (no alarm is defined)")))
    checks.append(
      Check(
        area: "quiet hours", level: .info,
        text: settings.quietHours.map {
          "\($0): reminders due inside are held, alarms and tasks ring"
        } ?? "none ('settings --quiet 21:00-07:30' sets them)"))
    return checks
  }

  private static func scheduleChecks(_ context: Context) -> [Check] {
    var checks: [Check] = []
    let environment = context.environment.variables
    if let crontab = ChildProcess.find("crontab", path: environment["PATH"]),
      let result = try? ChildProcess.run(
        crontab, ["-l"], environment: environment, input: Data(), timeout: 5),
      result.status == 0
    {
      for line in result.output.split(separator: "\n")
      where line.contains("routine") && !line.trimmingBlanks.hasPrefix("#") {
        checks.append(Check(area: "cron", level: .ok, text: String(line)))
      }
    }
    let home = environment["HOME"] ?? ""
    let configHome =
      environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "\(home)/.config"
    let units = "\(configHome)/systemd/user"
    if let names = try? FileManager.default.contentsOfDirectory(atPath: units) {
      for name in names.sorted()
      where (name.hasSuffix(".service") || name.hasSuffix(".timer"))
        && ((try? String(contentsOfFile: "\(units)/\(name)", encoding: .utf8))?.contains("routine")
          ?? false)
      {
        checks.append(
          Check(area: "systemd", level: .ok, text: context.displayPath("\(units)/\(name)")))
      }
    }
    if checks.isEmpty {
      checks.append(
        Check(
          area: "schedule", level: .warning,
          text:
            "no crontab line or systemd user unit runs routine; docs/delivery.md has both, and 'routine watch'"
        ))
    }
    return checks
  }
}
