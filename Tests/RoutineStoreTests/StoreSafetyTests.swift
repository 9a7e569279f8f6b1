import CSQLite
import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

/// What the store refuses, how it creates files, and how its transactions hold together.
struct StoreSafetyTests {
  let directory = TemporaryDirectory()

  func event(_ kind: String, _ time: String, value: Double? = nil, source: EventSource = .cli)
    -> Event
  {
    Event(
      kind: EventKind(kind)!, timestamp: Timestamp(iso8601: time)!, value: value, source: source)
  }

  /// The bytes of a file, to prove it was not touched.
  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test func anotherApplicationsDatabaseIsRefusedUntouched() throws {
    let path = directory.path("other.db")
    do {
      let other = try Connection(path: path, wal: false)
      try other.execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ann')")
    }
    let before = bytes(path)
    #expect {
      _ = try EventStore(path: path)
    } throws: { error in
      guard case .foreign(let where_, let detail) = error as? StoreError else { return false }
      return where_ == path && detail == "it has the table 'contacts'"
    }
    #expect(bytes(path) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    let check = try Connection(path: path, wal: false)
    #expect(try check.scalarText("PRAGMA journal_mode") == "delete")
    #expect(try check.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'events'") == 0)
  }

  @Test func aDatabaseMarkedByAnotherApplicationIsRefusedEvenWithOurTables() throws {
    let path = directory.path("marked.db")
    do {
      let other = try Connection(path: path, wal: false)
      try other.execute("PRAGMA application_id = 42; CREATE TABLE events (x)")
    }
    #expect {
      _ = try EventStore(path: path)
    } throws: { error in
      guard case .foreign(_, let detail) = error as? StoreError else { return false }
      return detail == "application id 42"
    }
  }

  /// Databases of other applications that have no table of their own: only an empty database
  /// (no schema at all, user version and application id 0) is a new store.
  @Test(arguments: [
    ("CREATE VIEW v AS SELECT 1; PRAGMA user_version = 3", "it has the view 'v'"),
    ("CREATE VIEW v AS SELECT 1", "it has the view 'v'"),
    (
      "CREATE VIEW v AS SELECT 1 AS x; CREATE TRIGGER t INSTEAD OF INSERT ON v BEGIN SELECT 1; END",
      "it has the view 'v' and the trigger 't'"
    ),
    ("PRAGMA user_version = 7", "its user version is 7"),
    ("PRAGMA application_id = 42", "application id 42"),
    // SQLite's own tables, left behind when the tables they served were dropped.
    (
      "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT); INSERT INTO t DEFAULT VALUES; DROP TABLE t",
      "it has the table 'sqlite_sequence'"
    ),
    (
      "CREATE TABLE t (x); CREATE INDEX i ON t (x); INSERT INTO t VALUES (1); ANALYZE; DROP TABLE t",
      "it has the table 'sqlite_stat1'"
    ),
  ])
  func aDatabaseWithoutTablesButWithASchemaIsRefusedUntouched(sql: String, detail: String) throws {
    let path = directory.path("schema-\(UUID().uuidString).db")
    do {
      let other = try Connection(path: path, wal: false)
      try other.execute(sql)
    }
    let before = try #require(bytes(path))
    #expect(!before.isEmpty)
    #expect {
      _ = try EventStore(path: path)
    } throws: { error in
      guard case .foreign(let where_, let found) = error as? StoreError else { return false }
      return where_ == path && found == detail
    }
    #expect(bytes(path) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func anEmptyDatabaseIsAdoptedAsANewStoreOnlyToWrite() throws {
    let path = directory.path("fresh.db")
    do {
      // A SQLite file with a header and nothing else (as `sqlite3 fresh.db 'VACUUM'` leaves).
      let fresh = try Connection(path: path, wal: false)
      try fresh.execute("CREATE TABLE t (x); DROP TABLE t")
    }
    let before = try #require(bytes(path))
    #expect(!before.isEmpty)
    // Reading makes no store of it, as of a missing or an empty file.
    #expect {
      _ = try EventStore(path: path, creating: false)
    } throws: { error in
      guard case .missing = error as? StoreError else { return false }
      return true
    }
    #expect(bytes(path) == before)
    let store = try EventStore(path: path)
    try store.insert(event("Tea", "2026-04-20T07:00:00+02:00"))
    #expect(try store.count() == 1)
  }

  @Test func aStoreFromBeforeTheMarkIsAdoptedAndMarked() throws {
    let path = directory.path("old.db")
    do {
      // What issues 2 and 3 created: our tables, no application id.
      let store = try EventStore(path: path)
      try store.insert(event("Wake Up", "2026-04-20T07:00:00+02:00"))
      try store.connection.execute("PRAGMA application_id = 0")
    }
    let store = try EventStore(path: path)
    #expect(try store.count() == 1)
    #expect(
      try store.connection.scalarInt("PRAGMA application_id") == Int64(EventStore.applicationID))
  }

  @Test(arguments: [
    // Offsets into the header whose damage SQLite reports in different ways.
    (16, "file is not a database"), (28, "database disk image is malformed"),
    (44, "unsupported file format"), (56, "malformed database schema"),
  ])
  func aDamagedStoreSaysItIsDamagedAndWhere(offset: Int, detail: String) throws {
    let path = directory.path("damaged-\(offset).db")
    do {
      let store = try EventStore(path: path)
      try store.insert(event("Wake Up", "2026-04-20T07:00:00+02:00"))
    }
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.seek(toOffset: UInt64(offset))
    try handle.write(contentsOf: Data([0xFF, 0xFE, 0x01, 0x07]))
    try handle.close()
    #expect {
      _ = try EventStore(path: path).count()
    } throws: { error in
      guard case .damaged(let where_, let message) = error as? StoreError else { return false }
      return where_ == path && message.hasPrefix(detail)
        && error.localizedDescription.isEmpty == false
    }
  }

  @Test func aNewStoreIsPrivateToItsOwnerWhateverTheUmask() throws {
    let previous = umask(0o022)
    defer { umask(previous) }
    let path = directory.path("private/deeper/routine.db")
    let store = try EventStore(path: path)
    try store.insert(event("Wake Up", "2026-04-20T07:00:00+02:00"))
    func mode(_ path: String) throws -> Int {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
    #expect(try mode(path) == 0o600)
    #expect(try mode(path + "-wal") == 0o600)
    #expect(try mode(directory.path("private")) == 0o700)
    #expect(try mode(directory.path("private/deeper")) == 0o700)
  }

  @Test func anExistingDirectoryKeepsItsPermissions() throws {
    let parent = directory.path("shared")
    try FileManager.default.createDirectory(
      atPath: parent, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
    _ = try EventStore(path: parent + "/routine.db")
    let attributes = try FileManager.default.attributesOfItem(atPath: parent)
    #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o777 == 0o755)
  }

  @Test(arguments: [
    ("a", ""), ("ab/c", "ab"), ("/a", "/"), ("/", "/"), ("a/", ""), ("x/y/z.db", "x/y"),
    ("/x//y.db", "/x/"), (".", ""),
  ])
  func theParentOfAPathHandlesShortPaths(path: String, parent: String) {
    // Foundation's deletingLastPathComponent crashed on one-character paths (issue 7).
    #expect(FileSystem.parent(of: path) == parent)
  }

  @Test func aDirectoryIsNotAStore() {
    #expect {
      _ = try EventStore(path: directory.url.path)
    } throws: { error in
      guard case .isDirectory = error as? StoreError else { return false }
      return true
    }
  }

  @Test func openingWithoutCreatingLeavesAMissingStoreMissing() {
    let path = directory.path("absent/routine.db")
    #expect {
      _ = try EventStore(path: path, creating: false)
    } throws: { error in
      guard case .missing = error as? StoreError else { return false }
      return true
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path("absent")))
  }

  @Test func anErrorInsideAWriteRollsBackEveryWriteOfIt() throws {
    let store = try EventStore(path: directory.path("tx.db"))
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try store.write {
        try store.insert(event("Wake Up", "2026-04-20T07:00:00+02:00"))
        var settings = try store.settings()
        settings.leadMinutes = 20
        try store.save(settings)
        throw Stop()
      }
    }
    #expect(try store.count() == 0)
    #expect(try store.settings().leadMinutes == 5)
    #expect(try store.kinds().isEmpty)
  }

  @Test func aNestedFailureRollsBackOnlyItsOwnPart() throws {
    let store = try EventStore(path: directory.path("nested.db"))
    struct Stop: Error {}
    try store.write {
      try store.insert(event("Wake Up", "2026-04-20T07:00:00+02:00"))
      do {
        try store.write {
          try store.insert(event("Coffee", "2026-04-20T07:30:00+02:00"))
          throw Stop()
        }
      } catch is Stop {}
    }
    #expect(try store.storedEvents(EventSelection()).map(\.event.kind.name) == ["Wake Up"])
  }

  @Test func concurrentSettingsChangesAreNeverLost() async throws {
    let path = directory.path("settings.db")
    _ = try EventStore(path: path)
    // Four writers each change their own setting many times: with read-modify-write outside a
    // transaction, one writer's save puts back another's old value.
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          let store = try EventStore(path: path)
          for round in 1...25 {
            _ = try store.updateSettings { settings in
              switch writer {
              case 0: settings.leadMinutes = round
              case 1: settings.bufferMinutes = round
              case 2: settings.windowDays = round
              default: settings.threshold = Double(round) / 100
              }
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let settings = try EventStore(path: path).settings()
    #expect(settings.leadMinutes == 25)
    #expect(settings.bufferMinutes == 25)
    #expect(settings.windowDays == 25)
    #expect(settings.threshold == 0.25)
  }

  @Test func turningRemindersOffRemovesTheLearnedRequestsInTheSameTransaction() throws {
    let store = try EventStore(path: directory.path("off.db"))
    let learned = NotificationRequest(
      id: "routine_WakeUp", origin: .learned, category: .routineReminder, title: "t", body: "b",
      trigger: .calendar(CalendarTrigger(hour: 7, minute: 0)), metadata: nil)
    var snooze = learned
    snooze.id = "alert_WakeUp_1"
    snooze.origin = .snooze
    try store.schedule(learned)
    try store.schedule(snooze)
    let update = try store.updateSettings { $0.isEnabled = false }
    #expect(update.removedRequests == 1)
    #expect(try store.requests().map(\.id) == ["alert_WakeUp_1"])
  }

  @Test func renamingAKindKeepsItsEventsAndASpellingChangeKeepsItsIdentity() throws {
    let store = try EventStore(path: directory.path("rename.db"))
    try store.insert(event("wakeup", "2026-04-20T07:00:00+02:00"))
    try store.insert(event("wakeup", "2026-04-21T07:00:00+02:00"))
    let renamed = try store.renameKind(EventKind("Wakeup")!, to: EventKind("Wake Up")!)
    #expect(
      renamed == .renamed(from: EventKind("wakeup")!, to: EventKind("Wake Up")!, events: 2))
    #expect(try store.kindSummaries().map(\.kind.name) == ["Wake Up"])
    _ = try store.renameKind(EventKind("wake up")!, to: EventKind("WAKE up")!)
    #expect(try store.kindSummaries().map { "\($0.kind.name) \($0.count)" } == ["WAKE up 2"])
    #expect(try store.renameKind(EventKind("Nothing")!, to: EventKind("X")!) == nil)
  }

  @Test func mergingAKindMovesItsEventsAndDropsDuplicates() throws {
    let store = try EventStore(path: directory.path("merge.db"))
    try store.insert(event("Wake Up", "2026-04-20T07:00:00+02:00"))
    try store.insert(event("Wakeup", "2026-04-20T07:00:00+02:00"))
    try store.insert(event("Wakeup", "2026-04-21T07:00:00+02:00"))
    var request = NotificationRequest(
      id: "alert_Wakeup_1", origin: .snooze, category: .earlyWarning, title: "t", body: "b",
      trigger: .date(1), metadata: RequestMetadata(eventKind: "Wakeup"))
    try store.schedule(request)
    let result = try store.renameKind(EventKind("wakeup")!, to: EventKind("wake up")!)
    #expect(
      result
        == .merged(from: EventKind("Wakeup")!, into: EventKind("Wake Up")!, moved: 1, duplicates: 1)
    )
    let summaries = try store.kindSummaries()
    #expect(summaries.map(\.kind.name) == ["Wake Up"])
    #expect(summaries.first?.count == 2)
    request.metadata = RequestMetadata(eventKind: "Wake Up")
    #expect(try store.requests() == [request])
  }

  @Test func deletingRemovesOnlyEventsStillAsTheyWereShown() throws {
    let store = try EventStore(path: directory.path("delete.db"))
    for day in 20...24 { try store.insert(event("Wake Up", "2026-04-\(day)T07:00:00+02:00")) }
    let lastTwo = try store.storedEvents(EventSelection(last: 2))
    #expect(lastTwo.map(\.event.timestamp.localDate.description) == ["2026-04-23", "2026-04-24"])
    var stale = lastTwo[0]
    stale.event.value = 3  // shown one way, stored another: not deleted
    #expect(try store.delete([stale, lastTwo[1]], at: 0) == 1)
    #expect(try store.count() == 4)
    #expect(try store.delete([lastTwo[1]], at: 0) == 0)
  }

  @Test func theLastLoggedEventIsTheLatestAddedByHandNotByImport() throws {
    let store = try EventStore(path: directory.path("undo.db"))
    try store.insert(event("Coffee", "2026-04-21T07:00:00+02:00"))
    try store.insert(event("Wake Up", "2026-04-20T06:00:00+02:00"))
    try store.insert(event("Imported", "2026-04-22T07:00:00+02:00", source: .import))
    // Added last by hand, though not the latest in time.
    #expect(try store.lastLogged()?.event.kind.name == "Wake Up")
  }

  @Test func theDatesOfTheStoresEventsAreTheirOwnLocalDates() throws {
    let store = try EventStore(path: directory.path("dates.db"))
    #expect(try store.eventDates() == nil)
    try store.insert(event("Bed Time", "2026-04-20T23:30:00-04:00"))
    try store.insert(event("Wake Up", "2026-03-02T07:00:00+01:00"))
    let dates = try #require(try store.eventDates())
    #expect(dates.lowerBound.description == "2026-03-02")
    #expect(dates.upperBound.description == "2026-04-20")
  }
}
