import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// What is at the store's path, and beside it (issue 17): the hidden name a new store is built
/// under, special files, an empty file.
struct StoreFileTests {
  /// The hidden name a new store at `path` is built under before it is linked into place.
  static func creating(_ path: String) -> String {
    let url = URL(fileURLWithPath: path)
    return url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).creating"
    ).path
  }

  @Test func aHiddenNewStoreLeftByAKilledRunIsRemovedByTheNextRun() throws {
    let sandbox = Sandbox()
    #expect(try sandbox.runBinary("log", "Tea").status == 0)
    // What a run killed between linking the new store into place and removing its hidden name
    // leaves: a second name of the store.
    let hidden = Self.creating(sandbox.storePath)
    #expect(link(sandbox.storePath, hidden) == 0)
    let read = try sandbox.runBinary("events")
    #expect(read.status == 0)
    #expect(read.stdout.contains("Tea"))
    #expect(!FileManager.default.fileExists(atPath: hidden))
    #expect(try sandbox.runBinary("log", "Coffee").status == 0)
    #expect(try sandbox.runBinary("events").stdout.contains("Coffee"))
  }

  @Test func aHiddenNewStoreIsLeftAloneWhileAnotherRunHoldsTheDirectoryLock() throws {
    let sandbox = Sandbox()
    #expect(try sandbox.runBinary("log", "Tea").status == 0)
    let hidden = Self.creating(sandbox.storePath)
    #expect(FileManager.default.createFile(atPath: hidden, contents: Data()))
    // A run creating the store holds this lock until its hidden name is gone.
    let directory = open(
      URL(fileURLWithPath: sandbox.storePath).deletingLastPathComponent().path, O_RDONLY)
    #expect(directory >= 0)
    defer { close(directory) }
    #expect(flock(directory, LOCK_EX) == 0)
    #expect(try sandbox.runBinary("events").status == 0)
    #expect(FileManager.default.fileExists(atPath: hidden))
    flock(directory, LOCK_UN)
    #expect(try sandbox.runBinary("events").status == 0)
    #expect(!FileManager.default.fileExists(atPath: hidden))
  }

  /// The real kill: `strace` delivers SIGKILL as the run removes the hidden name, right after
  /// linking the new store into place.
  @Test func aRunKilledAtTheLastStepOfCreatingTheStoreLeavesNothingForLong() throws {
    guard let strace = ChildProcess.find("strace", path: "/usr/bin:/bin") else {
      print("note: the kill at the last step of creating a store is skipped: strace is missing")
      return
    }
    let sandbox = Sandbox()
    let hidden = Self.creating(sandbox.storePath)
    // The first removal of the hidden name clears a leftover before building; the second
    // comes after the link.
    let killed = try sandbox.runBinary(
      [
        "-f", "-qq", "-o", "/dev/null", "-P", hidden, "-e", "trace=unlink",
        "-e", "inject=unlink:signal=KILL:when=2", try Sandbox.binary().path, "log", "Tea",
      ], executable: strace)
    guard killed.status != 0, FileManager.default.fileExists(atPath: hidden) else {
      print("note: the kill at the last step of creating a store is skipped: strace cannot inject")
      return
    }
    #expect(FileManager.default.fileExists(atPath: sandbox.storePath))
    let read = try sandbox.runBinary("events")
    #expect(read.status == 0)
    #expect(read.stdout.contains("Tea"))
    #expect(!FileManager.default.fileExists(atPath: hidden))
  }
}

extension StoreFileTests {
  @Test(
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem"), "needs Linux's /proc"))
  func aKernelFileThatCallsItselfRegularIsNoStore() throws {
    let sandbox = Sandbox()
    for path in ["/proc/self/mem", "/proc/self/status"] {
      for command in [
        ["status"], ["events"], ["log", "Tea"],
        ["reminders", "add", "--text", "Hi", "--at", "10:00"],
      ] {
        let result = try sandbox.runBinary(command + ["--store", path])
        #expect(result.status == 74, "\(path) \(command)")
        #expect(
          result.stderr
            == "error: the store '\(path)' is not a regular file (it is a file of the kernel's proc file system); give the path of a file, such as '~/.local/share/routine/routine.db'\n",
          "\(path) \(command)")
      }
    }
  }

  @Test func aDeviceIsNamedForWhatItIs() throws {
    let result = try Sandbox().runBinary("log", "Tea", "--store", "/dev/null")
    #expect(result.status == 74)
    #expect(
      result.stderr
        == "error: the store '/dev/null' is not a regular file (it is a character device); give the path of a file, such as '~/.local/share/routine/routine.db'\n"
    )
  }
}

/// Files routine writes for `--output`: the user's own data is private, as the store is.
struct OutputFileModeTests {
  /// Runs `routine ARGUMENTS` under umask 022 (the usual one), in the sandbox.
  func runUnderUmask022(_ sandbox: Sandbox, _ arguments: [String]) throws -> Invocation {
    try sandbox.runBinary(
      ["-c", "umask 022 && exec \"$0\" \"$@\"", try Sandbox.binary().path] + arguments,
      executable: "/bin/sh")
  }

  func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1)
      & 0o777
  }

  @Test func aRemindersExportIsReadableByItsOwnerOnlyLikeTheStore() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "08:00").status == 0)
    let path = sandbox.directory.appendingPathComponent("reminders.json").path
    let result = try runUnderUmask022(sandbox, ["reminders", "export", "--output", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try mode(path) == 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains("Pills"))
    // A file that is there keeps its own mode: the user chose it.
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
    #expect(try runUnderUmask022(sandbox, ["reminders", "export", "--output", path]).status == 0)
    #expect(try mode(path) == 0o640)
  }

  @Test func aSampleLogIsCreatedAsAnyNewFile() throws {
    // Made-up events, nobody's own: the umask decides, as for any file.
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent("sample.csv").path
    let result = try runUnderUmask022(sandbox, ["sample", "--days", "2", "--output", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try mode(path) == 0o644)
  }
}

extension StoreFileTests {
  /// README "Where the data lives": an empty file at the store's path is no store yet, and
  /// becomes one the way a missing store does: with the first command that writes, once it
  /// succeeds, private to its owner.
  @Test func anEmptyFileBecomesTheStoreOnlyWithAWriteThatSucceeds() throws {
    let sandbox = Sandbox()
    let path = sandbox.file("empty.db", "")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    sandbox.variables["ROUTINE_STORE"] = path
    func size() -> Int { FileManager.default.contents(atPath: path)?.count ?? -1 }

    let read = try sandbox.runBinary("events")
    #expect(read.status == 0)
    #expect(read.stdout == "No events: the store '~/empty.db' does not exist yet.\n")
    let bad = sandbox.file("bad.csv", "timestamp,event\nyesterday,Coffee\n")
    #expect(try sandbox.runBinary("import", bad).status == 65)
    #expect(try sandbox.runBinary("reminders", "enable", "reminder-2").status == 65)
    #expect(size() == 0, "a failed command made the empty file a store")

    #expect(try sandbox.runBinary("log", "Tea").status == 0)
    #expect(size() > 0)
    #expect(try sandbox.runBinary("events").stdout.contains("Tea"))
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode.map { $0 & 0o777 } == 0o600)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
      .filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty)
  }
}

extension StoreFileTests {
  /// A store that can only be read is never read without its write-ahead log: an immutable
  /// reading (SQLite's last resort where the log's shared memory cannot be made) would not see
  /// what is in the log, and show a past state as the present one.
  @Test(
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to run routine as another user"))
  func aReadOnlyStoreWhoseLogCannotBeReadIsNotShownWithoutIt() throws {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent("live/routine.db").path
    #expect(sandbox.run("log", "Tea", "--at", "07:00", "--store", path).status == 0)
    // A writer that stopped without checkpointing (killed): Coffee is only in the log. A copy of
    // the store and its log, taken while it is open, is that state.
    let copy = sandbox.directory.appendingPathComponent("copy")
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
    let copied = copy.appendingPathComponent("routine.db").path
    let writer = try EventStore(path: path)
    try withExtendedLifetime(writer) {
      try writer.connection.execute("PRAGMA wal_autocheckpoint = 0")
      #expect(sandbox.run("log", "Coffee", "--at", "07:30", "--store", path).status == 0)
      try FileManager.default.copyItem(atPath: path, toPath: copied)
      try FileManager.default.copyItem(atPath: path + "-wal", toPath: copied + "-wal")
    }
    #expect((FileSystem.size(of: copied + "-wal") ?? 0) > 0)
    for file in [copied, copied + "-wal"] {
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: copy.path)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: sandbox.directory.path)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy.path)
    }
    let read = try sandbox.runBinary(
      [
        "--reuid=nobody", "--regid=nogroup", "--clear-groups", try Sandbox.binary().path,
        "events", "--store", copied,
      ], executable: "/usr/bin/setpriv")
    #expect(
      read.stdout != "2026-04-27T07:00:00+02:00  Tea  (cli)\n", "Coffee, in the log, is missing")
    #expect(read.status == 74, "\(read.stdout)")
    #expect(read.stderr.hasPrefix("error: cannot open the store '\(copied)'"), "\(read.stderr)")
  }
}

/// Two stores of one file in one process (an app using the library, a test): opening the
/// second must not drop the first's locks, which closing any descriptor of the file does.
struct SameProcessStoreTests {
  @Test func openingASecondStoreKeepsTheFirstsLocksSoNoOtherProcessDeletesItsLog() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00")
    #expect(try sandbox.runBinary("log", "Tea").status == 0)
    let first = try EventStore(path: sandbox.storePath)
    try first.insert(
      Event(
        kind: EventKind("Coffee")!, timestamp: Timestamp(iso8601: "2026-05-04T07:05:00+02:00")!,
        source: .cli))
    // A second store of the same file, then the first's file read through another name.
    let second = try EventStore(path: sandbox.storePath)
    #expect(try second.count() == 2)
    // Another process opens and closes the store: had the first lost its shared lock, that
    // process would take the file as no longer in use and checkpoint and delete the log the
    // first still writes to.
    #expect(try sandbox.runBinary("log", "Juice").status == 0)
    #expect(FileManager.default.fileExists(atPath: sandbox.storePath + "-wal"))
    try first.insert(
      Event(
        kind: EventKind("Water")!, timestamp: Timestamp(iso8601: "2026-05-04T07:10:00+02:00")!,
        source: .cli))
    let events = try sandbox.runBinary("events")
    for kind in ["Tea", "Coffee", "Juice", "Water"] {
      #expect(events.stdout.contains(kind), "\(events.stdout)")
    }
    withExtendedLifetime((first, second)) {}
  }
}

/// `--output` never names the store (issue 17): replacing it with an export or a sample would
/// lose every event.
struct OutputOverStoreTests {
  /// Importing the store into itself: reading it outside SQLite would drop the store's locks
  /// while its transaction runs (SameProcessStoreTests), so it is refused before it is opened.
  @Test func importingTheStoreIntoItselfIsRefused() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00")
    #expect(try sandbox.runBinary("log", "Tea").status == 0)
    let refused = try sandbox.runBinary("import", sandbox.storePath)
    #expect(refused.status == 66)
    #expect(refused.stderr.contains("it is the routine store in use"), "\(refused.stderr)")
    let events = try sandbox.runBinary("events")
    #expect(events.stdout.contains("Tea"))
    #expect(events.stdout.split(separator: "\n").count == 1)
  }

  @Test func writingOverTheStoreOrItsLogIsRefusedUnderAnyName() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00")
    #expect(try sandbox.runBinary("log", "Tea").status == 0)
    #expect(try sandbox.runBinary("reminders", "add", "--text", "X", "--at", "09:00").status == 0)
    let link = sandbox.storePath + ".link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.storePath)
    let dotted = FileSystem.parent(of: sandbox.storePath) + "/./routine.db"
    for command in [
      ["reminders", "export", "--output", sandbox.storePath],
      ["reminders", "export", "--output", link],
      ["reminders", "export", "--output", dotted],
      ["sample", "--days", "2", "--output", sandbox.storePath],
    ] {
      let refused = try sandbox.runBinary(command)
      #expect(refused.status == 64, "\(command)")
      #expect(refused.stderr.contains("is the store, or a file SQLite keeps beside it"))
      let events = try sandbox.runBinary("events")
      #expect(events.status == 0)
      #expect(events.stdout.contains("Tea"), "\(command): \(events.stderr)")
    }
    // Another file beside the store is written as before.
    let other = FileSystem.parent(of: sandbox.storePath) + "/definitions.json"
    #expect(try sandbox.runBinary("reminders", "export", "--output", other).status == 0)
    #expect(try String(contentsOfFile: other, encoding: .utf8).contains("\"reminder-1\""))
  }
}
