import Foundation
import Testing

@testable import RoutineCLI

/// Issue 27: every file routine writes that holds the person's data is private from its first
/// byte, whatever the umask, and what a killed run leaves behind is cleared by the next.
@Suite(.serialized) struct PrivateFilesTests {
  /// The commands that create a file of the person's data, each with the file it creates.
  static let writers: [(arguments: [String], file: String)] = [
    (["log", "Tea", "--at", "07:00"], "store/routine.db"),
    (["export", "--format", "csv", "--out", "events.csv"], "events.csv"),
    (["export", "--format", "jsonl", "--out", "events.jsonl"], "events.jsonl"),
    (["export", "--format", "ics", "--out", "routine.ics"], "routine.ics"),
    (["export", "--format", "apple-json", "--out", "requests.json"], "requests.json"),
    (["report", "--out", "report.html"], "report.html"),
    (["report", "--out", "timelines.svg"], "timelines.svg"),
    (["reminders", "export", "--output", "definitions.json"], "definitions.json"),
    (["backup", "backup.db"], "backup.db"),
  ]

  /// Runs `arguments` with the built binary under `umask 000`, through `strace` when `tracing`
  /// names the trace file.
  static func runUnderOpenUmask(
    _ sandbox: Sandbox, _ arguments: [String], tracing trace: String? = nil
  ) throws -> Invocation {
    var command = [try Sandbox.binary().path] + arguments
    if let trace {
      command =
        [
          "strace", "-f", "-qq", "-e", "trace=open,openat,creat,mkdir,mkdirat", "-o", trace,
        ] + command
    }
    return try sandbox.runBinary(
      ["-c", "umask 000; exec \"$@\"", "sh"] + command, executable: "/bin/sh")
  }

  /// Whether `strace` can trace a child here (it is installed, and ptrace is allowed).
  static let canTrace: Bool = {
    guard let strace = ChildProcess.find("strace", path: "/usr/bin:/bin") else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: strace)
    process.arguments = ["-qq", "-e", "trace=none", "/bin/true"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  @Test func everyFileOfYourDataIsCreatedReadableByYouOnlyUnderAnOpenUmask() throws {
    let sandbox = Sandbox(now: "2026-04-27T08:00:00+02:00")
    for (arguments, file) in Self.writers {
      let result = try Self.runUnderOpenUmask(sandbox, arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      let path = sandbox.directory.appendingPathComponent(file).path
      let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
      #expect(mode == 0o600, "\(file): \(String(mode ?? 0, radix: 8))")
    }
    let directory = sandbox.directory.appendingPathComponent("store").path
    let mode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions]
    #expect(mode as? Int == 0o700)
  }

  /// The mode a file is created with, read from the system call itself: a file created 0644
  /// and changed to 0600 once complete was readable by others while it was written (and for
  /// good, when the run was killed before the change).
  @Test func everyFileIsCreatedPrivateFromItsFirstByte() throws {
    guard Self.canTrace else {
      print("note: the creation-mode test is skipped: strace cannot trace a process here")
      return
    }
    let sandbox = Sandbox(now: "2026-04-27T08:00:00+02:00")
    var created: [String: String] = [:]
    for (index, (arguments, _)) in Self.writers.enumerated() {
      let trace = sandbox.directory.appendingPathComponent("trace-\(index)").path
      let result = try Self.runUnderOpenUmask(sandbox, arguments, tracing: trace)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      let text = try String(contentsOfFile: trace, encoding: .utf8)
      for line in text.split(separator: "\n") {
        guard let call = Self.creation(String(line)) else { continue }
        created[call.path] = call.mode
      }
      try? FileManager.default.removeItem(atPath: trace)
    }
    // Relative paths are the sandbox's (the commands run in it).
    let ours = created.filter { !$0.key.hasPrefix("/") || $0.key.hasPrefix(sandbox.directory.path) }
    // The store (under its hidden name), its log and shared memory, each export, the backup's
    // copy and its journal: every one 0600, the store's directory 0700.
    #expect(ours.count >= 14, "\(ours)")
    for (path, mode) in ours {
      let isDirectory = path.hasSuffix("/store")
      #expect(mode == (isDirectory ? "0700" : "0600"), "\(path) was created \(mode)")
    }
    #expect(ours.keys.contains { $0.contains(".backup.db.backup-") })
    #expect(ours.keys.contains { $0.contains(".routine.db.creating") })
    #expect(ours.keys.contains { $0.contains(".events.csv.tmp-") })
  }

  /// The path and mode of a system call in an `strace` line that creates a file or directory.
  static func creation(_ line: String) -> (path: String, mode: String)? {
    let isFile = line.contains("O_CREAT") && (line.contains("open(") || line.contains("openat("))
    let isDirectory = line.contains("mkdir(") || line.contains("mkdirat(")
    guard isFile || isDirectory || line.contains("creat("),
      let open = line.firstIndex(of: "\""),
      let close = line[line.index(after: open)...].firstIndex(of: "\""),
      let modeStart = line.range(of: ", 0", options: .backwards)
    else { return nil }
    let path = String(line[line.index(after: open)..<close])
    let mode = line[line.index(modeStart.lowerBound, offsetBy: 2)...].prefix { $0.isNumber }
    return (path, String(mode))
  }

  /// The id of a process that has ended (and is not yet reused).
  static func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }

  @Test func leftoversOfAKilledExportOrBackupAreClearedByTheNextRun() throws {
    let sandbox = Sandbox(now: "2026-04-27T08:00:00+02:00")
    #expect(sandbox.run("log", "Tea", "--at", "07:00").status == 0)
    let dead = try Self.deadProcessID()
    let alive = getpid()
    func leave(_ name: String) -> String {
      sandbox.file(name, "left by a killed run")
    }
    let staleExport = leave(".t.csv.tmp-\(dead)")
    let staleBackup = ["", "-wal", "-shm", "-journal"].map { leave(".t.bak.backup-\(dead)\($0)") }
    // A run still going (this process) keeps its files; other names are not routine's.
    let liveExport = leave(".t.csv.tmp-\(alive)")
    let liveBackup = leave(".t.bak.backup-\(alive)-wal")
    let others = [
      leave(".t.csv.tmp-12x"), leave(".other.csv.tmp-\(dead)"), leave("t.csv.tmp-\(dead)"),
    ]

    let exported = try sandbox.runBinary("export", "--out", "t.csv")
    #expect(exported.status == 0, "\(exported.stderr)")
    #expect(!FileManager.default.fileExists(atPath: staleExport))
    #expect(FileManager.default.fileExists(atPath: liveExport))
    let backedUp = try sandbox.runBinary("backup", "t.bak")
    #expect(backedUp.status == 0, "\(backedUp.stderr)")
    for path in staleBackup { #expect(!FileManager.default.fileExists(atPath: path), "\(path)") }
    #expect(FileManager.default.fileExists(atPath: liveBackup))
    for path in others { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }
  }

  @Test func aBackupIntoAMissingDirectoryNamesTheTarget() throws {
    let sandbox = Sandbox(now: "2026-04-27T08:00:00+02:00")
    #expect(sandbox.run("log", "Tea", "--at", "07:00").status == 0)
    let target = sandbox.directory.appendingPathComponent("gone/b.db").path
    let result = sandbox.run("backup", target)
    #expect(result.status == 74)
    #expect(
      result.stderr
        == "error: cannot write '\(target)': its directory '\(sandbox.directory.path)/gone' does not exist\n"
    )
  }

  @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs and fill it"))
  func aBackupToAFullDiskNamesTheTargetsDiskAndLeavesNothing() throws {
    let sandbox = Sandbox(now: "2026-04-27T08:00:00+02:00")
    for hour in 0..<24 {
      #expect(sandbox.run("log", "Tea", "--at", String(format: "%02d:00", hour)).status == 0)
    }
    let mountPoint = sandbox.directory.appendingPathComponent("small").path
    guard let disk = SmallFileSystem(at: mountPoint, size: "64k") else {
      print("note: the full-disk backup test is skipped: a tmpfs cannot be mounted here")
      return
    }
    defer { disk.unmount() }
    try disk.fill()
    let target = mountPoint + "/b.db"
    let result = try sandbox.runBinary("backup", target)
    #expect(result.status == 74)
    #expect(
      result.stderr
        == "error: cannot write '\(target)': the disk is full (no space left on the file system mounted at '\(mountPoint)'); free some space there and try again\n"
    )
    #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint) == ["filler"])
  }
}
