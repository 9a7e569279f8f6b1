import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// The defects of issue 7, each walked the way a user meets it: through the built binary, in an
/// environment of exactly the sandbox's variables.
struct ZoneAndLocaleTests {
  /// A zone other than this machine's, so that a command that ignored the settings and used the
  /// system's zone would be caught.
  static let settingsZone =
    TimeZone.current.identifier == "Asia/Kolkata" ? "America/New_York" : "Asia/Kolkata"

  /// The offsets themselves (EveryCommandTests checks every command's output against $TZ).
  @Test func theZoneInTheSettingsGivesTheOffsetsOfLogEventsAndAnalyze() throws {
    let sandbox = Sandbox(now: "2026-04-27T12:00:00Z")
    sandbox.variables["TZ"] = nil
    #expect(try sandbox.runBinary("settings", "--time-zone", Self.settingsZone).status == 0)
    let zone = Zone(foundation: try #require(TimeZone(identifier: Self.settingsZone)))
    let offset = Timestamp(Date(timeIntervalSince1970: 1_777_291_200), in: zone).iso8601.suffix(6)

    let logged = try sandbox.runBinary("log", "Wake Up", "--at", "2026-04-27 07:00", "--json")
    #expect(logged.status == 0, "\(logged.stderr)")
    let event = try #require(logged.json["event"] as? [String: Any])
    #expect(event["timestamp"] as? String == "2026-04-27T07:00:00\(offset)")

    let listed = try sandbox.runBinary("events", "--from", "2026-04-27", "--to", "2026-04-28")
    #expect(listed.stdout == "2026-04-27T07:00:00\(offset)  Wake Up  (cli)\n")

    let analysis = try sandbox.runBinary("analyze", "--json")
    let window = try #require(analysis.json["window"] as? [String: Any])
    #expect(window["timeZone"] as? String == Self.settingsZone)
    #expect((window["from"] as? String)?.hasSuffix(String(offset)) == true)
  }

  @Test func aDifferentTZOptionIsOverriddenWithTheSameWarningEverywhere() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    let warning =
      "warning: --tz America/New_York ignored: the settings say Europe/Berlin (change it with 'routine settings --time-zone')\n"
    for command in [
      ["log", "Coffee"], ["events"], ["analyze"], ["plan"], ["pending"], ["agenda"],
      ["events", "delete", "--last", "1", "--yes"],
    ] {
      let result = sandbox.run(command + ["--tz", "America/New_York"])
      #expect(result.stderr == warning, "\(command)")
    }
    let event = (sandbox.run("events", "--json").json["events"] as? [[String: Any]])?.first
    #expect(event == nil, "the delete removed the logged coffee")
  }

  @Test(arguments: [
    ("Europe/Berln", "TZ: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?"),
    ("Mars/Olympus", "TZ: unknown time zone 'Mars/Olympus'"),
  ])
  func anInvalidTZIsAUsageErrorNotUTC(zone: String, message: String) throws {
    let sandbox = Sandbox()
    sandbox.variables["TZ"] = zone
    let result = try sandbox.runBinary("log", "Coffee")
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("error: \(message)"), "\(result.stderr)")
    #expect(result.stderr.hasSuffix(" Fix or unset TZ, or pass --tz ZONE.\n"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    // The settings' zone or --tz make TZ irrelevant.
    #expect(try sandbox.runBinary("log", "Coffee", "--tz", "UTC").status == 0)
  }

  @Test(arguments: [
    (":Europe/Berlin", "+02:00"), ("/usr/share/zoneinfo/Asia/Kolkata", "+05:30"),
    ("europe/berlin", "+02:00"),
  ])
  func theFormsOfTZThatGlibcReadsAreRead(zone: String, offset: String) throws {
    let sandbox = Sandbox(now: "2026-04-27T12:00:00Z")
    sandbox.variables["TZ"] = zone
    let event = sandbox.run("log", "Coffee", "--json").json["event"] as? [String: Any]
    #expect((event?["timestamp"] as? String)?.hasSuffix(offset) == true)
  }

  @Test func zoneNamesIgnoreCaseAndNearMissesGetASuggestion() {
    let sandbox = Sandbox()
    #expect(sandbox.run("settings", "--time-zone", "america/new_york").status == 0)
    #expect(sandbox.run("settings", "--json").json["timeZone"] as? String == "America/New_York")
    let wrong = sandbox.run("log", "Coffee", "--tz", "Europe/Berlni")
    #expect(wrong.status == 64)
    #expect(
      wrong.stderr.hasPrefix(
        "error: --tz: unknown time zone 'Europe/Berlni'; did you mean 'Europe/Berlin'?"))
  }

  @Test func theLocaleIsRecordedOnTheFirstWriteAndPlanTextsNoLongerDependOnLANG() throws {
    let sandbox = Sandbox(now: "2026-04-27T04:00:00+02:00")
    sandbox.variables["LANG"] = "en_US.UTF-8"
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    #expect(try sandbox.runBinary("import", sample).status == 0)
    #expect(sandbox.run("settings", "--json").json["locale"] as? String == "en_US")
    #expect(try sandbox.runBinary("plan").status == 0)
    let before = sandbox.run("pending", "--json").stdout
    #expect(before.contains("Waking at 6:47 AM keeps you on schedule."))
    // A nightly cron job under another locale changes nothing.
    sandbox.variables["LANG"] = "de_DE.UTF-8"
    let replan = try sandbox.runBinary("plan", "--json")
    #expect((replan.json["replaced"] as? [Any])?.isEmpty == true)
    #expect(sandbox.run("pending", "--json").stdout == before)
    // Plain spaces only.
    #expect(!before.unicodeScalars.contains { $0.value == 0x202F || $0.value == 0xA0 })
    // The setting changes it.
    #expect(sandbox.run("settings", "--locale", "de_DE").status == 0)
    #expect(sandbox.run("plan").status == 0)
    #expect(sandbox.run("pending", "--json").stdout.contains("Waking at 06:47 keeps"))
  }

  @Test func withoutAnyLocaleTheClockIs24Hours() throws {
    let sandbox = Sandbox()
    #expect(try sandbox.runBinary("log", "Coffee").status == 0)
    let settings = sandbox.run("settings").stdout
    #expect(settings.contains("locale          C (times like 18:46)\n"))
  }
}

struct SilentFailureTests {
  @Test func aFullDiskOnStandardOutputIsExit74WithASentence() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("log", "Coffee").status == 0)
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    for arguments in [["events"], ["events", "--json"], ["sample", "--days", "30"], ["--help"]] {
      let result = try sandbox.runBinary(arguments, stdout: full)
      #expect(result.status == 74, "\(arguments)")
      #expect(
        result.stderr.hasSuffix("error: cannot write the output: No space left on device\n"),
        "\(arguments): \(result.stderr)")
    }
  }

  @Test func sampleOutputWritesThroughASymbolicLinkAndKeepsIt() throws {
    let sandbox = Sandbox()
    let target = sandbox.file("real.csv", "old\n")
    let link = sandbox.directory.appendingPathComponent("link.csv").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let result = try sandbox.runBinary("sample", "--days", "3", "--output", link)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("timestamp,event"))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
      .filter { $0.contains(".tmp-") }
    #expect(leftovers.isEmpty)
  }

  @Test func sampleOutputToADeviceWritesToItAndReportsAFullDisk() throws {
    let sandbox = Sandbox()
    let stdout = try sandbox.runBinary(["sample", "--days", "2", "--output", "/dev/stdout"])
    #expect(stdout.status == 0)
    #expect(stdout.stdout.hasPrefix("timestamp,event,value,note\n"))
    let full = try sandbox.runBinary(["sample", "--days", "2", "--output", "/dev/full"])
    #expect(full.status == 74)
    #expect(full.stderr.contains("error: cannot write '/dev/full': No space left on device"))
    // The device is still a device (replacing it needs root; the rule is the same for everyone).
    var status = stat()
    #expect(stat("/dev/full", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
  }

  @Test func aReplacedFileKeepsItsPermissions() throws {
    let sandbox = Sandbox()
    let path = sandbox.file("mine.csv", "old\n")
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
    #expect(try sandbox.runBinary("sample", "--days", "2", "--output", path).status == 0)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o777 == 0o640)
  }

  @Test(arguments: [["--store", "a"], ["--store", "."], ["--store", "z/"]])
  func shortStorePathsWorkOrSayWhatIsWrong(arguments: [String]) throws {
    let sandbox = Sandbox()
    let result = try sandbox.runBinary(["log", "Coffee"] + arguments)
    if arguments[1] == "a" {
      #expect(result.status == 0, "\(result.stderr)")
      #expect(
        FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("a").path))
    } else {
      #expect(result.status == 74)
      #expect(result.stderr.contains("names a directory"), "\(result.stderr)")
    }
  }

  @Test func aStoreNamedInTheEnvironmentWithOneCharacterWorks() throws {
    let sandbox = Sandbox()
    sandbox.variables["ROUTINE_STORE"] = "z"
    #expect(try sandbox.runBinary("log", "Coffee").status == 0)
    #expect(try sandbox.runBinary("events").stdout.contains("Coffee"))
  }

  @Test func anEmptyStoreOptionIsAUsageError() throws {
    let result = try Sandbox().runBinary("events", "--store", "")
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("error: --store: expected the path of a store file"))
  }

  @Test func anotherApplicationsDatabaseIsRefusedWith65AndNotTouched() throws {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent("contacts.db").path
    do {
      let other = try Connection(path: path, wal: false)
      try other.execute("CREATE TABLE contacts (name TEXT)")
    }
    let before = FileManager.default.contents(atPath: path)
    let result = try sandbox.runBinary("log", "Coffee", "--store", path)
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: '\(path)' is not a routine store but another application's SQLite database (it has the table 'contacts'); routine leaves it unchanged: give another --store path\n"
    )
    #expect(FileManager.default.contents(atPath: path) == before)
  }

  @Test func anotherApplicationsDatabaseWithoutTablesIsRefusedWith65AndNotTouched() throws {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent("o.db").path
    do {
      // Issue 17's: `sqlite3 o.db "CREATE VIEW v AS SELECT 1; PRAGMA user_version=3;"`.
      let other = try Connection(path: path, wal: false)
      try other.execute("CREATE VIEW v AS SELECT 1; PRAGMA user_version = 3")
    }
    let before = FileManager.default.contents(atPath: path)
    for command in [["log", "Tea"], ["events"], ["status"]] {
      let result = try sandbox.runBinary(command + ["--store", path])
      #expect(result.status == 65, "\(command)")
      #expect(
        result.stderr
          == "error: '\(path)' is not a routine store but another application's SQLite database (it has the view 'v'); routine leaves it unchanged: give another --store path\n",
        "\(command)")
    }
    #expect(FileManager.default.contents(atPath: path) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func aDamagedStoreAndAStoreFromANewerVersionExit65() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("log", "Coffee").status == 0)
    let path = sandbox.storePath
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.seek(toOffset: 44)
    try handle.write(contentsOf: Data([0xFF, 0xFE, 0x01, 0x07]))
    try handle.close()
    let damaged = try sandbox.runBinary("events")
    #expect(damaged.status == 65)
    #expect(
      damaged.stderr.hasPrefix("error: the store '\(path)' is damaged (unsupported file format)"))

    // The issue's own case: the first 100 bytes overwritten, magic string and all.
    let overwritten = Sandbox()
    #expect(overwritten.run("log", "Coffee").status == 0)
    let store = try #require(FileHandle(forUpdatingAtPath: overwritten.storePath))
    try store.write(contentsOf: Data(repeating: 0x5A, count: 100))
    try store.close()
    for command in [["events"], ["log", "Tea"], ["pending"], ["reminders"]] {
      let result = try overwritten.runBinary(command)
      #expect(result.status == 65, "\(command)")
      #expect(
        result.stderr
          == "error: the store '\(overwritten.storePath)' is damaged (its header is not a SQLite header); restore it from a backup, or move it away to start a new store\n",
        "\(command)")
    }

    let newer = Sandbox()
    #expect(newer.run("log", "Coffee").status == 0)
    try EventStore(path: newer.storePath).connection.execute(
      "INSERT INTO migrations (name, applied_at) VALUES ('9999-future', 0)")
    let refused = try newer.runBinary("events")
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("was written by a newer version of routine"))
  }

  @Test func aNewStoreIsReadableOnlyByItsOwner() throws {
    let sandbox = Sandbox()
    sandbox.variables["ROUTINE_STORE"] = nil
    #expect(try sandbox.runBinary("log", "Coffee").status == 0)
    func mode(_ relative: String) throws -> Int {
      let path = sandbox.directory.appendingPathComponent(relative).path
      return try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        ?? 0
    }
    #expect(try mode(".local/share/routine/routine.db") & 0o777 == 0o600)
    #expect(try mode(".local/share/routine") & 0o777 == 0o700)
  }

  @Test func commandsThatOnlyReadDoNotCreateAStore() throws {
    let sandbox = Sandbox()
    for command in [
      ["events"], ["analyze"], ["backtest"], ["pending"], ["agenda"], ["settings"], ["kinds"],
      ["plan", "--dry-run"], ["undo", "--yes"], ["clear", "--all"],
      ["events", "delete", "--last", "1"],
    ] {
      let result = try sandbox.runBinary(command)
      #expect(result.status == 0, "\(command): \(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    #expect(
      !FileManager.default.fileExists(
        atPath: sandbox.directory.appendingPathComponent("store").path))
    // The store's path, under the home directory shown with ~.
    #expect(
      sandbox.run("settings").stdout.contains(
        "store           ~/store/routine.db (not created yet)\n"))
  }
}

struct ControlCharacterTests {
  let escape = "\u{1B}[31mRed\u{07}"

  @Test func namesAndNotesWithControlCharactersNeverReachTheTerminalRaw() throws {
    let sandbox = Sandbox(now: "2026-04-27T06:00:00+02:00")
    for day in 20...26 {
      #expect(
        sandbox.run("log", escape, "--at", "2026-04-\(day) 07:00", "--note", "bell\u{07}").status
          == 0)
    }
    #expect(sandbox.run("log", escape, "--at", "2026-04-27 04:00").status == 0)
    #expect(sandbox.run("plan").status == 0)
    for command in [
      ["log", escape, "--at", "05:00"], ["events"], ["analyze"], ["plan"], ["pending"], ["agenda"],
      ["kinds"], ["undo", "--yes"], ["events", "delete", "--last", "1", "--yes"],
      ["kinds", "rename", escape, "Plain"], ["kinds", "rename", "Plain", escape],
    ] {
      let result = sandbox.run(command)
      #expect(result.status == 0, "\(command): \(result.stderr)")
      for text in [result.stdout, result.stderr] {
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(command)")
      }
      #expect(result.stdout.contains("\\x1B[31mRed\\x07") || command == ["plan"], "\(command)")
    }
    // Identifiers keep to letters and digits.
    let ids = (sandbox.run("pending", "--json").json["requests"] as? [[String: Any]])?
      .filter { $0["origin"] as? String == "learned" }.compactMap { $0["id"] as? String }
    #expect(ids?.isEmpty == false)
    #expect(ids?.allSatisfy { $0 == "routine_31mRed" } == true, "\(ids ?? [])")
  }

  @Test func fileNamesInErrorsAreEscapedToo() throws {
    let sandbox = Sandbox()
    let name = "bad\u{1B}]0;owned\u{07}.csv"
    let path = sandbox.file(name, "timestamp,event\nnot a time,Coffee\n")
    let result = sandbox.run("import", path)
    #expect(result.status == 65)
    #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(result.stderr.contains("bad\\x1B]0;owned\\x07.csv"))
  }

  @Test func jsonEscapesControlAndBidirectionalCharacters() {
    var text = ""
    JSON.writeString("a\u{1B}b\u{7F}c\u{9B}d\u{202E}e é", to: &text)
    #expect(text == "\"a\\u001bb\\u007fc\\u009bd\\u202ee é\"")
  }

  @Test func terminalTextShowsEveryInvisibleCharacter() {
    #expect(TerminalText.escaped("a\tb\nc\u{1B}d\u{7F}") == "a\\tb\\nc\\x1Bd\\x7F")
    #expect(TerminalText.escaped("evil\u{202E}txt.exe") == "evil\\u{202E}txt.exe")
    #expect(TerminalText.escaped("Café ☕") == "Café ☕")
  }

  /// Issue 17, 3.4: the Arabic letter mark is a bidirectional mark like LRM and RLM; Arabic
  /// text around it stays as it is.
  @Test func theArabicLetterMarkIsEscapedLikeTheOtherBidiMarks() {
    #expect(TerminalText.escaped("a\u{061C}b") == "a\\u{61C}b")
    #expect(TerminalText.escaped("قهوة") == "قهوة")
    var text = ""
    JSON.writeString("a\u{061C}b قهوة", to: &text)
    #expect(text == "\"a\\u061cb قهوة\"")
    let sandbox = Sandbox()
    #expect(sandbox.run("log", "Tea\u{061C}Time").stdout.contains("Tea\\u{61C}Time"))
    #expect(!sandbox.run("events", "--json").stdout.contains("\u{061C}"))
  }
}

struct InputTests {
  @Test func aLineWithoutEndIsRejectedWithBoundedMemory() throws {
    let sandbox = Sandbox()
    let result = try sandbox.runBinary("import", "/dev/zero")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: '/dev/zero' line 1: expected a record of at most 1 MiB (1048576 bytes), found a longer one; is this an event log?\n"
    )
    let analysed = try sandbox.runBinary("analyze", "--log", "/dev/zero")
    #expect(analysed.status == 65)
  }

  @Test func standardInputIsReadAsDash() throws {
    let sandbox = Sandbox(now: "2026-04-27T06:00:00+02:00")
    let sample = try Data(contentsOf: EndToEndTests.data.appendingPathComponent("sample.csv"))
    let batch = try sandbox.runBinary(["analyze", "--log", "-", "--json"], input: sample)
    #expect(batch.status == 0, "\(batch.stderr)")
    let fromFile = try sandbox.runBinary(
      "analyze", "--log", EndToEndTests.data.appendingPathComponent("sample.csv").path, "--json")
    #expect(batch.stdout == fromFile.stdout)
    let backtest = try sandbox.runBinary(["backtest", "--log", "-"], input: sample)
    #expect(backtest.status == 0 && backtest.stdout.hasPrefix("Backtest with 7-day windows"))
    let imported = try sandbox.runBinary(["import", "-"], input: sample)
    #expect(imported.stdout == "standard input: 709 events read, 709 added, 0 already present.\n")
    let bad = try sandbox.runBinary(
      ["import", "-"], input: Data("timestamp,event\nnoon,Tea\n".utf8))
    #expect(bad.status == 65)
    #expect(bad.stderr.hasPrefix("error: standard input line 2: expected an ISO 8601 timestamp"))
  }

  @Test func localTimesAreReadInTheAssumedZoneByTheTimeRules() throws {
    let sandbox = Sandbox()
    let path = sandbox.file(
      "phone.csv",
      """
      timestamp,event
      2026-03-29 01:30,Before the gap
      2026-03-29 02:30,In the gap
      2026-10-25 02:30,In the repeat
      2026-04-27 07:55,Summer
      2026-04-27T07:55:30,With seconds
      2026-04-27T08:00+02:00,With offset

      """)
    let refused = sandbox.run("import", path)
    #expect(refused.status == 65)
    #expect(
      refused.stderr.contains(
        "found '2026-03-29 01:30', a local time without offset (give --assume-zone ZONE to read local times)"
      ))
    #expect(sandbox.run("import", path, "--assume-zone", "Europe/Berlin").status == 0)
    let stamps = (sandbox.run("events", "--json").json["events"] as? [[String: Any]])?.map {
      "\($0["event"] ?? "") \($0["timestamp"] ?? "")"
    }
    #expect(
      stamps == [
        "Before the gap 2026-03-29T01:30:00+01:00", "In the gap 2026-03-29T03:00:00+02:00",
        "Summer 2026-04-27T07:55:00+02:00", "With seconds 2026-04-27T07:55:30+02:00",
        "With offset 2026-04-27T08:00:00+02:00", "In the repeat 2026-10-25T02:30:00+02:00",
      ])
    // --tz works as --assume-zone; a re-import adds nothing.
    let again = sandbox.run("import", path, "--tz", "Europe/Berlin")
    #expect(again.stdout.hasSuffix("6 events read, 0 added, 6 already present.\n"))
  }

  @Test func localTimesInAZoneWithAHalfHourShiftFollowTheRules() throws {
    let sandbox = Sandbox()
    // Lord Howe: 02:00 -> 02:30 on 2026-10-04; 02:00 -> 01:30 on 2026-04-05.
    let path = sandbox.file(
      "howe.csv", "timestamp,event\n2026-10-04 02:15,Gap\n2026-04-05 01:45,Repeat\n")
    #expect(sandbox.run("import", path, "--assume-zone", "Australia/Lord_Howe").status == 0)
    let stamps = (sandbox.run("events", "--json").json["events"] as? [[String: Any]])?.map {
      $0["timestamp"] as? String ?? ""
    }
    #expect(stamps == ["2026-04-05T01:45:00+11:00", "2026-10-04T02:30:00+11:00"])
  }

  @Test(arguments: ["", "\u{FEFF}", "\n\n", "timestamp,event\n"])
  func anEmptyFileIsAWarningNotAFailure(text: String) {
    let sandbox = Sandbox()
    let path = sandbox.file("quiet-day.csv", text)
    let result = sandbox.run("import", path)
    #expect(result.status == 0)
    #expect(result.stderr == "warning: '\(path)' holds no events; nothing to import\n")
    #expect(result.stdout == "'\(path)': 0 events read, 0 added, 0 already present.\n")
  }

  @Test func forcingTheWrongFormatSaysWhatTheFileLooksLike() {
    let sandbox = Sandbox()
    let csv = sandbox.file("log.csv", "timestamp,event\n2026-04-20T07:05Z,Tea\n")
    let asJSON = sandbox.run("import", csv, "--format", "jsonl")
    #expect(asJSON.status == 65)
    #expect(
      asJSON.stderr
        == "error: '\(csv)' line 1: expected a JSON object, found 'timestamp,event'; this does not look like JSON Lines: is it CSV? (--format jsonl was given)\n"
    )
    // Named .jsonl but holding CSV: the hint says how to read it.
    let named = sandbox.file("export.jsonl", "timestamp,event\n2026-04-20T07:05Z,Tea\n")
    #expect(
      sandbox.run("import", named).stderr.hasSuffix(
        "found 'timestamp,event'; this does not look like JSON Lines: is it CSV? (--format csv reads it as CSV)\n"
      ))
    #expect(sandbox.run("import", named, "--format", "csv").status == 0)
    let jsonl = sandbox.file(
      "log.txt", "{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"Tea\"}\n")
    let asCSV = sandbox.run("import", jsonl, "--format", "csv")
    #expect(
      asCSV.stderr.contains(
        "found a JSON object: this looks like JSON Lines, not CSV as --format says"))
  }
}

struct ConcurrencyTests {
  @Test func concurrentSettingsChangesThroughTheCLIAreNeverLost() async throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("settings", "--lead", "1").status == 0)
    for round in 0..<5 {
      try await withThrowingTaskGroup(of: Int32.self) { group in
        for (option, value) in [
          ("--lead", 10 + round), ("--buffer", 20 + round), ("--window", 30 + round),
          ("--threshold", 40 + round),
        ] {
          group.addTask {
            let text = option == "--threshold" ? "0.\(value)" : "\(value)"
            return try sandbox.runBinary("settings", option, text).status
          }
        }
        for try await status in group { #expect(status == 0) }
      }
      let settings = sandbox.run("settings", "--json").json
      #expect(settings["leadMinutes"] as? Int == 10 + round)
      #expect(settings["bufferMinutes"] as? Int == 20 + round)
      #expect(settings["windowDays"] as? Int == 30 + round)
      #expect(settings["threshold"] as? Double == Double(40 + round) / 100)
    }
  }

  @Test func aPlanRacingRemindersOffNeverLeavesLearnedRequestsPending() async throws {
    let sandbox = Sandbox(now: "2026-04-27T04:00:00+02:00")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    #expect(sandbox.run("import", sample).status == 0)
    for _ in 0..<4 {
      #expect(sandbox.run("settings", "--enabled", "true").status == 0)
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<3 { group.addTask { _ = try sandbox.runBinary("plan") } }
        group.addTask { _ = try sandbox.runBinary("settings", "--enabled", "false") }
        try await group.waitForAll()
      }
      let pending = sandbox.run("pending", "--json").json["requests"] as? [[String: Any]]
      #expect(pending?.filter { $0["origin"] as? String == "learned" }.isEmpty == true)
    }
  }
}
