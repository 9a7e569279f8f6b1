import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

struct EventStoreTests {
  let directory = TemporaryDirectory()

  func event(
    _ kind: String, _ time: String, value: Double? = nil, note: String? = nil,
    source: EventSource = .cli
  ) -> Event {
    Event(
      kind: EventKind(kind)!, timestamp: Timestamp(iso8601: time)!, value: value, note: note,
      source: source)
  }

  @Test func aNewStoreIsCreatedWithItsDirectoryInWALModeWithItsMigrationsRecorded() throws {
    let path = directory.path("nested/deeper/routine.db")
    let store = try EventStore(path: path)
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(try store.connection.scalarText("PRAGMA journal_mode") == "wal")
    #expect(try store.connection.scalarInt("PRAGMA foreign_keys") == 1)
    #expect(try store.migrations() == Migration.all.map(\.name))
    #expect(
      try store.connection.scalarInt("PRAGMA application_id") == Int64(EventStore.applicationID))
    // Opening again applies nothing twice.
    let again = try EventStore(path: path)
    #expect(
      try again.migrations() == [
        "0001-events", "0002-planner", "0003-delivery-and-reminders", "0004-reminder-changes",
        "0005-slots-and-corrections", "0006-tasks-by-name", "0007-reminders-that-listen",
        "0008-day-marks", "0009-change-journal", "0010-holds",
      ])
  }

  @Test func aStoreWithUnknownMigrationsIsRefused() throws {
    let path = directory.path("future.db")
    let store = try EventStore(path: path)
    try store.connection.execute(
      "INSERT INTO migrations (name, applied_at) VALUES ('9999-future', 0)")
    #expect {
      _ = try EventStore(path: path)
    } throws: { error in
      guard case .newerVersion(_, let unknown) = error as? StoreError else { return false }
      return unknown == ["9999-future"]
    }
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAsItWas() throws {
    let text = String(repeating: "not sqlite\n", count: 500)
    let path = directory.file("text.db", text)
    #expect {
      _ = try EventStore(path: path)
    } throws: { error in
      guard case .notADatabase(let where_) = error as? StoreError else { return false }
      return where_ == path
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
  }

  @Test func insertingTheSameEventTwiceStoresItOnce() throws {
    let store = try EventStore(path: directory.path("a.db"))
    #expect(try store.insert(event("Wake Up", "2026-04-20T07:05:00+02:00")))
    #expect(try !store.insert(event("wake  UP", "2026-04-20T05:05:00Z")))
    // A different value, note or kind is a different event.
    #expect(try store.insert(event("Wake Up", "2026-04-20T07:05:00+02:00", value: 1)))
    #expect(try store.insert(event("Wake Up", "2026-04-20T07:05:00+02:00", note: "late")))
    #expect(try store.insert(event("Coffee", "2026-04-20T07:05:00+02:00")))
    #expect(try store.count() == 4)
  }

  @Test func kindsAreNormalizedAndKeepTheirFirstSpelling() throws {
    let store = try EventStore(path: directory.path("k.db"))
    try store.insert(event("Wake Up", "2026-04-20T07:05Z"))
    try store.insert(event("wake up", "2026-04-21T07:05Z"))
    let kinds = try store.kinds()
    #expect(kinds.count == 1)
    #expect(kinds.values.first?.name == "Wake Up")
  }

  @Test func eventsComeBackWithTheirOffsetsValuesNotesAndSources() throws {
    let store = try EventStore(path: directory.path("b.db"))
    try store.insert(
      event(
        "Coffee", "2026-04-20T07:30:00+02:00", value: 2, note: "strong, \"black\"",
        source: .notification))
    try store.insert(event("Wake Up", "2026-04-20T07:05:00-04:00"))
    try store.insert(event("Wake Up", "2026-04-19T07:05:00+02:00"))
    var listed: [Event] = []
    try store.forEachEvent { listed.append($0) }
    #expect(
      listed.map(\.timestamp.iso8601) == [
        "2026-04-19T07:05:00+02:00", "2026-04-20T07:30:00+02:00", "2026-04-20T07:05:00-04:00",
      ])
    #expect(
      listed[1].value == 2 && listed[1].note == "strong, \"black\""
        && listed[1].source == .notification)
    var wakeUps: [Event] = []
    try store.forEachEvent(
      from: Timestamp(iso8601: "2026-04-20T00:00Z")!.secondsSince1970, kind: EventKind("WAKE UP")
    ) { wakeUps.append($0) }
    #expect(wakeUps.map(\.timestamp.iso8601) == ["2026-04-20T07:05:00-04:00"])
  }

  @Test func importingAFileTwiceAddsNothingTheSecondTime() throws {
    let path = directory.file(
      "log.csv",
      "timestamp,event,value,note\n2026-04-20T07:05Z,Wake Up,,\n2026-04-20T07:30Z,Coffee,1,\n2026-04-20T07:30Z,Coffee,1,\n"
    )
    let store = try EventStore(path: directory.path("c.db"))
    let first = try store.importEvents(from: EventFileReader(path: path))
    #expect(first.read == 3 && first.added == 2 && first.alreadyPresent == 1)
    let second = try store.importEvents(from: EventFileReader(path: path))
    #expect(second.read == 3 && second.added == 0 && second.alreadyPresent == 3)
    #expect(try store.count() == 2)
  }

  @Test func aFileWithAnInvalidLineAddsNothing() throws {
    let path = directory.file(
      "bad.csv",
      "timestamp,event\n2026-04-20T07:05Z,Wake Up\n2026-04-21T07:05Z,Wake Up\nnoon,Wake Up\n2026-04-22T07:05Z,Wake Up\n"
    )
    let store = try EventStore(path: directory.path("d.db"))
    #expect(throws: FormatError.self) { try store.importEvents(from: EventFileReader(path: path)) }
    #expect(try store.count() == 0)
    #expect(try store.kinds().isEmpty)
    let skipping = try store.importEvents(from: EventFileReader(path: path, skipsInvalid: true))
    #expect(skipping.added == 3 && skipping.skipped.map(\.line) == [4])
  }

  @Test func theLogForAnalyticsHoldsTheDaysAskedForAndTheirNeighbours() throws {
    let store = try EventStore(path: directory.path("e.db"))
    for day in 10...20 { try store.insert(event("Wake Up", "2026-04-\(day)T07:00:00+02:00")) }
    let log = try store.eventLog(
      days: LocalDate(year: 2026, month: 4, day: 14)!...LocalDate(year: 2026, month: 4, day: 16)!)
    let dates = log.times[0].map(\.localDate.description)
    #expect(dates.first! <= "2026-04-13" && dates.last! >= "2026-04-17")
    #expect(dates.count <= 7)
  }

  @Test func concurrentWritersInSeparateConnectionsLoseNothing() async throws {
    let path = directory.path("shared.db")
    _ = try EventStore(path: path)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          let store = try EventStore(path: path)
          for index in 0..<50 {
            let minute = String(format: "%02d", index)
            try store.insert(
              Event(
                kind: EventKind("Writer \(writer)")!,
                timestamp: Timestamp(iso8601: "2026-04-20T07:\(minute)Z")!, source: .cli))
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try EventStore(path: path).count() == 200)
  }

  @Test func aWriterHeldUpBeyondTheBusyTimeoutReportsBusy() throws {
    let path = directory.path("busy.db")
    let holder = try EventStore(path: path)
    try holder.connection.execute("BEGIN IMMEDIATE")
    defer { try? holder.connection.execute("ROLLBACK") }
    let impatient = try Connection(path: path, busyTimeoutMilliseconds: 50)
    #expect {
      try impatient.execute("BEGIN IMMEDIATE")
    } throws: { error in
      (error as? SQLiteError)?.isBusy == true
    }
  }

  @Test func sqliteErrorsCarryTheStatementButNotTheValues() throws {
    let connection = try Connection(path: directory.path("f.db"))
    try connection.execute("CREATE TABLE t (x TEXT NOT NULL CHECK (length(x) < 5))")
    let statement = try connection.prepare("INSERT INTO t (x) VALUES (?)")
    // A value that breaks the constraint and would be recognizable in the message.
    try statement.bind("private-note-4711", at: 1)
    do {
      try statement.step()
      Issue.record("expected a constraint failure")
    } catch {
      #expect(error.sql == "INSERT INTO t (x) VALUES (?)")
      #expect(error.primaryCode == 19)
      #expect(error.description.contains("CHECK constraint failed"))
      #expect(!error.description.contains("private-note-4711"))
      #expect(!error.message.contains("4711"))
    }
  }

  @Test func boundValuesRoundTrip() throws {
    let connection = try Connection(path: directory.path("g.db"))
    try connection.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT)")
    let insert = try connection.prepare("INSERT INTO t VALUES (?, ?, ?)")
    for (integer, double, text) in [
      (Int64.max, 1.5, "ünïcödé 😀"), (Int64.min, -0.25, ""), (0, 0, "a\u{0}b"),
    ] {
      insert.reset()
      try insert.bind(integer, at: 1)
      try insert.bind(double, at: 2)
      try insert.bind(text, at: 3)
      try insert.step()
    }
    let select = try connection.prepare("SELECT i, d, s FROM t ORDER BY rowid")
    var rows: [(Int64, Double, String?)] = []
    while try select.step() {
      rows.append((select.int(at: 0), select.double(at: 1), select.text(at: 2)))
    }
    #expect(rows.map(\.0) == [Int64.max, Int64.min, 0])
    #expect(rows.map(\.1) == [1.5, -0.25, 0])
    #expect(rows.map(\.2) == ["ünïcödé 😀", "", "a\u{0}b"])
  }
}

struct StoreLocationTests {
  @Test func theOptionThenTheEnvironmentThenXDGThenHome() {
    let environment = ["ROUTINE_STORE": "/r.db", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"]
    #expect(StoreLocation.resolve(option: "/o.db", environment: environment) == "/o.db")
    #expect(StoreLocation.resolve(option: nil, environment: environment) == "/r.db")
    #expect(
      StoreLocation.resolve(option: nil, environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"])
        == "/xdg/routine/routine.db")
    #expect(
      StoreLocation.resolve(
        option: nil, environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"])
        == "/home/u/.local/share/routine/routine.db")
    #expect(StoreLocation.resolve(option: nil, environment: [:]) == nil)
  }
}
