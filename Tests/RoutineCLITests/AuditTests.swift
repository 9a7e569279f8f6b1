import Foundation
import Testing

/// What an audit of every command against issue 7 found, after issues 8 to 10 added commands:
/// each test failed before its fix.
@Suite struct AuditTests {
  private var sample: String { EndToEndTests.data.appendingPathComponent("sample.csv").path }

  @Test func aCommandThatFailsOnAFreshInstallLeavesNoStoreBehind() throws {
    let sandbox = Sandbox()
    let bad = sandbox.file("bad.csv", "bad\n")
    for (arguments, status) in [
      (["import", bad], Int32(65)), (["import", "missing.csv"], 66),
      (["tasks", "add", "Taxes", "--due", "someday"], 64),
      (["reminders", "add", "--text", "Hi", "--at", "25:00"], 64),
      (["reminders", "edit", "reminder-9", "--at", "07:00"], 65),
      (["habits", "edit", "Floss", "--window", "07:00-07:30"], 65),
      (["tasks", "done", "task-3"], 65), (["respond", "x", "onit"], 65),
      (["reminders", "enable", "reminder-2"], 65),
    ] {
      let result = try sandbox.runBinary(arguments)
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: sandbox.storePath), "\(arguments)")
      #expect(
        (try? FileManager.default.contentsOfDirectory(atPath: sandbox.storePath + "/.."))?
          .isEmpty ?? true, "\(arguments) left a temporary file")
    }
    // Nor do planning and delivering, which find nothing to do (cron's first runs).
    #expect(try sandbox.runBinary("plan").status == 0)
    #expect(try sandbox.runBinary("deliver").status == 0)
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    // The first command that succeeds creates it, with its locale, readable by its owner only.
    sandbox.variables["LANG"] = "en_US.UTF-8"
    #expect(try sandbox.runBinary("log", "Coffee").status == 0)
    let mode =
      try FileManager.default.attributesOfItem(atPath: sandbox.storePath)[
        .posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(sandbox.run("settings").stdout.contains("locale          en_US"))
    #expect(sandbox.run("events").stdout.contains("Coffee"))
  }

  @Test func runsThatCreateTheStoreTogetherAllLand() throws {
    let sandbox = Sandbox()
    let binary = try Sandbox.binary()
    let processes = try (0..<8).map { index in
      let process = Process()
      process.executableURL = binary
      process.arguments = ["log", "Tea", "--at", "2026-04-27T0\(index):30:00+02:00"]
      process.environment = sandbox.variables
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }
    for process in processes { process.waitUntilExit() }
    #expect(processes.allSatisfy { $0.terminationStatus == 0 })
    #expect(
      sandbox.run("events").stdout.split(separator: "\n").filter { $0.contains("Tea") }.count == 8)
  }

  @Test func anImportThatFindsNothingCreatesNoStoreButOneThatAddsDoes() throws {
    let sandbox = Sandbox()
    let bad = sandbox.file("bad.csv", "timestamp,event\nyesterday,Coffee\n")
    #expect(try sandbox.runBinary("import", bad).status == 65)
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    // One good file among bad ones keeps what it added.
    let result = try sandbox.runBinary("import", bad, sample)
    #expect(result.status == 65)
    #expect(result.stdout.contains("events read"))
    #expect(sandbox.run("kinds").stdout.contains("Wake Up"))
  }

  @Test func outputThatCannotBeWrittenLeavesTheStoreAsItWas() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("import", sample).status == 0)
    #expect(sandbox.run("plan").status == 0)
    let pending = sandbox.run("pending", "--json").stdout
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    for arguments in [
      ["kinds", "rename", "Coffee", "Espresso"], ["clear", "--all"],
      ["settings", "--lead", "10"],
      ["import", sandbox.file("more.csv", "timestamp,event\n2026-04-27T07:00:00+02:00,Tea\n")],
    ] {
      let result = try sandbox.runBinary(arguments, stdout: full)
      #expect(result.status == 74, "\(arguments): \(result.stderr)")
    }
    #expect(sandbox.run("kinds").stdout.contains("Coffee"))
    #expect(!sandbox.run("kinds").stdout.contains("Tea"))
    #expect(sandbox.run("settings", "--json").json["leadMinutes"] as? Int == 5)
    #expect(sandbox.run("pending", "--json").stdout == pending)
    // plan: a change it could not report is not made.
    #expect(sandbox.run("settings", "--threshold", "0.3").status == 0)
    #expect(try sandbox.runBinary(["plan"], stdout: full).status == 74)
    #expect(sandbox.run("pending", "--json").stdout == pending)
  }

  @Test func anUnknownIDIsAnErrorInHistoryAndRestoreToo() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("history", "--id", "reminder-1").status == 65)
    #expect(sandbox.run("reminders", "add", "--activity", "Stretch", "--at", "09:00").status == 0)
    let unknown = sandbox.run("history", "--id", "reminder-2")
    #expect(unknown.status == 65)
    #expect(
      unknown.stderr
        == "error: there is no request or reminder 'reminder-2'; did you mean 'reminder-1'?\n")
    // A known reminder with nothing in the range is an answer, not an error.
    let quiet = sandbox.run("history", "--id", "reminder-1")
    #expect(quiet.status == 0)
    #expect(quiet.stdout == "Nothing about 'reminder-1' in that range.\n")
    let restore = sandbox.run("reminders", "restore", "reminder-1", "--request", "reminder-7")
    #expect(restore.status == 65)
    #expect(restore.stderr.hasPrefix("error: reminder-1 has no request 'reminder-7'"))
  }

  @Test func aDefinitionsStreamWithoutEndIsRefusedWithinItsBound() throws {
    let sandbox = Sandbox()
    let result = try sandbox.runBinary(
      ["reminders", "import", "-"], input: Data(repeating: 0, count: 17 << 20))
    #expect(result.status == 65)
    #expect(
      result.stderr == "error: standard input: expected at most 16 MiB of definitions, found more\n"
    )
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    // A pipe of a real export reads as a file does.
    #expect(sandbox.run("reminders", "add", "--text", "Water", "--at", "10:00").status == 0)
    let other = Sandbox()
    let exported = sandbox.run("reminders", "export").stdout
    #expect(
      try other.runBinary(["reminders", "import", "-"], input: Data(exported.utf8)).status == 0)
    #expect(other.run("reminders").stdout.contains("Water"))
  }

  @Test func anUnknownLocaleInTheEnvironmentIsTheCLocale() throws {
    let sandbox = Sandbox()
    sandbox.variables["LANG"] = "abcdefghijkl"
    #expect(try sandbox.runBinary("reminders", "add", "--text", "Hi", "--at", "19:00").status == 0)
    #expect(sandbox.run("settings", "--json").json["locale"] as? String == "C")
  }

  @Test func repeatingTimesAreWholeMinutes() {
    let sandbox = Sandbox()
    let refused = sandbox.run("reminders", "add", "--text", "Hi", "--at", "23:59:30")
    #expect(refused.status == 64)
    #expect(refused.stderr.hasPrefix("error: --at: expected HH:MM, a time of day on the minute"))
    #expect(sandbox.run("habits", "add", "Stretch", "--window", "07:00:10-07:30").status == 64)
    #expect(sandbox.run("reminders", "add", "--text", "Hi", "--at", "23:59:00").status == 0)
    #expect(sandbox.run("reminders").stdout.contains("23:59"))
  }

  @Test func zoneNamesOfTheOldStyleAreFoundIgnoringCaseAndUTCShowsAsUTC() {
    let sandbox = Sandbox()
    for name in ["us/eastern", "etc/utc", "zulu", "ETC/GMT+5"] {
      #expect(sandbox.run("events", "--tz", name).status == 0, "\(name)")
    }
    sandbox.variables["TZ"] = "Etc/UTC"
    #expect(sandbox.run("settings").stdout.contains("now UTC, from --tz, $TZ or the system"))
  }

  @Test func settingTheZoneWarnsOnlyAboutWhatItKeeps() {
    let sandbox = Sandbox()
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    let changed = sandbox.run("settings", "--time-zone", "Asia/Tokyo", "--tz", "America/New_York")
    #expect(changed.status == 0)
    #expect(
      changed.stderr.hasPrefix(
        "warning: --tz America/New_York ignored: the settings say Asia/Tokyo"))
    #expect(
      sandbox.run("settings", "--tz", "America/New_York").stderr.hasPrefix(
        "warning: --tz America/New_York ignored: the settings say Asia/Tokyo"))
    // An invalid $TZ does not stand in the way of setting the zone.
    let fresh = Sandbox()
    fresh.variables["TZ"] = "Europe/Berln"
    #expect(fresh.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    #expect(fresh.run("log", "Coffee").status == 0)
  }

  @Test func anInvalidZoneStopsDeliveryAnswersAndDeletionsBeforeAnything() throws {
    let sandbox = Sandbox()
    sandbox.variables["TZ"] = "Europe/Berln"
    for arguments in [
      ["deliver"], ["respond", "x", "onit"], ["events", "delete", "--from", "today", "--yes"],
    ] {
      #expect(try sandbox.runBinary(arguments).status == 64, "\(arguments)")
    }
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    sandbox.variables["TZ"] = "Europe/Berlin"
    #expect(sandbox.run("events", "delete", "--from", "notatime", "--yes").status == 64)
    #expect(
      sandbox.run("events", "delete", "--last", "2", "--yes", "--json").json["deleted"] as? Int
        == 0)
  }

  @Test func aSentenceNeverSaysOneOfAPlural() {
    let sandbox = Sandbox()
    #expect(
      sandbox.run("reminders", "add", "--activity", "Stretch", "--at", "09:00", "--lookback", "1")
        .status == 0)
    let why = sandbox.run("why", "reminder-1").stdout
    #expect(why.contains("unless Stretch is logged in the hour before"), "\(why)")
    #expect(
      sandbox.run("tasks", "add", "Call", "--due", "2026-04-28 10:00").status == 0)
    #expect(sandbox.run("reminders", "add", "--task", "Call", "--before", "1m").status == 0)
    #expect(sandbox.run("reminders", "show", "reminder-2").stdout.contains("(in 1 minute)"))
  }

  @Test func aGlobalOptionGivenAgainOverridesTheAliasOne() {
    let sandbox = Sandbox()
    #expect(
      sandbox.run("--tz", "Europe/Berlin", "log", "Tea", "--at", "07:00", "--tz", "UTC").status == 0
    )
    #expect(sandbox.run("events", "--tz", "UTC").stdout.contains("T07:00:00+00:00  Tea"))
    #expect(sandbox.run("log", "Tea", "--at", "1", "--at", "2").status == 64)
  }

  @Test func anEmptyLogIsAWarningInBatchModeToo() {
    let sandbox = Sandbox()
    let empty = sandbox.file("empty.csv", "")
    for command in ["analyze", "backtest"] {
      let result = sandbox.run(command, "--log", empty)
      #expect(result.status == 0, "\(command)")
      #expect(result.stderr == "warning: '\(empty)' holds no events\n", "\(command)")
    }
  }

  @Test func aLoopOfLinksIsNeverReplacedByAFile() throws {
    let sandbox = Sandbox()
    let first = sandbox.directory.appendingPathComponent("first").path
    let second = sandbox.directory.appendingPathComponent("second").path
    try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: second)
    try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: first)
    let result = sandbox.run("sample", "--output", first)
    #expect(result.status == 74)
    #expect(result.stderr == "error: cannot write '\(first)': too many levels of symbolic links\n")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: first) == second)
    #expect(sandbox.run("reminders", "export", "--output", "").status == 64)
  }

  @Test func aStorePathIsShownWithItsControlAndDirectionCharactersEscaped() {
    let sandbox = Sandbox()
    sandbox.variables["ROUTINE_STORE"] = sandbox.directory.path + "/a\u{202E}b\u{9B}.db"
    let result = sandbox.run("events")
    #expect(result.stdout.contains("a\\u{202E}b\\u{9B}.db"), "\(result.stdout)")
    #expect(!result.stdout.contains("\u{202E}"))
  }

  @Test func aBadLocalTimeWithAnAssumedZoneIsNotToldToAssumeAZone() {
    let sandbox = Sandbox()
    // (`7:55`, one-digit hour, is read since other apps' forms are: docs/formats.md.)
    let file = sandbox.file("local.csv", "timestamp,event\n2026-04-27 7:75,Tea\n")
    let result = sandbox.run("import", file, "--assume-zone", "Europe/Berlin")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: '\(file)' line 2: expected an ISO 8601 timestamp with a UTC offset (like 2026-04-20T07:05:00+02:00 or 2026-04-20T05:05Z), or a local date and time like 2026-04-20 07:05 or 2026-04-20T07:05:00 (read in Europe/Berlin), found '2026-04-27 7:75'\n"
    )
  }

  @Test func aNewStoreIsInWALModeFromItsFirstWriteAndPlanSaysWhenThereIsNothing() throws {
    let sandbox = Sandbox()
    let plan = sandbox.run("plan")
    #expect(
      plan.stdout.hasSuffix(
        "No routine: there are no events yet ('routine log' or 'routine import' adds them).\n"))
    #expect(sandbox.run("log", "Coffee").status == 0)
    let header = try #require(FileManager.default.contents(atPath: sandbox.storePath))
    // The file format's read and write versions: 2 is WAL.
    #expect(header[18] == 2 && header[19] == 2)
    sandbox.variables["TZ"] = "UTC"
    #expect(
      sandbox.run("settings", "--time-zone", "Etc/UTC").stdout.contains("time zone       UTC"))
  }
}
