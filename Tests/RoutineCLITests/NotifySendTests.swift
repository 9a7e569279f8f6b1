import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

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
