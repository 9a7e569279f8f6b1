import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// A sink that remembers what it was given.
final class RecordingSink: NotificationSink, @unchecked Sendable {
  let kind = SinkKind.exec
  private(set) var delivered: [DeliveredNotification] = []

  func deliver(_ notification: DeliveredNotification) throws -> String? {
    delivered.append(notification)
    return nil
  }
}

/// `routine watch`: the loop with a clock of the test's own, then the built binary with the
/// real clock, signals and another process's edits.
struct WatchTests {
  static func instant(_ text: String) -> Int64 { Timestamp(iso8601: text)!.secondsSince1970 }

  /// A context for `watch` on the sandbox's store.
  func context(_ sandbox: Sandbox) throws -> Context {
    let environment = ProcessEnvironment(
      variables: sandbox.variables, clock: { fatalError("the loop is given its clock") },
      systemTimeZone: { Zone.utc })
    return Context(
      arguments: try RoutineCLI.parser.parse(["watch"]), environment: environment,
      output: Output(), errors: Output())
  }

  @Test func theLoopSleepsUntilEachFiringAndThePlanAndNeverPolls() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Europe/Berlin")
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "A", "--at", "09:00").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "B", "--at", "18:30").status == 0)
    let store = try EventStore(path: sandbox.storePath)
    let sink = RecordingSink()
    var now = Self.instant("2026-05-04T08:00:00+02:00")
    var sleeps: [Int64] = []
    var deliveredAt: [Int64: [String]] = [:]
    var watcher = Watcher(
      store: store, context: try context(sandbox), sink: sink, now: { now },
      wait: { until in
        // Stop after a day and a half of wakes.
        guard until < Self.instant("2026-05-05T20:00:00+02:00") else { return .stop(SIGTERM) }
        now = until
        return .time
      })
    // How many were delivered each time it went to sleep: none before the first firing, one
    // more after each, none for the nightly plan.
    var deliveredBeforeSleep: [Int] = []
    watcher.onSleep = {
      sleeps.append($0)
      deliveredBeforeSleep.append(sink.delivered.count)
    }
    #expect(try watcher.run() == .ok)
    #expect(deliveredBeforeSleep == [0, 1, 2, 2, 3, 4])
    for notification in sink.delivered {
      deliveredAt[notification.occurrence.secondsSince1970, default: []].append(notification.title)
    }
    #expect(
      sleeps == [
        Self.instant("2026-05-04T09:00:00+02:00"), Self.instant("2026-05-04T18:30:00+02:00"),
        Self.instant("2026-05-05T03:00:00+02:00"), Self.instant("2026-05-05T09:00:00+02:00"),
        Self.instant("2026-05-05T18:30:00+02:00"), Self.instant("2026-05-06T03:00:00+02:00"),
      ])
    #expect(sink.delivered.map(\.title) == ["A", "B", "A", "B"])
    #expect(sink.delivered.allSatisfy { !$0.isLate })
  }

  @Test func ownWritesDoNotWakeItButAnotherProcesssEditsDo() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Europe/Berlin")
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Evening", "--at", "20:00").status == 0)
    let store = try EventStore(path: sandbox.storePath)
    let sink = RecordingSink()
    let now = Self.instant("2026-05-04T08:00:00+02:00")
    var sleeps: [Int64] = []
    var wakes = 0
    var watcher = Watcher(
      store: store, context: try context(sandbox), sink: sink, now: { now },
      wait: { _ in
        wakes += 1
        switch wakes {
        case 1:
          // Only this process wrote (its delivery run): the data version is unchanged.
          return .storeChanged
        case 2:
          // Another process adds a reminder at 08:30.
          let other = try! EventStore(path: sandbox.storePath)
          var reminder = Reminder(id: "", kind: .general, message: "Sooner")
          reminder.schedule = ReminderSchedule(
            repetition: .daily, time: TimeOfDay(hour: 8, minute: 30)!)
          _ = try! other.addReminder(reminder, now: now - 60)
          return .storeChanged
        default:
          return .stop(SIGINT)
        }
      })
    watcher.onSleep = { sleeps.append($0) }
    #expect(try watcher.run() == .ok)
    let evening = Self.instant("2026-05-04T20:00:00+02:00")
    #expect(sleeps == [evening, evening, Self.instant("2026-05-04T08:30:00+02:00")])
    #expect(sink.delivered.isEmpty)
  }

  // MARK: The binary

  /// Reads lines from a running process's pipe as they come.
  final class LineReader: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()

    init(_ handle: FileHandle) {
      handle.readabilityHandler = { [weak self] handle in
        let data = handle.availableData
        guard let self else { return }
        self.lock.lock()
        self.buffer.append(data)
        self.lock.unlock()
        if data.isEmpty { handle.readabilityHandler = nil }
      }
    }

    var text: String {
      lock.lock()
      defer { lock.unlock() }
      return String(decoding: buffer, as: UTF8.self)
    }

    /// Waits up to `seconds` for `count` lines.
    func lines(_ count: Int, within seconds: Double) -> [String] {
      let deadline = Date().addingTimeInterval(seconds)
      while Date() < deadline {
        let lines = text.split(separator: "\n").map(String.init)
        if lines.count >= count { return lines }
        usleep(20_000)
      }
      return text.split(separator: "\n").map(String.init)
    }
  }

  static func stamp(_ instant: Int64) -> String {
    Timestamp(secondsSince1970: instant, utcOffsetSeconds: 0).iso8601
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func theBinaryDeliversWhatIsDueNoticesOtherProcessesAndStopsOnASignal(signal: Int32) throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "UTC")
    sandbox.variables.removeValue(forKey: "ROUTINE_NOW")
    let now = Int64(Date().timeIntervalSince1970)
    let minute = now - now % 60
    // Added ten minutes ago for two minutes ago: due, within the grace period.
    let past = Timestamp(secondsSince1970: minute - 120, utcOffsetSeconds: 0)
    #expect(
      sandbox.run(
        "reminders", "add", "--text", "First", "--at", "\(past.localDate) \(past.timeOfDay)",
        "--now", Self.stamp(now - 600)
      ).status == 0)
    let process = Process()
    process.executableURL = try Sandbox.binary()
    process.arguments = ["watch"]
    process.environment = sandbox.variables
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let reader = LineReader(output.fileHandleForReading)
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    let first = reader.lines(1, within: 10)
    #expect(first.count == 1)
    #expect(first.first?.contains("\"title\":\"First\"") == true)
    // Another process adds a reminder whose time has just passed: the watch must notice the
    // edit and deliver it, not sleep until its next wake.
    // More than a minute ago, so late even when this second is a whole minute.
    let second = Timestamp(secondsSince1970: (now - 61) - (now - 61) % 60, utcOffsetSeconds: 0)
    #expect(
      sandbox.run(
        "reminders", "add", "--text", "Second", "--at", "\(second.localDate) \(second.timeOfDay)",
        "--now", Self.stamp(now - 300)
      ).status == 0)
    let both = reader.lines(2, within: 10)
    #expect(both.count == 2)
    #expect(both.last?.contains("\"title\":\"Second\"") == true)
    #expect(both.last?.contains("\"late\":true") == true)
    kill(process.processIdentifier, signal)
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    #expect(!process.isRunning)
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
  }
}

/// `watch` started before anything else (a user service without `LANG`) creates the store it
/// waits on, but leaves the locale to the first command typed in a terminal.
struct WatchLocaleTests {
  @Test func aWatchOnAFreshInstallRecordsNoLocale() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "UTC")
    sandbox.variables.removeValue(forKey: "ROUTINE_NOW")
    for name in ["LANG", "LC_ALL", "LC_TIME"] { sandbox.variables.removeValue(forKey: name) }
    let process = Process()
    process.executableURL = try Sandbox.binary()
    process.arguments = ["watch"]
    process.environment = sandbox.variables
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: sandbox.storePath), Date() < deadline {
      usleep(20_000)
    }
    #expect(FileManager.default.fileExists(atPath: sandbox.storePath))
    // Time to pass where the locale was recorded (right after opening) and reach its wait.
    usleep(700_000)
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    sandbox.variables["ROUTINE_NOW"] = "2026-05-04T07:00:00+02:00"
    #expect(sandbox.run("settings", "--json").json["locale"] is NSNull)
    sandbox.variables["LANG"] = "en_US.UTF-8"
    #expect(sandbox.run("log", "Tea").status == 0)
    #expect(sandbox.run("settings", "--json").json["locale"] as? String == "en_US")
  }
}
