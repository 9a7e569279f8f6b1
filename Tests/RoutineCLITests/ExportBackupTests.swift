import Foundation
import Testing

/// `routine export --format csv|jsonl` reads back to the same store, and `routine backup` copies
/// the whole store while others write.
struct ExportBackupTests {
  /// A store with awkward events: several offsets, both sides of a daylight-saving change, notes
  /// with every character CSV and JSON must carry, values that test the number round trip, and
  /// each source.
  static func varied() -> Sandbox {
    let sandbox = Sandbox()
    let lines = [
      #"{"timestamp": "2026-03-29T01:59:59+01:00", "event": "Before Change", "value": 0, "source": "cli"}"#,
      #"{"timestamp": "2026-03-29T03:00:00+02:00", "event": "After Change", "value": 1e15, "source": "notification"}"#,
      #"{"timestamp": "2026-10-25T02:30:00+02:00", "event": "Repeat First", "value": 0.1}"#,
      #"{"timestamp": "2026-10-25T02:30:00+01:00", "event": "Repeat Second", "value": -2.5e-300}"#,
      #"{"timestamp": "2026-04-27T07:05:00-03:30", "event": "Café ☕", "value": 123456789.123456789, "note": "comma, \"quote\"\nline\r\nbreak\ttab"}"#,
      #"{"timestamp": "2026-04-27T07:05:30+05:45", "event": "Kathmandu", "value": 1.7976931348623157e308, "note": "=HYPERLINK(\"x\")"}"#,
      #"{"timestamp": "2026-04-27T07:05:00+14:00", "event": "Kiribati", "note": "+1 -2 @x"}"#,
      #"{"timestamp": "1969-12-31T23:59:59Z", "event": "Before Epoch", "note": " leading and trailing spaces "}"#,
      #"{"timestamp": "2026-04-27T07:05:00+00:00", "event": "Same Instant", "note": "\u202e bidi \u001b[31m"}"#,
      #"{"timestamp": "2026-04-27T08:05:00+01:00", "event": "Same Instant", "note": "one instant, other offset", "value": 5e-324}"#,
    ]
    let file = sandbox.file("varied.jsonl", lines.joined(separator: "\n") + "\n")
    let result = sandbox.run("import", file)
    precondition(result.status == 0, result.stderr)
    return sandbox
  }

  @Test(arguments: ["csv", "jsonl"])
  func anExportImportsBackToAnIdenticalStore(format: String) throws {
    let source = Self.varied()
    let exported = source.run("export", "--format", format)
    #expect(exported.status == 0, "\(exported.stderr)")
    let target = Sandbox()
    let file = target.file("export.\(format)", exported.stdout)
    let imported = target.run("import", file)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.contains("10 events read, 10 added"))
    // The same rows; events of one instant may be listed in another order (export writes them
    // in the order of the store's index, not the order they were added).
    #expect(Self.rows(target) == Self.rows(source))
    #expect(Self.rows(target).count == 10)
    // Into the same store, nothing is added.
    let again = source.run("import", source.file("again.\(format)", exported.stdout))
    #expect(again.stdout.contains("10 events read, 0 added, 10 already present"), "\(again.stdout)")
    // And what the second store exports is byte for byte the first export.
    #expect(target.run("export", "--format", format).stdout == exported.stdout)
  }

  /// The store's events as sorted JSON texts, each with every key.
  static func rows(_ sandbox: Sandbox) -> [String] {
    let list = sandbox.run("events", "--json").json["events"] as? [[String: Any]] ?? []
    return list.map { event in
      let data = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])
      return String(decoding: data ?? Data(), as: UTF8.self)
    }.sorted()
  }

  @Test func theCSVExportKeepsOffsetsSecondsAndWritesTheShortestNumbers() {
    let text = Self.varied().run("export", "--format", "csv").stdout
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "timestamp,event,value,note,source")
    #expect(
      text.contains("\n2026-03-29T03:00:00+02:00,After Change,1000000000000000,,notification\n"))
    #expect(text.contains("\n2026-10-25T02:30:00+02:00,Repeat First,0.1,,import\n"))
    #expect(text.contains("\n2026-03-29T01:59:59+01:00,Before Change,0,,cli\n"))
    #expect(text.contains("\n2026-04-27T07:05:30+05:45,Kathmandu,1.7976931348623157e+308,"))
    #expect(text.contains(",\"=HYPERLINK(\"\"x\"\")\",import\n"))
    #expect(text.contains(",\" leading and trailing spaces \",import\n"))
    #expect(text.contains("\n1969-12-31T23:59:59+00:00,Before Epoch,"))
  }

  @Test func exportSelectsByTimeAndKindAndWritesAPrivateFileAtomically() throws {
    let sandbox = Self.varied()
    let path = sandbox.directory.appendingPathComponent("out.jsonl").path
    let result = sandbox.run(
      "export", "--from", "2026-04-27", "--to", "2026-04-28", "--event", "same instant", "--out",
      path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("Wrote 2 events to"))
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.split(separator: "\n").count == 2)
    #expect(text.contains(#"{"timestamp": "2026-04-27T07:05:00+00:00", "event": "Same Instant""#))
    #expect(text.contains(#"{"timestamp": "2026-04-27T08:05:00+01:00", "event": "Same Instant""#))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // A failed export (a bad option after the file exists) leaves the old file as it was.
    #expect(sandbox.run("export", "--from", "nonsense", "--out", path).status == 64)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
  }

  @Test(arguments: ["", "-wal", "-shm"])
  func exportAndBackupRefuseToWriteOverTheStore(suffix: String) {
    let sandbox = Self.varied()
    // Keep the log and index files in place as a running process would.
    if !suffix.isEmpty {
      _ = FileManager.default.createFile(atPath: sandbox.storePath + suffix, contents: nil)
    }
    let export = sandbox.run("export", "--out", sandbox.storePath + suffix)
    #expect(export.status == 64)
    #expect(export.stderr.contains("--out: '"), "\(export.stderr)")
    let backup = sandbox.run("backup", sandbox.storePath + suffix, "--force")
    #expect(backup.status == 64)
    #expect(backup.stderr.contains("is the store, or a file SQLite keeps beside it"))
    #expect(sandbox.run("events").stdout.contains("Before Change"))
  }

  /// SQLite deletes the store's -wal, -shm or -journal when it closes: a file written under
  /// one of those names while none exists would vanish after routine said it wrote it.
  @Test(arguments: ["-wal", "-shm", "-journal"])
  func aNameSQLiteUsesBesideTheStoreIsRefusedEvenBeforeItExists(suffix: String) throws {
    let sandbox = Self.varied()
    let path = sandbox.storePath + suffix
    #expect(!FileManager.default.fileExists(atPath: path))
    // Through another spelling of the same directory, too.
    let store = URL(fileURLWithPath: sandbox.storePath)
    let spelled =
      store.deletingLastPathComponent().path + "/../store/" + store.lastPathComponent + suffix
    for target in [path, spelled] {
      for format in ["csv", "ics", "apple-json"] {
        let export = sandbox.run("export", "--format", format, "--out", target)
        #expect(export.status == 64, "\(format) \(target): \(export.stderr)")
      }
      let backup = sandbox.run("backup", target, "--force")
      #expect(backup.status == 64, "\(backup.stderr)")
      #expect(backup.stderr.contains("is the store, or a file SQLite keeps beside it"))
    }
    // A name that only looks alike elsewhere is fine.
    let elsewhere = sandbox.directory.appendingPathComponent(store.lastPathComponent + suffix).path
    #expect(sandbox.run("export", "--out", elsewhere).status == 0)
    #expect(FileManager.default.fileExists(atPath: elsewhere))
  }

  @Test func aBackupHoldsTheWholeStoreAndRestoresByUsingItAsTheStore() throws {
    let sandbox = Self.varied()
    _ = sandbox.run("reminders", "add", "--text", "Call", "--at", "2026-04-29 11:00")
    _ = sandbox.run("settings", "--threshold", "0.8")
    _ = sandbox.run("plan")
    _ = sandbox.run("deliver", "--now", "2026-04-29T11:00:30+02:00", "--sink", "stdout")
    let backup = sandbox.directory.appendingPathComponent("backups/copy.db").path
    try FileManager.default.createDirectory(
      atPath: sandbox.directory.appendingPathComponent("backups").path,
      withIntermediateDirectories: true)
    let result = sandbox.run("backup", backup)
    #expect(result.status == 0, "\(result.stderr)")
    let mode = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: sandbox.directory.appendingPathComponent("backups").path)
    #expect(leftovers == ["copy.db"])
    for command in [["events", "--json"], ["reminders", "--json"], ["history", "--json"]] {
      let original = sandbox.run(command)
      let restored = sandbox.run(command + ["--store", backup])
      #expect(restored.status == 0)
      #expect(restored.stdout == original.stdout, "\(command)")
    }
    let settings = sandbox.run("settings", "--json").json
    let restored = sandbox.run("settings", "--json", "--store", backup).json
    #expect(restored["threshold"] as? Double == 0.8)
    #expect(restored["timeZone"] as? String == settings["timeZone"] as? String)
    // An existing file is kept unless --force.
    let again = sandbox.run("backup", backup)
    #expect(again.status == 74)
    #expect(again.stderr.contains("it exists already (give --force to replace it)"))
    #expect(sandbox.run("backup", backup, "--force").status == 0)
  }

  @Test func backupWithoutAStoreOrIntoAMissingDirectoryFails() {
    let sandbox = Sandbox()
    let none = sandbox.run("backup", sandbox.directory.appendingPathComponent("b.db").path)
    #expect(none.status == 66)
    #expect(none.stderr.contains("there is no store at"))
    let stored = Self.varied()
    let missing = stored.run("backup", stored.directory.appendingPathComponent("no/b.db").path)
    #expect(missing.status == 74, "\(missing.stderr)")
    #expect(stored.run("backup", "-").status == 64)
  }

  @Test func aBackupTakenWhileAnotherProcessLogsCompletesAndIsConsistent() throws {
    let sandbox = Self.varied()
    let stop = sandbox.directory.appendingPathComponent("stop").path
    // Another process logging an event every few milliseconds until told to stop.
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/bin/sh")
    writer.arguments = [
      "-c",
      "i=0; while [ ! -e \(stop) ]; do i=$((i+1)); \(try Sandbox.binary().path) log Busy --value $i --now 2026-04-27T09:00:00Z >/dev/null 2>&1; done",
    ]
    writer.environment = sandbox.variables
    try writer.run()
    defer {
      _ = FileManager.default.createFile(atPath: stop, contents: nil)
      writer.waitUntilExit()
    }
    Thread.sleep(forTimeInterval: 0.3)
    var copies: [String] = []
    for index in 0..<3 {
      let path = sandbox.directory.appendingPathComponent("b\(index).db").path
      let result = try sandbox.runBinary("backup", path)
      #expect(result.status == 0, "\(result.stderr)")
      copies.append(path)
    }
    _ = FileManager.default.createFile(atPath: stop, contents: nil)
    writer.waitUntilExit()
    var counts: [Int] = []
    for path in copies {
      let events = sandbox.run("events", "--json", "--store", path)
      #expect(events.status == 0)
      let list = events.json["events"] as? [[String: Any]] ?? []
      let values = list.filter { $0["event"] as? String == "Busy" }.compactMap {
        $0["value"] as? Double
      }
      // A snapshot: the logged values are 1...n without a gap.
      #expect(values.sorted() == (0..<values.count).map { Double($0 + 1) })
      counts.append(values.count)
      #expect(sandbox.run("doctor", "--store", path).stdout.contains("damaged") == false)
    }
    #expect(counts == counts.sorted())
  }
}
