import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

struct LogCommandTests {
  @Test func logsNowWithTheZonesOffsetAndOnlyOnce() {
    let sandbox = Sandbox()
    let first = sandbox.run("log", "Wake", "Up")
    #expect(first.status == 0)
    #expect(first.stdout == "Logged Wake Up at Mon 2026-04-27 08:00 (+02:00).\n")
    let second = sandbox.run("log", "wake up")
    // Said with the kind's stored name, as every other command shows it.
    #expect(
      second.stdout == "Wake Up at Mon 2026-04-27 08:00 was already logged; nothing changed.\n")
    let events = sandbox.run("events", "--json").json["events"] as? [[String: Any]]
    #expect(events?.count == 1)
    #expect(events?.first?["timestamp"] as? String == "2026-04-27T08:00:00+02:00")
    #expect(events?.first?["source"] as? String == "cli")
  }

  @Test(arguments: [
    ("07:05", "2026-04-27T07:05:00+02:00"),
    ("09:00", "2026-04-26T09:00:00+02:00"),
    ("2026-03-29 02:30", "2026-03-29T03:00:00+02:00"),
    ("2026-10-25T02:30", "2026-10-25T02:30:00+02:00"),
    ("2026-04-20T07:05-04:00", "2026-04-20T07:05:00-04:00"),
  ])
  func atResolvesTimesThroughTheTimeRules(at: String, expected: String) {
    let sandbox = Sandbox()
    let result = sandbox.run("log", "Wake Up", "--at", at, "--json")
    #expect(result.status == 0, "\(result.stderr)")
    let event = result.json["event"] as? [String: Any]
    #expect(event?["timestamp"] as? String == expected)
    #expect(result.json["added"] as? Bool == true)
  }

  @Test func valuesAndNotesAreStored() {
    let sandbox = Sandbox()
    #expect(
      sandbox.run("log", "Coffee", "--value", "2", "--note", "oat, \"flat\" white").status == 0)
    let event = (sandbox.run("events", "--json").json["events"] as? [[String: Any]])?.first
    #expect(event?["value"] as? Double == 2)
    #expect(event?["note"] as? String == "oat, \"flat\" white")
    #expect(
      sandbox.run("events").stdout
        == "2026-04-27T08:00:00+02:00  Coffee  value=2  note=\"oat, \\\"flat\\\" white\"  (cli)\n")
  }

  @Test(arguments: [
    (["log", "Coffee", "--value", "two"], "error: --value: expected a number, found 'two'"),
    (
      ["log", "Coffee", "--at", "7 o'clock"],
      "error: --at: expected a date and time such as 2026-04-20T07:05+02:00, '2026-04-20 07:05', '2026-04-20', 'tomorrow 9am', 'fri 12:00', 'next fri', 'noon', '7:30 pm', '+2d', '-90m', 'in 2 hours' or '3 days ago' (see 'routine help dates'), found '7 o'clock'"
    ),
    (
      ["log", "Coffee", "--tz", "Mars/Olympus"],
      "error: --tz: unknown time zone 'Mars/Olympus'; expected an IANA name like Europe/Berlin"
    ),
    (
      ["log", "Coffee", "--now", "yesterday"],
      "error: --now: expected \(Timestamp.expectedFormat), found 'yesterday'"
    ),
    (["log", " "], "error: EVENT is empty"),
  ])
  func badValuesAreUsageErrors(arguments: [String], message: String) {
    let result = Sandbox().run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix(message + "\nusage: routine log EVENT..."), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }
}

struct ImportCommandTests {
  @Test func importingTwiceAddsNothingTheSecondTime() {
    let sandbox = Sandbox()
    let path = sandbox.file(
      "log.csv", "timestamp,event\n2026-04-20T07:05Z,Wake Up\n2026-04-21T07:05Z,Wake Up\n")
    #expect(
      sandbox.run("import", path).stdout
        == "'\(path)': 2 events read, 2 added, 0 already present.\n")
    #expect(
      sandbox.run("import", path).stdout
        == "'\(path)': 2 events read, 0 added, 2 already present.\n")
  }

  @Test func aMalformedFileIsRejectedWholeWithExit65AndOthersStillImport() throws {
    let sandbox = Sandbox()
    let bad = sandbox.file(
      "bad.csv", "timestamp,event\n2026-04-20T07:05Z,Wake Up\n2026-04-21,Wake Up\n")
    let good = sandbox.file(
      "good.jsonl", "{\"timestamp\": \"2026-04-22T07:05Z\", \"event\": \"Wake Up\"}\n")
    let result = sandbox.run("import", bad, good)
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: '\(bad)' line 3: expected \(Timestamp.expectedFormat), found '2026-04-21'\n")
    #expect(result.stdout == "'\(good)': 1 event read, 1 added, 0 already present.\n")
    #expect(try EventStore(path: sandbox.storePath).count() == 1)
  }

  @Test func skippingInvalidLinesReportsEachOne() {
    let sandbox = Sandbox()
    let path = sandbox.file(
      "mixed.csv", "timestamp,event\n2026-04-20T07:05Z,Wake Up\nsoon,Wake Up\n,Wake Up\n")
    let result = sandbox.run("import", path, "--skip-invalid")
    #expect(result.status == 0)
    #expect(
      result.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("warning: '\(path)' line") }
        .count == 2)
    #expect(result.stdout.contains("1 added, 0 already present, 2 invalid lines skipped"))
  }

  @Test func aMissingFileIsExit66() {
    let sandbox = Sandbox()
    let result = sandbox.run("import", sandbox.directory.appendingPathComponent("nope.csv").path)
    #expect(result.status == 66)
    #expect(result.stderr.contains("cannot open"))
  }

  @Test func theJSONReportHasOneEntryPerFile() {
    let sandbox = Sandbox()
    let path = sandbox.file("log.csv", "timestamp,event\n2026-04-20T07:05Z,Wake Up\n")
    let files = sandbox.run("import", path, "--json").json["files"] as? [[String: Any]]
    #expect(files?.count == 1)
    #expect(files?.first?["added"] as? Int == 1)
    #expect(files?.first?["alreadyPresent"] as? Int == 0)
    #expect(files?.first?["error"] is NSNull)
  }
}

struct EventsCommandTests {
  @Test func filtersByTimeAndKind() {
    let sandbox = Sandbox()
    for (kind, time) in [
      ("Wake Up", "2026-04-20 07:00"), ("Coffee", "2026-04-20 07:30"),
      ("Wake Up", "2026-04-21 07:00"),
    ] {
      #expect(sandbox.run("log", kind, "--at", time).status == 0)
    }
    let all = sandbox.run("events", "--json").json["events"] as? [[String: Any]]
    #expect(all?.count == 3)
    let filtered = sandbox.run(
      "events", "--from", "2026-04-20", "--to", "2026-04-21", "--event", "WAKE UP", "--json")
    let events = filtered.json["events"] as? [[String: Any]]
    #expect(events?.map { $0["timestamp"] as? String } == ["2026-04-20T07:00:00+02:00"])
    let none = sandbox.run("events", "--from", "2026-05-01")
    #expect(none.stdout == "No events match.\n" && none.stderr.isEmpty)
    #expect(sandbox.run("events", "--from", "soon").status == 64)
  }
}

struct AnalyzeCommandTests {
  /// Two weeks of a tight weekday wake-up and a daily meditation.
  func log(in sandbox: Sandbox) -> String {
    var text = "timestamp,event\n"
    for day in 13...26 {
      let date = LocalDate(year: 2026, month: 4, day: day)!
      if !date.isWeekend { text += "2026-04-\(day)T07:0\(day % 5):00+02:00,Wake Up\n" }
      text += "2026-04-\(day)T21:3\(day % 4):00+02:00,Meditation\n"
    }
    text += "2026-04-27T05:15:00+02:00,Wake Up\n"
    return sandbox.file("two-weeks.csv", text)
  }

  @Test func theJSONHasTheDocumentedShape() throws {
    let sandbox = Sandbox()
    let result = sandbox.run("analyze", "--log", log(in: sandbox), "--days", "14", "--json")
    #expect(result.status == 0)
    let json = result.json
    let window = try #require(json["window"] as? [String: Any])
    #expect(window["from"] as? String == "2026-04-13T00:00:00+02:00")
    #expect(window["to"] as? String == "2026-04-27T08:00:00+02:00")
    #expect(window["days"] as? Int == 14)
    let routines = try #require(json["routines"] as? [[String: Any]])
    #expect(routines.count == 2)
    let wake = try #require(routines.first { $0["event"] as? String == "Wake Up" })
    #expect(wake["time"] as? String == "07:02")
    #expect(wake["dayKind"] as? String == "weekdays")
    #expect(wake["daysOfWeek"] as? [Int] == [2, 3, 4, 5, 6])
    #expect((wake["confidence"] as? Double ?? 0) > 0.6)
    #expect(wake["occurrences"] as? Int == 10)
    #expect(
      (wake["reasoning"] as? String)?.hasPrefix(
        "You woke up between 07:00 and 07:04 on 10 of the last 10 weekdays") == true)
    let outliers = try #require(json["outliers"] as? [[String: Any]])
    #expect(outliers.count == 1)
    #expect(outliers.first?["timestamp"] as? String == "2026-04-27T05:15:00+02:00")
    #expect(outliers.first?["expected"] as? String == "07:02")
    #expect(outliers.first?["deviationMinutes"] as? Int == -107)
    #expect(json["durations"] is [Any])
  }

  @Test func theStoreAndTheBatchModeAgree() {
    let sandbox = Sandbox()
    let path = log(in: sandbox)
    let batch = sandbox.run("analyze", "--log", path, "--days", "14", "--json")
    #expect(sandbox.run("import", path).status == 0)
    let stored = sandbox.run("analyze", "--days", "14", "--json")
    #expect(stored.status == 0)
    #expect(stored.stdout == batch.stdout)
  }

  @Test func aLogOutsideTheWindowGetsAHint() {
    let sandbox = Sandbox(now: "2026-11-21T10:00:00+01:00")
    let result = sandbox.run("analyze", "--log", log(in: sandbox))
    #expect(result.status == 0)
    #expect(
      result.stdout.contains(
        "  none: the log runs from 2026-04-13 to 2026-04-27, outside the window (2026-11-14 to 2026-11-20); try --now 2026-04-28T00:00:00+02:00.\n"
      ))
  }

  @Test func theTextListsRoutinesOutliersAndDurations() {
    let sandbox = Sandbox()
    let result = sandbox.run("analyze", "--log", log(in: sandbox), "--days", "14")
    #expect(
      result.stdout.hasPrefix(
        "Routines learned from Mon 2026-04-13 to Sun 2026-04-26 (14 days, 42 for some weekdays, "
          + "Europe/Berlin):\n"))
    // Without the horizon the header says the window only.
    let windowOnly = sandbox.run(
      "analyze", "--log", log(in: sandbox), "--days", "14", "--weekly", "14")
    #expect(
      windowOnly.stdout.hasPrefix(
        "Routines learned from Mon 2026-04-13 to Sun 2026-04-26 (14 days, Europe/Berlin):\n"))
    #expect(result.stdout.contains("  07:02  Wake Up     weekdays"))
    #expect(
      result.stdout.contains(
        "Outliers:\n  Mon 2026-04-27  Wake Up: You woke up at 05:15, 107 minutes earlier than your usual 07:02."
      ))
  }
}

struct BacktestAndSampleCommandTests {
  @Test func aPersonaOfThePopulationIsGeneratedAndBacktestedWithItsCalibration() throws {
    let sandbox = Sandbox()
    let persona = sandbox.run("sample", "--persona", "5", "--days", "60", "--seed", "1")
    #expect(persona.status == 0)
    #expect(persona.stdout.contains(",Gym,"))
    #expect(persona.stdout != sandbox.run("sample", "--persona", "6", "--days", "60").stdout)
    let path = sandbox.file("persona.csv", persona.stdout)
    let result = sandbox.run("backtest", "--log", path, "--json").json
    let bins = try #require(result["reliability"] as? [[String: Any]])
    #expect(bins.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == result["predictions"] as? Int)
    #expect(result["calibrationError"] as? Double != nil)
    let text = sandbox.run("backtest", "--log", path).stdout
    #expect(text.contains("Expected calibration error: "))
    #expect(text.contains("confidence  predictions  mean confidence  hit rate"))
    let both = sandbox.run("sample", "--persona", "1", "--kinds", "3")
    #expect(both.status == 64)
    #expect(both.stderr.contains("--kinds and --persona do not combine"))
    #expect(sandbox.run("sample", "--persona", "-1").status == 64)
  }

  @Test func weekdayRoutinesComeOutAsWeeklyWithTheirDaysAndTheHorizonIsAnOption() throws {
    // Persona 5 is a weekly-only person: the gym on Monday, Wednesday and Friday, a class on
    // Tuesdays, a long run on Sundays.
    let sandbox = Sandbox()
    let sample = sandbox.run(
      "sample", "--persona", "5", "--days", "42", "--seed", "1", "--start", "2025-01-06")
    #expect(sample.status == 0)
    let path = sandbox.file("weekly.csv", sample.stdout)
    let now = "2025-02-17T05:00:00+01:00"
    let json = sandbox.run("analyze", "--log", path, "--now", now, "--json").json
    let routines = try #require(json["routines"] as? [[String: Any]])
    let gym = try #require(routines.first { $0["event"] as? String == "Gym" })
    #expect(gym["dayKind"] as? String == "weekly")
    #expect(gym["daysOfWeek"] as? [Int] == [2, 4, 6])
    #expect(
      (gym["reasoning"] as? String)?.contains("of the last 18 Mondays, Wednesdays and Fridays")
        == true)
    let run = try #require(routines.first { $0["event"] as? String == "Long Run" })
    #expect(run["daysOfWeek"] as? [Int] == [1])
    let text = sandbox.run("analyze", "--log", path, "--now", now).stdout
    #expect(text.contains("  Mon/Wed/Fri  "))
    // Without the horizon the window sees one week: no weekday set.
    let plain = sandbox.run("analyze", "--log", path, "--now", now, "--weekly", "0", "--json")
    let without = try #require(plain.json["routines"] as? [[String: Any]])
    #expect(!without.contains { $0["dayKind"] as? String == "weekly" })
    #expect(sandbox.run("analyze", "--log", path, "--weekly", "-1").status == 64)
    // The plan's horizon is a setting.
    #expect(sandbox.run("settings", "--weekly", "28").status == 0)
    #expect(sandbox.run("settings", "--json").json["weeklyDays"] as? Int == 28)
    #expect(json["window"].flatMap { $0 as? [String: Any] }?["weeklyDays"] as? Int == 42)
    let backtest = sandbox.run("backtest", "--log", path, "--json").json
    #expect(backtest["weeklyDays"] as? Int == 42)
    #expect(sandbox.run("settings", "--weekly", "x").status == 64)
    #expect(
      sandbox.run("plan", "--dry-run", "--now", now).stdout.hasPrefix(
        "Plan from 7 days of events, 28 for some weekdays ("))
    #expect(sandbox.run("settings", "--weekly", "7").stdout.contains("7 (no weekday sets)"))
    #expect(
      sandbox.run("plan", "--dry-run", "--now", now).stdout.hasPrefix(
        "Plan from 7 days of events ("))
  }

  @Test func theSampleIsDeterministicAndItsBacktestHasTheDocumentedKeys() throws {
    let sandbox = Sandbox()
    let sample = sandbox.run("sample", "--days", "42", "--seed", "5")
    #expect(sample.status == 0)
    #expect(sample.stdout == sandbox.run("sample", "--days", "42", "--seed", "5").stdout)
    #expect(sample.stdout != sandbox.run("sample", "--days", "42", "--seed", "6").stdout)
    #expect(sample.stdout.hasPrefix("timestamp,event,value,note\n"))
    let path = sandbox.file("sample.csv", sample.stdout)
    let result = sandbox.run("backtest", "--log", path, "--json")
    #expect(result.status == 0)
    let json = result.json
    for key in ["precision", "recall", "brier", "reminders", "days"] {
      #expect(json[key] != nil, "\(key)")
    }
    #expect((json["days"] as? Int ?? 0) > 20)
    #expect((json["precision"] as? Double ?? 0) > 0.5)
  }

  @Test func theJSONLinesSampleImportsToTheSameEvents() throws {
    let sandbox = Sandbox()
    let csv = sandbox.file("s.csv", sandbox.run("sample", "--days", "14").stdout)
    let jsonl = sandbox.file(
      "s.jsonl", sandbox.run("sample", "--days", "14", "--format", "jsonl").stdout)
    #expect(sandbox.run("import", csv).status == 0)
    let again = sandbox.run("import", jsonl, "--json").json["files"] as? [[String: Any]]
    #expect(again?.first?["added"] as? Int == 0)
    #expect((again?.first?["alreadyPresent"] as? Int ?? 0) > 100)
  }

  @Test func writingToAFileReplacesItWhole() throws {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent("out.csv").path
    let result = sandbox.run("sample", "--days", "7", "--output", path)
    #expect(result.status == 0)
    #expect(result.stderr.hasPrefix("Wrote "))
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text == sandbox.run("sample", "--days", "7").stdout)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
      .filter { $0.contains(".tmp-") }
    #expect(leftovers.isEmpty)
  }
}

struct ErrorReportTests {
  static func sqlite(_ code: Int32) -> SQLiteError {
    SQLiteError(code: code, message: "m", sql: nil)
  }

  @Test(arguments: [
    (UsageError("u") as any Error, ExitCode.usage),
    (CommandError(.dataError, "c"), .dataError),
    (FormatError(file: "f", line: 1, message: "m"), .dataError),
    (FileError.cannotOpen(path: "f", reason: "r"), .noInput),
    (FileError.readFailed(path: "f", reason: "r"), .ioError),
    (FileError.writeFailed(path: "f", reason: "r"), .ioError),
    (StoreError.database(sqlite(5), path: "s"), .temporaryFailure),  // SQLITE_BUSY
    (StoreError.database(sqlite(517), path: "s"), .temporaryFailure),  // SQLITE_BUSY_SNAPSHOT
    (StoreError.database(sqlite(6), path: "s"), .temporaryFailure),  // SQLITE_LOCKED
    (StoreError.database(sqlite(11), path: "s"), .dataError),  // SQLITE_CORRUPT
    (StoreError.database(sqlite(26), path: "s"), .dataError),  // SQLITE_NOTADB
    (StoreError.database(sqlite(8), path: "s"), .ioError),  // SQLITE_READONLY
    (StoreError.database(sqlite(10), path: "s"), .ioError),  // SQLITE_IOERR
    (StoreError.database(sqlite(13), path: "s"), .ioError),  // SQLITE_FULL
    (StoreError.database(sqlite(14), path: "s"), .ioError),  // SQLITE_CANTOPEN
    (StoreError.database(sqlite(1), path: "s"), .failure),  // SQLITE_ERROR
    (StoreError.cannotCreateDirectory(path: "d", reason: "r"), .ioError),
    (StoreError.cannotCreateFile(path: "f", reason: "r"), .ioError),
    (StoreError.isDirectory(path: "."), .ioError),
    (StoreError.newerVersion(path: "s", unknownMigrations: ["9"]), .dataError),
    (StoreError.foreign(path: "s", detail: "d"), .dataError),
    (StoreError.notADatabase(path: "s"), .dataError),
    (StoreError.damaged(path: "s", detail: "d"), .dataError),
    (StoreError.diskFull(path: "s", mountPoint: "/"), .ioError),
    (StoreError.noLocation, .usage),
    (StoreError.missing(path: "s"), .noInput),
    (CocoaError(.fileNoSuchFile), .failure),
  ])
  func errorsMapToTheDocumentedExitCodes(error: any Error, code: ExitCode) {
    let (status, message) = ErrorReport.describe(error)
    #expect(status == code, "\(error)")
    #expect(!message.isEmpty)
  }

  @Test func storeErrorsAreSentencesThatSayWhere() {
    let busy = ErrorReport.describe(StoreError.database(Self.sqlite(5), path: "/s.db")).1
    #expect(busy.hasPrefix("the store '/s.db' is busy"))
    let full = ErrorReport.describe(StoreError.database(Self.sqlite(13), path: "/s.db")).1
    #expect(full.hasPrefix("cannot write the store '/s.db': the disk is full"))
    let damaged = ErrorReport.describe(StoreError.database(Self.sqlite(11), path: "/s.db")).1
    #expect(damaged.hasPrefix("the store '/s.db' is damaged (m); restore it from a backup"))
  }

  @Test func theStoreFollowsXDGWhenNothingElseIsSet() {
    let sandbox = Sandbox()
    sandbox.variables["ROUTINE_STORE"] = nil
    sandbox.variables["XDG_DATA_HOME"] = sandbox.directory.appendingPathComponent("xdg").path
    #expect(sandbox.run("log", "Wake Up").status == 0)
    #expect(
      FileManager.default.fileExists(
        atPath: sandbox.directory.appendingPathComponent("xdg/routine/routine.db").path))
  }
}

struct BacktestBaselineCommandTests {
  func sampleLog(_ sandbox: Sandbox) -> String {
    sandbox.file(
      "sample.csv", sandbox.run("sample", "--days", "35", "--seed", "4", "--kinds", "3").stdout)
  }

  @Test func anUnknownBaselineIsRefusedWithTheNames() {
    let sandbox = Sandbox()
    let result = sandbox.run("backtest", "--log", sampleLog(sandbox), "--baseline", "nope")
    #expect(result.status == 64)
    #expect(
      result.stderr.contains(
        "expected mean, circular, circular-split, clusters, clusters-split or all, found 'nope'"))
  }

  @Test func theCurveIsAnArrayInJSONAndATableInText() throws {
    let sandbox = Sandbox()
    let path = sampleLog(sandbox)
    let plain = sandbox.run("backtest", "--log", path, "--json").json
    #expect(plain["curve"] == nil && plain["method"] == nil && plain["meanPrecision"] == nil)
    let json = sandbox.run("backtest", "--log", path, "--curve", "--json").json
    let curve = try #require(json["curve"] as? [[String: Any]])
    #expect(!curve.isEmpty)
    #expect(curve.first?["recall"] as? Double == 0.05)
    for key in ["precision", "minConfidence", "reminders", "hits", "reachedRecall"] {
      #expect(curve.first?[key] != nil, "\(key)")
    }
    #expect(json["meanPrecision"] as? Double != nil)
    #expect(json["precision"] as? Double == plain["precision"] as? Double)
    let text = sandbox.run("backtest", "--log", path, "--curve").stdout
    #expect(text.contains("  recall  precision  min confidence  reminders\n    0.05  "))
  }

  @Test func oneBaselineOrAllOfThemBesideTheLearner() throws {
    let sandbox = Sandbox()
    let path = sampleLog(sandbox)
    let one = sandbox.run("backtest", "--log", path, "--baseline", "Clusters-Split", "--json")
    #expect(one.status == 0)
    #expect(one.json["method"] as? String == "clusters-split")
    #expect(one.json["weeklyDays"] as? Int == 0)
    let all = sandbox.run("backtest", "--log", path, "--baseline", "all", "--json")
    let rows = try #require(
      JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
    #expect(
      rows.map { $0["method"] as? String } == [
        "learner", "mean", "circular", "circular-split", "clusters", "clusters-split",
      ])
    let text = sandbox.run("backtest", "--log", path, "--baseline", "all", "--curve").stdout
    #expect(
      text.contains("  method          reminders  precision  recall  Brier    ECE  mean P@R\n"))
    #expect(text.contains("\n  circular-split  "))
    #expect(text.contains("\nclusters:\n"))
  }
}
