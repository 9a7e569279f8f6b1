import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// A private desktop for tests: a D-Bus session bus, a virtual X server and the dunst
/// notification daemon, whose action menu is answered by a script that picks the action the
/// test chose: a real button press, travelling back through D-Bus
/// (../shared/docs/desktop-notifications.md). Nothing touches the user's own session.
final class DesktopHarness: @unchecked Sendable {
  static let tools = ["dbus-daemon", "Xvfb", "dunst", "dunstctl", "notify-send"]

  /// The tools are installed (`.ci/run` installs them where apt is available).
  static var isAvailable: Bool {
    tools.allSatisfy { ChildProcess.find($0, path: "/usr/local/bin:/usr/bin:/bin") != nil }
  }

  static let skipReason: Comment =
    "needs dunst, libnotify-bin, xvfb and dbus-x11 (.ci/run installs them where apt is available)"

  let directory: URL
  let busPath: String
  let display: String
  private var processes: [Process] = []
  private var createdRuntimeDirectory: String?

  var busAddress: String { "unix:path=\(busPath)" }

  /// The environment a program in this desktop session has.
  var sessionVariables: [String: String] {
    ["DBUS_SESSION_BUS_ADDRESS": busAddress, "DISPLAY": display]
  }

  /// Starts the bus at `busPath` (a private one by default), and the daemon unless told not to.
  init(busPath: String? = nil, daemon: Bool = true) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-desktop-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.busPath = busPath ?? directory.appendingPathComponent("bus").path
    let runtime = URL(fileURLWithPath: self.busPath).deletingLastPathComponent().path
    if !FileManager.default.fileExists(atPath: runtime) {
      try FileManager.default.createDirectory(
        atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      createdRuntimeDirectory = runtime
    }
    // A bus without service activation: a missing daemon stays missing.
    let config = directory.appendingPathComponent("bus.conf")
    try """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:path=\(self.busPath)</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """.write(to: config, atomically: true, encoding: .utf8)
    // A display nobody holds (a lock file left by a crashed server counts as held).
    display =
      (0..<50).lazy.map { _ in ":\(Int.random(in: 40...190))" }.first {
        !FileManager.default.fileExists(atPath: "/tmp/.X\($0.dropFirst())-lock")
      } ?? ":\(Int.random(in: 191...250))"
    try launch("dbus-daemon", ["--config-file=\(config.path)", "--nofork"])
    try waitFor { FileManager.default.fileExists(atPath: self.busPath) }
    guard daemon else { return }
    try launch("Xvfb", [display, "-nolisten", "tcp"])
    try waitFor {
      FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(self.display.dropFirst())")
    }
    let pick = directory.appendingPathComponent("pick.sh")
    try """
    #!/bin/sh
    cat > '\(directory.path)/offered.txt'
    grep -F ",$(cat '\(directory.path)/choice')]" '\(directory.path)/offered.txt' | head -1
    """.write(to: pick, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: pick.path)
    let dunstrc = directory.appendingPathComponent("dunstrc")
    try "[global]\n    dmenu = \(pick.path)\n".write(to: dunstrc, atomically: true, encoding: .utf8)
    try launch(
      "dunst", ["-config", dunstrc.path], log: directory.appendingPathComponent("dunst.log"))
    try waitFor { (try? self.control(["count"]))?.contains("displayed") == true }
  }

  deinit {
    // SIGKILL: dunst may ignore SIGTERM once its action menu has run, and these are
    // throwaway; Xvfb's lock file and socket, left behind by that, are removed below.
    for process in processes.reversed() where process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let number = display.dropFirst()
    try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
    try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    try? FileManager.default.removeItem(atPath: busPath)
    if let created = createdRuntimeDirectory {
      try? FileManager.default.removeItem(atPath: created)
    }
    try? FileManager.default.removeItem(at: directory)
  }

  private func launch(_ tool: String, _ arguments: [String], log: URL? = nil) throws {
    let process = Process()
    process.executableURL = URL(
      fileURLWithPath: ChildProcess.find(tool, path: "/usr/local/bin:/usr/bin:/bin") ?? tool)
    process.arguments = arguments
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path].merging(
      sessionVariables, uniquingKeysWith: { $1 })
    if let log {
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
      let handle = try FileHandle(forWritingTo: log)
      process.standardOutput = handle
      process.standardError = handle
    } else {
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
    }
    try process.run()
    processes.append(process)
  }

  private func waitFor(_ seconds: Double = 10, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
      guard Date() < deadline else { throw CocoaError(.executableLoad) }
      usleep(50_000)
    }
  }

  /// Runs `dunstctl` with `arguments`; its output.
  @discardableResult
  func control(_ arguments: [String]) throws -> String {
    try ChildProcess.run(
      ChildProcess.find("dunstctl", path: "/usr/bin:/bin") ?? "dunstctl", arguments,
      environment: ["PATH": "/usr/bin:/bin"].merging(sessionVariables, uniquingKeysWith: { $1 }),
      input: Data(), timeout: 10
    ).output
  }

  /// The notifications the daemon has received (displayed ones are closed into its history
  /// first): summary, body, app name, timeout (0 for critical urgency).
  func received() throws -> [[String: Any]] {
    try control(["close-all"])
    let text = try control(["history"])
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    let entries = (object?["data"] as? [[[String: Any]]])?.first ?? []
    return entries.map { entry in
      entry.mapValues { ($0 as? [String: Any])?["data"] ?? $0 }
    }
  }

  /// Presses the button with action id `action` on the notification on screen, through the
  /// daemon's action menu.
  func press(_ action: String) throws {
    try action.write(
      to: directory.appendingPathComponent("choice"), atomically: true, encoding: .utf8)
    try control(["context"])
  }

  /// Waits until `condition` holds, for a result that comes from another process.
  static func eventually(_ seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try condition() { return true }
      usleep(100_000)
    }
    return try condition()
  }
}
