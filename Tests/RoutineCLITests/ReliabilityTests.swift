import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// Many processes on one store, and processes killed mid-way, through the built binary:
/// nothing lost, nothing doubled, no "database is locked" reaching anyone.
@Suite(.serialized)
struct ReliabilityTests {
  /// Starts the binary with `arguments` in the sandbox's environment, output discarded or
  /// collected; returns the process (already running).
  static func start(_ sandbox: Sandbox, _ arguments: [String], output: Pipe? = nil) throws
    -> (Process, Pipe)
  {
    let process = Process()
    process.executableURL = try Sandbox.binary()
    process.arguments = arguments
    process.environment = sandbox.variables
    process.currentDirectoryURL = sandbox.directory
    let errors = Pipe()
    process.standardOutput = output ?? FileHandle.nullDevice
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return (process, errors)
  }

  static func finish(_ process: Process, _ errors: Pipe) -> (Int32, String) {
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  static func scalar(_ store: EventStore, _ sql: String) throws -> Int64 {
    try store.connection.scalarInt(sql) ?? -1
  }

  /// The store with the sample's routines planned and a reminder delivered at 09:00 Monday.
  func prepared() throws -> Sandbox {
    let sandbox = Sandbox(now: "2026-04-27T04:00:00+02:00", zone: "Europe/Berlin")
    let sample = DocumentedWorkflowTests.repository.appendingPathComponent("data/sample.csv").path
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    #expect(sandbox.run("import", sample).status == 0)
    #expect(sandbox.run("plan").status == 0)
    #expect(sandbox.run("reminders", "add", "--activity", "Reading", "--at", "09:00").status == 0)
    #expect(sandbox.run("deliver", "--now", "2026-04-27T09:00:05+02:00").status == 0)
    return sandbox
  }

  @Test func fiftyAnswersAndLogsAtOnceBesideDeliveryAndPlanningAreEachStoredOnce() throws {
    let sandbox = try prepared()
    sandbox.variables["ROUTINE_NOW"] = "2026-04-27T09:10:00+02:00"
    let store = try EventStore(path: sandbox.storePath)
    let eventsBefore = try Self.scalar(store, "SELECT count(*) FROM events")
    var processes: [(Process, Pipe)] = []
    // The background: delivery and planning, over and over, while the answers come in.
    for round in 0..<4 {
      processes.append(
        try Self.start(sandbox, ["deliver", "--now", "2026-04-27T09:1\(round):00+02:00"]))
      processes.append(try Self.start(sandbox, ["plan"]))
    }
    for index in 0..<50 {
      if index % 2 == 0 {
        // 25 answers to the same firing, each with its own idea of when: stored once.
        let now = String(format: "2026-04-27T09:10:%02d+02:00", index)
        processes.append(
          try Self.start(sandbox, ["respond", "reminder-1-weekday-2", "done", "--now", now]))
      } else {
        processes.append(
          try Self.start(
            sandbox, ["log", "Tea", "--at", String(format: "2026-04-27T08:%02d:00+02:00", index)]))
      }
    }
    var failures: [String] = []
    for (process, errors) in processes {
      let (status, text) = Self.finish(process, errors)
      if status != 0 || text.lowercased().contains("locked") {
        failures.append("\(process.arguments ?? []): \(status) \(text)")
      }
    }
    #expect(failures.isEmpty, "\(failures)")
    #expect(try Self.scalar(store, "SELECT count(*) FROM answers") == 1)
    #expect(
      try Self.scalar(store, "SELECT count(*) FROM events") == eventsBefore + 25 + 1)
    #expect(
      try Self.scalar(
        store,
        "SELECT count(*) FROM events e JOIN kinds k ON k.id = e.kind_id WHERE k.key = 'reading'")
        == 1)
    #expect(try store.problems().isEmpty)
  }

  @Test func aStoreHeldTooLongExits75AfterABoundedWait() throws {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00", zone: "Europe/Berlin")
    #expect(sandbox.run("log", "Tea").status == 0)
    let holder = try EventStore(path: sandbox.storePath)
    try holder.connection.execute("BEGIN IMMEDIATE")
    defer { try? holder.connection.execute("ROLLBACK") }
    let started = Date()
    let (process, errors) = try Self.start(sandbox, ["respond", "nothing", "onit"])
    let (status, text) = Self.finish(process, errors)
    let waited = Date().timeIntervalSince(started)
    #expect(status == 75)
    #expect(text.contains("is busy"))
    #expect(!text.contains("database is locked"))
    #expect(waited >= 4 && waited < 15)
  }

  /// Kills `arguments` at growing delays, again and again; returns how many runs were killed.
  func killRepeatedly(_ sandbox: Sandbox, _ arguments: (Int) -> [String], runs: Int) throws -> Int {
    var killed = 0
    for run in 0..<runs {
      let (process, errors) = try Self.start(sandbox, arguments(run))
      usleep(UInt32(2_000 + (run % 10) * 3_000))
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        killed += 1
      }
      _ = Self.finish(process, errors)
    }
    return killed
  }

  @Test func aRespondKilledMidWayLeavesItsAnswerWholeOrAbsent() throws {
    let sandbox = try prepared()
    // Many firings to answer: an alarm every minute of the morning would do; the learned ones
    // and the reminder's firing are enough when each kill hits a different one.
    for minute in 0..<30 {
      #expect(
        sandbox.run(
          "reminders", "add", "--text", "T\(minute)", "--at", String(format: "10:%02d", minute)
        ).status == 0)
    }
    #expect(sandbox.run("deliver", "--now", "2026-04-27T10:30:00+02:00").status == 0)
    let killed = try killRepeatedly(
      sandbox,
      { run in
        ["respond", "reminder-\(2 + run % 30)", "snooze", "--now", "2026-04-27T10:31:00+02:00"]
      }, runs: 30)
    let store = try EventStore(path: sandbox.storePath)
    #expect(try store.connection.scalarText("PRAGMA integrity_check") == "ok")
    // Every answer's effect is there: a snooze answer has its alert (or its alert was claimed).
    let answers = try Self.scalar(store, "SELECT count(*) FROM answers WHERE action = 'snooze'")
    let alerts = try Self.scalar(store, "SELECT count(*) FROM requests WHERE origin = 'snooze'")
    #expect(answers == alerts)
    // And answering again completes what the kills interrupted, once.
    for run in 0..<30 {
      _ = sandbox.run(
        "respond", "reminder-\(2 + run)", "snooze", "--now", "2026-04-27T10:31:00+02:00")
    }
    #expect(try Self.scalar(store, "SELECT count(*) FROM answers WHERE action = 'snooze'") == 30)
    #expect(try Self.scalar(store, "SELECT count(*) FROM requests WHERE origin = 'snooze'") == 30)
    #expect(killed > 0, "no run was killed: the test did not test anything")
  }

  @Test func deliveryKilledMidWayNeverDeliversAFiringTwice() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Europe/Berlin")
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    for minute in 0..<12 {
      #expect(
        sandbox.run(
          "reminders", "add", "--text", "R\(minute)", "--at", String(format: "09:%02d", minute)
        ).status == 0)
    }
    let log = sandbox.directory.appendingPathComponent("shown.log").path
    // A slow sink, so that kills land between claims and deliveries.
    let command = "sleep 0.05; echo \"$ROUTINE_ID $ROUTINE_OCCURRENCE\" >> '\(log)'"
    let killed = try killRepeatedly(
      sandbox,
      { run in
        [
          "deliver", "--sink", "exec", "--exec", command, "--now",
          String(format: "2026-05-04T09:%02d:30+02:00", min(run, 11)),
        ]
      }, runs: 12)
    // Runs after the kills finish the job.
    for run in 0..<3 {
      #expect(
        sandbox.run(
          "deliver", "--sink", "exec", "--exec", command, "--now",
          "2026-05-04T09:1\(2 + run):00+02:00"
        ).status == 0)
    }
    let shown = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
      .split(separator: "\n").map(String.init)
    #expect(Set(shown).count == shown.count, "delivered twice: \(shown)")
    let store = try EventStore(path: sandbox.storePath)
    #expect(try store.connection.scalarText("PRAGMA integrity_check") == "ok")
    // Each firing was decided once. One recorded delivered was shown; one not shown was
    // interrupted between its claim and its sink, and stays 'sending' (a kill after the sink
    // started leaves it 'sending' too, though shown).
    let records = try store.deliveries()
    #expect(Set(records.map(\.occurrence)).count == records.count)
    #expect(records.count == 12)
    let shownSet = Set(shown)
    for record in records {
      let line =
        "\(record.occurrence.requestID) \(TimeArgument.stamp(record.occurrence.at, Zone(foundation: TimeZone(identifier: "Europe/Berlin")!)).iso8601)"
      switch record.outcome {
      case .delivered: #expect(shownSet.contains(line), "\(line) delivered but not shown")
      case .sending: break
      default: Issue.record("\(line): \(record.outcome)")
      }
      #expect(shownSet.contains(line) || record.outcome == .sending)
    }
    #expect(killed > 0, "no run was killed: the test did not test anything")
  }

  @Test func tenOverlappingDeliveryRunsDeliverEachFiringOnce() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Europe/Berlin")
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    for minute in 0..<20 {
      #expect(
        sandbox.run(
          "reminders", "add", "--text", "R\(minute)", "--at", String(format: "09:%02d", minute)
        ).status == 0)
    }
    let log = sandbox.directory.appendingPathComponent("shown.log").path
    let command = "echo \"$ROUTINE_ID $ROUTINE_OCCURRENCE\" >> '\(log)'"
    for round in 0..<3 {
      let now = String(format: "2026-05-04T09:%02d:10+02:00", 9 + round * 5)
      let runs = try (0..<10).map { _ in
        try Self.start(sandbox, ["deliver", "--sink", "exec", "--exec", command, "--now", now])
      }
      for (process, errors) in runs {
        let (status, text) = Self.finish(process, errors)
        #expect(status == 0, "\(text)")
      }
    }
    let shown = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(shown.count == 20)
    #expect(Set(shown).count == 20)
  }
}
