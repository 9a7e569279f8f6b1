import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// Rules every command keeps, checked on every command of the command table (issue 17, section
/// 6): a mistyped `--tz` is a usage error; with a zone in the settings, `$TZ` changes nothing;
/// `--json` prints JSON or is refused. A command added to the table without an example here
/// fails ``everyCommandHasAnExample()``.
struct EveryCommandTests {
  /// The moment of every example: the morning after the sample's last day, in Kolkata.
  static let now = "2026-04-28T10:00:00+05:30"

  /// A store with the sample imported and planned, the settings' zone Asia/Kolkata, a reminder
  /// delivered at 09:00, a habit with a window, and a task with a reminder: something for every
  /// command to work on. Built once; each test copies it.
  static let prepared: Sandbox = {
    let sandbox = Sandbox(now: now, zone: "UTC")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    for arguments in [
      ["settings", "--time-zone", "Asia/Kolkata"], ["import", sample], ["plan"],
      [
        "reminders", "add", "--text", "Pills", "--at", "09:00", "--now",
        "2026-04-28T08:00:00+05:30",
      ],
      ["habits", "add", "Stretch", "--window", "19:00-20:00"],
      ["reminders", "add", "--habit", "Stretch"],
      ["tasks", "add", "Tax", "--due", "2026-04-29 12:00"],
      ["reminders", "add", "--task", "Tax", "--before", "1h"],
      ["deliver", "--now", "2026-04-28T09:00:30+05:30"],
    ] {
      let result = sandbox.run(arguments)
      precondition(result.status == 0, "\(arguments): \(result.stderr)")
    }
    _ = sandbox.file("more.csv", "timestamp,event\n2026-04-28T09:40:00+05:30,Tea\n")
    _ = sandbox.file("definitions.json", #"{"format": "routine-definitions", "version": 1}"#)
    return sandbox
  }()

  /// A copy of the prepared store in a sandbox of its own.
  func sandbox(tz: String? = "UTC") throws -> Sandbox {
    let sandbox = Sandbox(now: Self.now, zone: tz ?? "UTC")
    if tz == nil { sandbox.variables["TZ"] = nil }
    let from = Self.prepared.directory
    for name in ["store", "more.csv", "definitions.json"] {
      try FileManager.default.copyItem(
        at: from.appendingPathComponent(name), to: sandbox.directory.appendingPathComponent(name))
    }
    return sandbox
  }

  /// A working invocation of every command, by name (files relative to the sandbox).
  static func examples(in sandbox: Sandbox) -> [String: [String]] {
    let file = { (name: String) in sandbox.directory.appendingPathComponent(name).path }
    return [
      "log": ["log", "Coffee", "--at", "09:45"],
      "undo": ["undo", "--yes"],
      "import": ["import", file("more.csv")],
      "export": ["export", "--format", "csv"],
      "backup": ["backup", file("backup.db")],
      "events": ["events", "--from", "yesterday"],
      "events delete": ["events", "delete", "--last", "1", "--yes"],
      "kinds": ["kinds"],
      "kinds rename": ["kinds", "rename", "Coffee", "Kaffee", "--yes"],
      "analyze": ["analyze"],
      "backtest": ["backtest", "--days", "7"],
      "plan": ["plan"],
      "pending": ["pending"],
      "agenda": ["agenda", "--to", "tomorrow"],
      "reminders": ["reminders"],
      "reminders list": ["reminders", "list"],
      "reminders add": ["reminders", "add", "--text", "Call", "--at", "2026-04-29 11:00"],
      "reminders show": ["reminders", "show", "reminder-1"],
      "reminders edit": ["reminders", "edit", "reminder-1", "--at", "09:30"],
      "reminders remove": ["reminders", "remove", "reminder-1", "--yes"],
      "reminders enable": ["reminders", "enable", "reminder-1"],
      "reminders disable": ["reminders", "disable", "reminder-1"],
      "reminders restore": ["reminders", "restore", "reminder-1"],
      "reminders resume": ["reminders", "resume", "reminder-1"],
      "reminders adapt": ["reminders", "adapt", "reminder-1", "on"],
      "reminders export": ["reminders", "export"],
      "reminders import": ["reminders", "import", file("definitions.json")],
      "habits": ["habits"],
      "habits list": ["habits", "list"],
      "habits add": ["habits", "add", "Read", "--window", "21:00-22:00"],
      "habits edit": ["habits", "edit", "Stretch", "--window", "19:30-20:00"],
      "habits remove": ["habits", "remove", "Stretch", "--yes"],
      "tasks": ["tasks"],
      "tasks list": ["tasks", "list"],
      "tasks add": ["tasks", "add", "Visa", "--due", "2026-05-02 09:00"],
      "tasks edit": ["tasks", "edit", "Tax", "--due", "2026-04-30 12:00"],
      "tasks done": ["tasks", "done", "Tax"],
      "tasks remove": ["tasks", "remove", "Tax", "--yes"],
      "deliver": ["deliver", "--now", "2026-04-29T11:00:30+05:30"],
      "watch": ["watch"],
      "respond": ["respond", "reminder-1", "done"],
      "await-answer": [
        "await-answer", "reminder-1", "--occurrence", "2026-04-28T09:00:00+05:30", "--",
        "/bin/echo",
        "dismiss",
      ],
      "history": ["history", "--from", "yesterday"],
      "why": ["why", "reminder-1"],
      "status": ["status"],
      "report": ["report", "--out", file("report.html")],
      "doctor": ["doctor"],
      "clear": ["clear", "--delivered"],
      "settings": ["settings"],
      "sample": ["sample", "--days", "2"],
      "help": ["help"],
      "completions": ["completions", "bash"],
      "__complete": ["__complete", "kinds"],
    ]
  }

  static let allCommands = RoutineCLI.parser.commands.flatMap(\.allCommands)

  /// `example` with `extra` options, before a `--` that ends them.
  static func adding(_ extra: [String], to example: [String]) -> [String] {
    guard let end = example.firstIndex(of: "--") else { return example + extra }
    return Array(example[..<end]) + extra + Array(example[end...])
  }

  /// Runs `arguments` in `sandbox`: in this process, but `await-answer` as the built binary,
  /// since it answers at the real clock (a button is pressed now, whatever `--now` delivery
  /// ran with), which in-process runs must not read.
  func run(_ arguments: [String], in sandbox: Sandbox) throws -> Invocation {
    arguments.first == "await-answer" ? try sandbox.runBinary(arguments) : sandbox.run(arguments)
  }

  @Test func everyCommandHasAnExample() throws {
    let examples = Self.examples(in: try sandbox())
    let names = Set(Self.allCommands.map(\.name))
    #expect(names.subtracting(examples.keys).sorted() == [], "commands without an example")
    #expect(Set(examples.keys).subtracting(names).sorted() == [], "examples of no command")
  }

  @Test func everyExampleWorks() throws {
    for spec in Self.allCommands where spec.name != "watch" {
      let sandbox = try sandbox()
      let arguments = Self.examples(in: sandbox)[spec.name]!
      let result = try run(arguments, in: sandbox)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
  }

  @Test func aMistypedTZOptionIsAnErrorForEveryCommand() throws {
    for spec in Self.allCommands {
      let sandbox = try sandbox()
      let arguments = Self.adding(
        ["--tz", "Mars/Olympus"], to: Self.examples(in: sandbox)[spec.name]!)
      let result = try run(arguments, in: sandbox)
      #expect(result.status == 64, "\(arguments)")
      #expect(
        result.stderr.hasPrefix("error: --tz: unknown time zone 'Mars/Olympus'"),
        "\(arguments): \(result.stderr)")
    }
  }

  /// Run in two copies of the store under two different `$TZ`, and without: the settings' zone
  /// decides, so every output is the same. `watch` runs until stopped; its zone is WatchTests'.
  @Test func theZoneInTheSettingsIsUsedByEveryCommandWithoutTZ() throws {
    for spec in Self.allCommands where spec.name != "watch" {
      var outputs: [String] = []
      for tz in ["America/New_York", "Europe/Berlin", nil] {
        let sandbox = try sandbox(tz: tz)
        let result = try run(Self.examples(in: sandbox)[spec.name]!, in: sandbox)
        outputs.append(
          "\(result.status)\n\(result.stdout)\n\(result.stderr)".replacingOccurrences(
            of: sandbox.directory.path, with: "SANDBOX"))
      }
      #expect(Set(outputs).count == 1, "\(spec.name): \(outputs)")
    }
  }

  /// `--json` prints JSON (an object, or one per line for a stream) for every command that
  /// takes it, and is refused by the others, saying what they print instead.
  @Test func jsonIsPrintedOrRefusedByEveryCommand() throws {
    for spec in Self.allCommands where spec.name != "help" {
      // watch runs until stopped: it is only tried here because --json is refused first.
      if spec.name == "watch", spec.globals.contains(where: { $0.name == "json" }) { continue }
      let sandbox = try sandbox()
      let arguments = Self.adding(["--json"], to: Self.examples(in: sandbox)[spec.name]!)
      let result = try run(arguments, in: sandbox)
      guard spec.globals.contains(where: { $0.name == "json" }) else {
        #expect(result.status == 64, "\(arguments)")
        #expect(result.stderr.hasPrefix("error: --json does not apply to '\(spec.name)'"))
        continue
      }
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      let text = result.stdout
      let whole = try? JSONSerialization.jsonObject(with: Data(text.utf8))
      let lines = text.split(separator: "\n").map {
        try? JSONSerialization.jsonObject(with: Data($0.utf8))
      }
      #expect(
        whole != nil || (!lines.isEmpty && lines.allSatisfy { $0 != nil }),
        "\(arguments) printed no JSON: \(text)")
    }
  }
}
