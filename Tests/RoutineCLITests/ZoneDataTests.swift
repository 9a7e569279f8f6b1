import Foundation
import Testing

/// The built `routine` reads zone rules from the tz database `$TZDIR` names, played here by zones
/// the test compiles with zic: a made-up zone, and a made-up `Europe/Berlin` whose rules differ
/// from Foundation's, which must lose.
@Suite(
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/zic"),
    "zic (/usr/sbin/zic, Debian's libc-bin) is not installed"))
struct ZoneDataTests {
  /// MUT (+03:20) with summer time MUST (+04:50) from the second Sunday of April at 03:00 to the
  /// last Sunday of September at 02:00, since 2020; the same rules as `Europe/Berlin`.
  static let rules = """
    Rule\tMu\t2020\tmax\t-\tApr\tSun>=8\t3:00\t1:30\tMUST
    Rule\tMu\t2020\tmax\t-\tSep\tlastSun\t2:00\t0\tMUT
    Zone\tTest/Made_Up\t0:40\t-\tLMT\t1950
    \t\t\t3:20\tMu\t%s
    Zone\tEurope/Berlin\t3:20\tMu\t%s

    """

  let sandbox: Sandbox
  let tzdir: String

  init() throws {
    sandbox = Sandbox(now: "2026-09-25T08:00:00Z", zone: "")
    sandbox.variables["TZ"] = nil
    tzdir = sandbox.directory.appendingPathComponent("zoneinfo").path
    try FileManager.default.createDirectory(atPath: tzdir, withIntermediateDirectories: true)
    let source = sandbox.file("rules.zi", Self.rules)
    let zic = Process()
    zic.executableURL = URL(fileURLWithPath: "/usr/sbin/zic")
    zic.arguments = ["-d", tzdir, source]
    try zic.run()
    zic.waitUntilExit()
    #expect(zic.terminationStatus == 0)
    _ = sandbox.file("zoneinfo/tzdata.zi", "# version 2099z\nZ Test/Made_Up 0:40 - LMT 1950\n")
    sandbox.variables["TZDIR"] = tzdir
    // No notify-send, no crontab, no D-Bus session: doctor says the same on every machine.
    sandbox.variables["PATH"] = sandbox.directory.path
  }

  @Test func aLoggedTimeHasTheOffsetOfTheDatabasesRules() throws {
    let made = try sandbox.runBinary("--tz", "Test/Made_Up", "log", "Tea", "--at", "07:00")
    #expect(made.stdout == "Logged Tea at Fri 2026-09-25 07:00 (+04:50).\n", "\(made.stderr)")
    // Foundation says +02:00 for Berlin that day; the database has the last word.
    let berlin = try sandbox.runBinary("--tz", "europe/berlin", "log", "Coffee", "--at", "07:00")
    #expect(berlin.stdout == "Logged Coffee at Fri 2026-09-25 07:00 (+04:50).\n")
    // Without TZDIR, the system's database: the real Berlin.
    sandbox.variables["TZDIR"] = nil
    let real = try sandbox.runBinary("--tz", "Europe/Berlin", "log", "Juice", "--at", "07:00")
    #expect(real.stdout == "Logged Juice at Fri 2026-09-25 07:00 (+02:00).\n")
  }

  @Test func remindersFireOnTheWallClockOfTheDatabasesRules() throws {
    #expect(try sandbox.runBinary("settings", "--time-zone", "test/made_up").status == 0)
    #expect(try sandbox.runBinary("settings").stdout.contains("time zone       Test/Made_Up\n"))
    #expect(try sandbox.runBinary("reminders", "add", "--text", "Hi", "--at", "09:00").status == 0)
    // Summer time ends on Sunday the 27th at 02:00.
    let agenda = try sandbox.runBinary("agenda", "--to", "2026-09-29")
    #expect(
      agenda.stdout == """
        Sat 2026-09-26 09:00 +04:50  Hi: Every day at 09:00.
        Sun 2026-09-27 09:00 +03:20  Hi: Every day at 09:00.
        Mon 2026-09-28 09:00 +03:20  Hi: Every day at 09:00.

        """, "\(agenda.stderr)")
    let pending = try sandbox.runBinary("pending", "--json")
    #expect(pending.stdout.contains("2026-09-26T09:00:00+04:50"), "\(pending.stdout)")
  }

  @Test func doctorNamesTheDataInUseAndItsVersion() throws {
    let text = try sandbox.runBinary("--tz", "Test/Made_Up", "doctor")
    #expect(
      text.stdout.contains(
        "tz data           the tz database in $TZDIR, version 2099z: \(tzdir)/Test/Made_Up\n"),
      "\(text.stdout)")
    let json = try sandbox.runBinary("--tz", "Test/Made_Up", "doctor", "--json").json
    let data = try #require(json["tzData"] as? [String: Any])
    #expect(data["source"] as? String == "database")
    #expect(data["directory"] as? String == tzdir)
    #expect(data["file"] as? String == tzdir + "/Test/Made_Up")
    #expect(data["version"] as? String == "2099z")
  }

  @Test func aZoneTheDatabaseLacksUsesFoundationsCopyAndDoctorWarns() throws {
    let logged = try sandbox.runBinary("--tz", "Asia/Tokyo", "log", "Tea", "--at", "07:00")
    #expect(logged.stdout == "Logged Tea at Fri 2026-09-25 07:00 (+09:00).\n")
    let doctor = try sandbox.runBinary("--tz", "Asia/Tokyo", "doctor")
    #expect(
      doctor.stdout.contains(
        "tz data           warning: Foundation's built-in copy, version "), "\(doctor.stdout)")
    #expect(doctor.stdout.contains(": Asia/Tokyo is not in \(tzdir); updates of the system's"))
    let json = try sandbox.runBinary("--tz", "Asia/Tokyo", "doctor", "--json").json
    #expect((json["tzData"] as? [String: Any])?["source"] as? String == "foundation")
  }

  @Test func aDamagedZoneFileIsAnErrorNotAnotherZone() throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: tzdir + "/Test/Made_Up"))
    try bytes.prefix(100).write(to: URL(fileURLWithPath: tzdir + "/Test/Broken"))
    let result = try sandbox.runBinary("--tz", "Test/Broken", "log", "Tea")
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix(
        "error: --tz: time zone 'Test/Broken': '\(tzdir)/Test/Broken' is not a valid TZif file: it is cut short"
      ), "\(result.stderr)")
    #expect(!result.stderr.contains("usage:"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    sandbox.variables["TZ"] = "test/broken"
    let fromTZ = try sandbox.runBinary("log", "Tea")
    #expect(fromTZ.status == 65)
    #expect(fromTZ.stderr.hasPrefix("error: TZ: time zone 'test/broken': '\(tzdir)/Test/Broken'"))
    // Doctor says so, as a problem.
    let doctor = try sandbox.runBinary("doctor")
    #expect(doctor.status == 1)
    #expect(doctor.stdout.contains("time zone         PROBLEM: TZ: time zone 'test/broken'"))
  }

  @Test func theFormsOfTZAreReadAsGlibcReadsThem() throws {
    for tz in [
      ":Test/Made_Up", "test/made_up", tzdir + "/Test/Made_Up", ":" + tzdir + "/Test/Made_Up",
    ] {
      sandbox.variables["TZ"] = tz
      let doctor = try sandbox.runBinary("doctor")
      #expect(doctor.stdout.contains("time zone         Test/Made_Up (from $TZ)"), "\(tz)")
    }
    // A POSIX rule: a file of the database comes first, the rule next.
    sandbox.variables["TZ"] = "<+0330>-3:30"
    let rule = try sandbox.runBinary("log", "Tea", "--at", "07:00")
    #expect(rule.stdout == "Logged Tea at Fri 2026-09-25 07:00 (+03:30).\n", "\(rule.stderr)")
    sandbox.variables["TZ"] = "MUT-3:20MUST-4:50,M4.2.0/3,M9.5.0"
    let doctor = try sandbox.runBinary("doctor")
    #expect(doctor.stdout.contains("tz data           none: $TZ is a POSIX rule\n"))
    #expect(doctor.stdout.contains("fix it with 'routine settings --time-zone ZONE'"))
    #expect(
      try sandbox.runBinary("log", "Coffee", "--at", "07:00").stdout
        == "Logged Coffee at Fri 2026-09-25 07:00 (+04:50).\n")
    // GMT+5 is a POSIX rule here: five hours behind UTC, as for date(1) and Etc/GMT+5.
    sandbox.variables["TZ"] = "GMT+5"
    #expect(
      try sandbox.runBinary("log", "Walk", "--at", "01:00").stdout
        == "Logged Walk at Fri 2026-09-25 01:00 (-05:00).\n")
    // As a name (--tz, the settings) it is none: Foundation would read it as five hours ahead.
    let named = try sandbox.runBinary("--tz", "GMT+5", "log", "Walk")
    #expect(named.status == 64)
    #expect(named.stderr.hasPrefix("error: --tz: unknown time zone 'GMT+5'"))
    // The nearest name, GMT+0, would be a wrong zone: the message names the one meant.
    #expect(!named.stderr.contains("GMT+0"), "\(named.stderr)")
    #expect(named.stderr.contains("or 'Etc/GMT-5' for UTC+05:00"), "\(named.stderr)")
    // After a colon, glibc reads only files.
    sandbox.variables["TZ"] = ":<+0330>-3:30"
    let colon = try sandbox.runBinary("log", "Tea", "--at", "08:00")
    #expect(colon.status == 64)
    #expect(colon.stderr.hasPrefix("error: TZ: unknown time zone ':<+0330>-3:30'"))
  }

  @Test func aNearMissIsSuggestedFromTheDatabasesNames() throws {
    let result = try sandbox.runBinary("--tz", "Test/Made_Upp", "log", "Tea")
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "error: --tz: unknown time zone 'Test/Made_Upp'; did you mean 'Test/Made_Up'?"))
  }
}
