import Foundation
import RoutineStore
import Testing

@testable import RoutineCLI

/// What a new user found walking the documented workflows on a fresh clone, each fixed and kept.
struct WalkThroughTests {
  @Test(arguments: ["events", "settings", "kinds", "requests", "migrations"])
  func anotherAppsDatabaseWithATableNamedLikeOursIsRefusedUntouched(table: String) throws {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent("look.db").path
    do {
      let other = try Connection(path: path, wal: false)
      try other.execute("CREATE TABLE \(table) (id INTEGER PRIMARY KEY, ts TEXT)")
    }
    let before = FileManager.default.contents(atPath: path)
    for command in [["events"], ["log", "Tea"]] {
      let result = try sandbox.runBinary(command + ["--store", path])
      #expect(result.status == 65, "\(command)")
      #expect(
        result.stderr.hasPrefix(
          "error: '\(path)' is not a routine store but another application's"),
        "\(result.stderr)")
    }
    #expect(FileManager.default.contents(atPath: path) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func sampleToStandardOutputAppendsWhereTheShellAppends() throws {
    let sandbox = Sandbox()
    let kept = sandbox.file("keep.log", "precious\n")
    for target in ["/dev/stdout", "/proc/self/fd/1", "-"] {
      let handle = try #require(FileHandle(forWritingAtPath: kept))
      try handle.seekToEnd()
      let result = try sandbox.runBinary(
        ["sample", "--days", "1", "--output", target], stdout: handle)
      try handle.close()
      #expect(result.status == 0, "\(target): \(result.stderr)")
    }
    let text = try String(contentsOfFile: kept, encoding: .utf8)
    #expect(text.hasPrefix("precious\ntimestamp,event,value,note\n"))
    #expect(text.components(separatedBy: "timestamp,event,value,note\n").count == 4)
    let dash = try sandbox.runBinary(["sample", "--days", "1", "--output", "-"])
    #expect(dash.stderr.isEmpty && dash.stdout.hasPrefix("timestamp,event"))
    let empty = try sandbox.runBinary(["sample", "--days", "1", "--output", ""])
    #expect(empty.status == 64)
  }

  @Test func anInvalidTZDoesNotHinderCommandsThatNeedNoZone() throws {
    // docs/time.md: $TZ is read only where the user's zone is needed.
    let sandbox = Sandbox()
    sandbox.variables["TZ"] = "Europe/Berln"
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    let imported = try sandbox.runBinary("import", sample)
    #expect(imported.status == 0)
    // The checks after importing need the zone: skipping them is said, never silent.
    #expect(
      imported.stderr.contains(
        "TZ: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'? Fix or unset TZ, or pass --tz ZONE.; imported events cancel no reminder and raise no outlier alert until it is fixed"
      ), "\(imported.stderr)")
    #expect(try sandbox.runBinary("kinds").status == 0)
    #expect(try sandbox.runBinary("clear", "--all").status == 0)
    #expect(try sandbox.runBinary("analyze").status == 64)
  }

  @Test func anEmptyFileOrADeviceIsNoStoreForAReader() throws {
    let sandbox = Sandbox()
    let empty = sandbox.file("zero.db", "")
    let read = try sandbox.runBinary("events", "--store", empty)
    #expect(read.status == 0)
    #expect(read.stdout.hasPrefix("No events: the store"))
    #expect(FileManager.default.contents(atPath: empty)?.isEmpty == true)
    // A writer makes the empty file a store.
    #expect(try sandbox.runBinary("log", "Tea", "--store", empty).status == 0)
    for device in ["/dev/zero", "/dev/null"] {
      let result = try sandbox.runBinary("events", "--store", device)
      #expect(result.status == 74)
      #expect(
        result.stderr.hasPrefix("error: the store '\(device)' is not a regular file"),
        "\(result.stderr)")
    }
  }

  @Test func anAnswerNobodyCanReadChangesNothing() throws {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("log", "Tea", "--at", "07:00").status == 0)
    #expect(sandbox.run("log", "Tea", "--at", "08:00").status == 0)
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    for command in [
      ["undo", "--yes"], ["events", "delete", "--last", "1", "--yes"], ["log", "Coffee"],
      ["log", "Coffee", "--json"],
    ] {
      let result = try sandbox.runBinary(command, stdout: full)
      #expect(result.status == 74, "\(command)")
      #expect(
        result.stderr
          == "error: cannot write the output: No space left on device; nothing was changed\n",
        "\(command): \(result.stderr)")
    }
    #expect(sandbox.run("events").stdout.components(separatedBy: "\n").count == 3)
  }

  @Test func aSelectionMustBeGivenAndInOrder() {
    let sandbox = Sandbox()
    let none = sandbox.run("events", "delete", "--yes")
    #expect(none.status == 64)
    let backwards = sandbox.run("events", "--from", "2026-04-26", "--to", "2026-04-25")
    #expect(backwards.status == 64)
    #expect(backwards.stderr.hasPrefix("error: --to must come after --from"))
  }

  @Test(arguments: [("en_gb", "en_GB"), ("en-US", "en_US"), ("de_DE.UTF-8", "de_DE"), ("c", "C")])
  func localesAreMatchedLikeZonesAndCanBeForgotten(typed: String, stored: String) {
    let sandbox = Sandbox()
    #expect(sandbox.run("settings", "--locale", typed).status == 0)
    #expect(sandbox.run("settings", "--json").json["locale"] as? String == stored)
    #expect(sandbox.run("settings", "--locale", "xx_YY").status == 64)
    #expect(sandbox.run("settings", "--locale", "none").status == 0)
    #expect(sandbox.run("settings", "--json").json["locale"] is NSNull)
  }

  @Test func kindsWithoutEventsAreNoLongerListed() {
    let sandbox = Sandbox()
    #expect(sandbox.run("log", "Tea").status == 0)
    #expect(sandbox.run("log", "Coffee").status == 0)
    #expect(sandbox.run("undo", "--yes").status == 0)
    #expect(sandbox.run("kinds").stdout == "  Tea  1 event  2026-04-27 to 2026-04-27\n")
  }

  @Test func notesAreEscapedLikeNames() {
    let sandbox = Sandbox()
    #expect(sandbox.run("log", "Tea", "--note", "a \"b\" \\ c\u{1B}[1m\nd").status == 0)
    #expect(
      sandbox.run("events").stdout
        == "2026-04-27T08:00:00+02:00  Tea  note=\"a \\\"b\\\" \\\\ c\\x1B[1m\\nd\"  (cli)\n")
  }

  @Test func aBacktestLongerThanTheLogSaysWhy() {
    let sandbox = Sandbox()
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    let result = sandbox.run("backtest", "--log", sample, "--days", "60")
    #expect(
      result.stderr
        == "warning: the log spans 56 days; a backtest learns from the first 60 days and needs days after them: try a smaller --days\n"
    )
  }

  @Test func utcIsShownAsUTC() {
    let result = Sandbox().run("analyze", "--tz", "UTC", "--json")
    let window = result.json["window"] as? [String: Any]
    #expect(window?["timeZone"] as? String == "UTC")
  }

  @Test(
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to run routine as another user"))
  func aStoreInAReadOnlyDirectoryCanStillBeRead() throws {
    let sandbox = Sandbox()
    let directory = sandbox.directory.appendingPathComponent("readonly")
    let path = directory.appendingPathComponent("routine.db").path
    #expect(sandbox.run("log", "Tea", "--store", path).status == 0)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o555], ofItemAtPath: directory.path)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: sandbox.directory.path)
    defer {
      try? FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: directory.path)
    }
    func asNobody(_ arguments: String...) throws -> Invocation {
      try sandbox.runBinary(
        ["--reuid=nobody", "--regid=nogroup", "--clear-groups", try Sandbox.binary().path]
          + arguments + ["--store", path], executable: "/usr/bin/setpriv")
    }
    let read = try asNobody("events")
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stdout == "2026-04-27T08:00:00+02:00  Tea  (cli)\n")
    let write = try asNobody("log", "Coffee")
    #expect(write.status == 74)
    #expect(write.stderr.contains("it is read-only"))
  }
}
