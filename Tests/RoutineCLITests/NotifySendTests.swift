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

/// `--sink notify-send` against a real notification daemon, and the documented cron line,
/// systemd units and watch service that use it.
@Suite(.serialized, .enabled(if: DesktopHarness.isAvailable, DesktopHarness.skipReason))
struct NotifySendTests {
  /// The real time: delivery from cron, systemd and watch reads the clock, and so do these
  /// tests' in-process runs, explicitly.
  static func now() -> String {
    Timestamp(secondsSince1970: Int64(Date().timeIntervalSince1970), utcOffsetSeconds: 0).iso8601
  }

  /// A sandbox with a reminder due within the grace period of the real clock (so that a
  /// delivery by cron, systemd or watch, which read the real clock, delivers it).
  func sandbox(_ text: String = "Reading", style: String = "notification") -> Sandbox {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00Z", zone: "UTC")
    sandbox.variables.removeValue(forKey: "ROUTINE_NOW")
    let now = Int64(Date().timeIntervalSince1970)
    let due = Timestamp(secondsSince1970: now - now % 60 - 60, utcOffsetSeconds: 0)
    let added = Timestamp(secondsSince1970: now - 600, utcOffsetSeconds: 0).iso8601
    #expect(sandbox.run("settings", "--time-zone", "UTC", "--now", added).status == 0)
    #expect(
      sandbox.run(
        "reminders", "add", "--activity", text, "--at", "\(due.timeOfDay)", "--style", style,
        "--now", added
      ).status == 0)
    return sandbox
  }

  @Test func aDeliveredNotificationShowsItsButtonsAndAPressIsAnswered() throws {
    let desktop = try DesktopHarness()
    let sandbox = sandbox()
    sandbox.variables.merge(desktop.sessionVariables, uniquingKeysWith: { $1 })
    let started = Date()
    let run = try sandbox.runBinary("deliver", "--sink", "notify-send")
    // The notification waits for its answer in a detached process that holds nothing of
    // ours: the caller's pipe closes at once (cron would otherwise wait for the answer).
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains(": Time for Reading"))
    #expect(
      DesktopHarness.eventually {
        (try? desktop.control(["count", "displayed"]))?.trimmingCharacters(
          in: .whitespacesAndNewlines) == "1"
      })
    try desktop.press("done")
    let store = try EventStore(path: sandbox.storePath)
    #expect(
      try DesktopHarness.eventually {
        try store.connection.scalarInt("SELECT count(*) FROM answers WHERE action = 'done'") == 1
      })
    #expect(
      sandbox.run("events", "--event", "Reading", "--now", Self.now()).stdout.contains(
        "(notification)"))
    let shown = try desktop.received()
    #expect(shown.count == 1)
    #expect(shown.first?["summary"] as? String == "Time for Reading")
    #expect(shown.first?["appname"] as? String == "routine")
    #expect(shown.first?["timeout"] as? Int != 0)
  }

  @Test func anAlarmIsCriticalAndStaysUntilAnswered() throws {
    let desktop = try DesktopHarness()
    let sandbox = sandbox("Pills", style: "alarm")
    sandbox.variables.merge(desktop.sessionVariables, uniquingKeysWith: { $1 })
    #expect(try sandbox.runBinary("deliver", "--sink", "notify-send").status == 0)
    #expect(
      DesktopHarness.eventually {
        (try? desktop.control(["count", "displayed"]))?.trimmingCharacters(
          in: .whitespacesAndNewlines) == "1"
      })
    let shown = try desktop.received()
    // dunst keeps a critical notification until it is answered: no timeout.
    #expect(shown.first?["timeout"] as? Int == 0)
  }

  @Test func withoutADaemonEachDueNotificationFailsWithTheReason() throws {
    let desktop = try DesktopHarness(daemon: false)
    let sandbox = sandbox()
    sandbox.variables.merge(desktop.sessionVariables, uniquingKeysWith: { $1 })
    let run = try sandbox.runBinary("deliver", "--sink", "notify-send")
    #expect(run.status == 69)
    #expect(run.stderr.contains("no notification daemon answers"))
    let history = sandbox.run("history", "--json", "--from", "2026-01-01", "--now", Self.now()).json
    let entry = (history["entries"] as? [[String: Any]])?.first
    #expect(entry?["outcome"] as? String == "failed")
  }

  /// docs/delivery.md's and the README's cron line, run as cron runs it: no session variables;
  /// routine finds the bus where systemd puts a logged-in user's.
  @Test func theCronLineDeliversToTheLoggedInSession() throws {
    let busPath = "/run/user/\(getuid())/bus"
    guard !FileManager.default.fileExists(atPath: busPath) else {
      // A real session runs here: leave it alone.
      print("note: the cron line's desktop test is skipped: \(busPath) belongs to a real session")
      return
    }
    guard
      (try? FileManager.default.createDirectory(
        atPath: "/run/user", withIntermediateDirectories: true)) != nil,
      FileManager.default.isWritableFile(atPath: "/run/user")
    else {
      print("note: the cron line's desktop test is skipped: /run/user is not writable here")
      return
    }
    let desktop = try DesktopHarness(busPath: busPath)
    let line = try #require(
      DocumentedWorkflowTests.blocks("cron", in: try DocumentedWorkflowTests.text(of: "README.md"))
        .flatMap { $0 }.first { $0.contains(" deliver ") })
    let command = String(
      line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)[5])
    let home = try DocumentedWorkflowTests.home()
    defer { try? FileManager.default.removeItem(at: home) }
    let sandbox = sandbox()
    // The store where cron's routine looks for it: the default under HOME.
    let store = home.appendingPathComponent(".local/share/routine")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: sandbox.storePath, toPath: store.appendingPathComponent("routine.db").path)
    let cron = [
      "HOME": home.path, "LOGNAME": "routine", "SHELL": "/bin/sh", "PATH": "/usr/bin:/bin",
    ]
    let (status, output) = try DocumentedWorkflowTests.shell(command, environment: cron, in: home)
    let log =
      (try? String(
        contentsOf: home.appendingPathComponent(".local/state/routine.log"), encoding: .utf8)) ?? ""
    #expect(status == 0, "\(log)")
    #expect(output.isEmpty)
    #expect(
      DesktopHarness.eventually {
        (try? desktop.control(["count", "displayed"]))?.trimmingCharacters(
          in: .whitespacesAndNewlines) == "1"
      })
    #expect(try desktop.received().first?["summary"] as? String == "Time for Reading")
  }

  /// docs/delivery.md's systemd units, their ExecStart run as systemd runs a user service (%h
  /// the home, the session's bus in the environment).
  @Test(arguments: ["routine-deliver.service", "routine-watch.service"])
  func theSystemdUnitsDeliverAsWritten(unit: String) throws {
    let page = try DocumentedWorkflowTests.text(of: "docs/delivery.md")
    let blocks = DocumentedWorkflowTests.blocks("ini", in: page)
    // Each unit's block follows the line that names its file.
    let index = try #require(page.range(of: "~/.config/systemd/user/\(unit)"))
    let after = String(page[index.upperBound...])
    let block = try #require(
      blocks.first { block in
        after.contains(block.joined(separator: "\n")) && block.contains("[Service]")
      })
    let execStart = try #require(block.first { $0.hasPrefix("ExecStart=") })
    let desktop = try DesktopHarness()
    let home = try DocumentedWorkflowTests.home()
    defer { try? FileManager.default.removeItem(at: home) }
    let sandbox = sandbox()
    let store = home.appendingPathComponent(".local/share/routine")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: sandbox.storePath, toPath: store.appendingPathComponent("routine.db").path)
    let command = execStart.dropFirst("ExecStart=".count).replacingOccurrences(
      of: "%h", with: home.path)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exec \(command)"]
    process.environment = [
      "HOME": home.path, "USER": "routine", "PATH": "/usr/local/bin:/usr/bin:/bin",
    ].merging(desktop.sessionVariables, uniquingKeysWith: { $1 })
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    #expect(
      DesktopHarness.eventually {
        (try? desktop.control(["count", "displayed"]))?.trimmingCharacters(
          in: .whitespacesAndNewlines) == "1"
      })
    if block.contains("Type=oneshot") {
      process.waitUntilExit()
    } else {
      // The watch keeps running until systemd stops it with SIGTERM.
      #expect(process.isRunning)
      process.terminate()
      process.waitUntilExit()
    }
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect(try desktop.received().first?["summary"] as? String == "Time for Reading")
  }
}
