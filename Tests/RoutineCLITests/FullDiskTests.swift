import Foundation
import Testing

@testable import RoutineCLI

/// A small tmpfs mounted for one test, to be filled to the last byte: a real full disk, which
/// `/dev/full` (a full standard output) is not for the store. Mounting needs root (or
/// CAP_SYS_ADMIN); where it is refused, the test says so and is skipped.
final class SmallFileSystem {
  let path: String
  private var isMounted = false

  /// Mounts a tmpfs of `size` (as `mount -o size=` reads it) at `path`, creating the directory;
  /// `nil` when it cannot be mounted.
  init?(at path: String, size: String = "1m") {
    self.path = path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    guard
      SmallFileSystem.run("mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path])
    else { return nil }
    isMounted = true
  }

  deinit { unmount() }

  /// Writes a file until the file system has no byte left (`ENOSPC`).
  func fill() throws {
    let descriptor = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    // Large writes first, then smaller ones for the last partial page.
    for size in [1 << 16, 4096, 512, 1] {
      let chunk = [UInt8](repeating: 0x2E, count: size)
      while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, size) }) == size {}
    }
    guard errno == ENOSPC else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  }

  /// Removes what ``fill()`` wrote.
  func free() { unlink(path + "/filler") }

  /// Unmounts it (again: harmless).
  func unmount() {
    guard isMounted else { return }
    isMounted = !SmallFileSystem.run("umount", [path])
    if isMounted { isMounted = !SmallFileSystem.run("umount", ["-l", path]) }
  }

  /// Runs a system tool; whether it succeeded.
  private static func run(_ tool: String, _ arguments: [String]) -> Bool {
    guard let executable = ChildProcess.find(tool, path: "/usr/bin:/bin:/usr/sbin:/sbin") else {
      return false
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}

/// Issue 17: a store on a full disk, with no routine process holding it open.
@Suite(.serialized) struct FullDiskTests {
  @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs and fill it"))
  func readsWorkOnAFullDiskAndWritesSayTheDiskIsFullAndWhere() throws {
    let sandbox = Sandbox(now: "2026-04-27T08:00:00+02:00")
    let mountPoint = sandbox.directory.appendingPathComponent("small").path
    guard let disk = SmallFileSystem(at: mountPoint) else {
      print("note: the full-disk test is skipped: a tmpfs cannot be mounted here")
      return
    }
    defer { disk.unmount() }
    let store = mountPoint + "/routine.db"
    sandbox.variables["ROUTINE_STORE"] = store
    #expect(try sandbox.runBinary("log", "Tea", "--at", "07:00").status == 0)
    #expect(
      try sandbox.runBinary("reminders", "add", "--text", "Water", "--at", "10:00").status == 0)
    try disk.fill()

    for command in [["status"], ["doctor"], ["events"], ["agenda"], ["reminders"]] {
      let result = try sandbox.runBinary(command)
      #expect(result.status == 0, "\(command): \(result.stderr)")
    }
    #expect(try sandbox.runBinary("events").stdout == "2026-04-27T07:00:00+02:00  Tea  (cli)\n")
    #expect(try sandbox.runBinary("status").stdout == "10:00 Water · 1 of 1 left today\n")
    let full =
      "the disk is full (no space left on the file system mounted at '\(mountPoint)'); "
      + "free some space there and try again"
    #expect(try sandbox.runBinary("doctor").stdout.contains("warning: \(full)"))

    let logged = try sandbox.runBinary("log", "Coffee")
    #expect(logged.status == 74)
    #expect(logged.stderr == "error: cannot write the store '\(store)': \(full)\n")
    // A new store says so too, under its own name (not the hidden one it is built under).
    let another = mountPoint + "/another.db"
    let created = try sandbox.runBinary("log", "Coffee", "--store", another)
    #expect(created.status == 74)
    #expect(created.stderr == "error: cannot write the store '\(another)': \(full)\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: mountPoint).sorted() == [
        "filler", "routine.db", "routine.db-shm", "routine.db-wal",
      ])

    // Nothing was lost: with space again, the store takes the write.
    disk.free()
    #expect(try sandbox.runBinary("log", "Coffee").status == 0)
    #expect(try sandbox.runBinary("events").stdout.contains("Coffee"))
  }
}
