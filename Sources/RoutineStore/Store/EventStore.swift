import Foundation
import RoutineCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The SQLite store: events and kinds, settings, notification requests.
///
/// Each process opens its own store; SQLite's WAL mode lets readers run beside one writer, and
/// writers queue on the busy timeout. Every write is one `BEGIN IMMEDIATE` transaction; several
/// writes share one through ``write(_:)``, and reads that must agree share a snapshot through
/// ``read(_:)``.
///
/// A routine store is marked with SQLite's `application_id` (``applicationID``), and a file is
/// checked before anything in it changes: another application's database, a file that is not a
/// database and a damaged store are refused and left as they are.
public final class EventStore {
  /// The `PRAGMA application_id` of routine stores: "rout" in ASCII.
  public static let applicationID: Int32 = 0x726F_7574

  /// The tables routine's migrations create: an unmarked store holding only these (and a
  /// record of known migrations) is one of routine's own from before the mark, and is adopted.
  static let unmarkedTables: Set<String> = [
    "migrations", "kinds", "events", "settings", "requests", "delivered", "reminders", "habits",
    "tasks", "deleted_ids", "cancellations", "deliveries", "answers", "state", "learned_routines",
    "adaptations", "day_marks", "changes", "change_steps", "change_events",
  ]

  /// The connection (exposed for modules that add tables through migrations of their own).
  public let connection: Connection
  /// The file.
  public let path: String
  /// Why the store could only be opened for reading, when it could (it lies where this process
  /// may not write, or its disk is full): the error of opening it to write. Writing to it fails
  /// with a read-only error, or with this one when the disk is full.
  public let whyReadOnly: StoreError?
  /// Whether the store could only be opened for reading.
  public var isReadOnly: Bool { whyReadOnly != nil }
  private var kindIDs: [String: Int64] = [:]
  /// Records this store's writes for `routine undo`, when ``recordChanges(as:run:)`` asked.
  var journal: ChangeJournal?

  /// Opens the store at `path`, applying any migrations it lacks. When the file is missing it is
  /// created if `creating` (mode 0600, with any missing directories 0700), else the store throws
  /// ``StoreError/missing(path:)``, so that commands that only read never create one.
  public init(path: String, creating: Bool = true) throws(StoreError) {
    self.path = path
    if path.hasSuffix("/") { throw .isDirectory(path: path) }
    EventStore.removeStaleCreation(of: path)
    switch FileSystem.kind(of: path) {
    case .directory:
      throw .isDirectory(path: path)
    case .other:
      throw .notAFile(path: path, what: FileSystem.describe(path))
    case .regularFile where !creating && FileSystem.size(of: path) == 0:
      // An empty file is no store yet (`: > routine.db`): reading must not make it one.
      throw .missing(path: path)
    case .missing:
      guard creating else { throw .missing(path: path) }
      do {
        try FileSystem.createDirectories(FileSystem.parent(of: path), mode: 0o700)
      } catch {
        throw .cannotCreateDirectory(path: error.path, reason: error.reason)
      }
      do {
        try FileSystem.createFile(path, mode: 0o600)
      } catch {
        throw .cannotCreateFile(path: path, reason: error.reason)
      }
    case .regularFile:
      break
    }
    (connection, whyReadOnly) = try EventStore.connect(path: path, creating: creating)
    // The file and its shared memory, whose locks SQLite holds while the store is open.
    identities = [path, path + "-shm"].compactMap(FileSystem.identity(of:))
    for identity in identities { EventStore.openFiles.opened(identity) }
  }

  deinit {
    for identity in identities { EventStore.openFiles.closed(identity) }
  }

  /// The files this store has open, for ``openFiles``.
  private let identities: [FileIdentity]

  /// The stores this process has open. Closing any descriptor of a file drops every POSIX lock
  /// the process holds on it (fcntl(2)), SQLite's too: reading a store's header with open(2)
  /// and close(2) while another store of this process has the same file open would let other
  /// processes checkpoint under its reader (a short read, or worse, under its writer). SQLite
  /// defers its own closes for that reason; routine does not read such a file at all.
  static let openFiles = OpenFiles()

  /// Refuses to read, as an input file, a store this process has open: closing the descriptor
  /// would drop the store's locks (``openFiles``).
  static func refuseOpenStore(_ path: String) throws(FileError) {
    guard path != "-", openFiles.contains(path) else { return }
    throw .cannotOpen(
      path: path,
      reason: "it is the routine store in use; give a file of events (CSV or JSON Lines)")
  }

  /// A count of open stores per file, shared by the threads of a process.
  final class OpenFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [FileIdentity: Int] = [:]

    func opened(_ identity: FileIdentity) {
      lock.withLock { counts[identity, default: 0] += 1 }
    }

    func closed(_ identity: FileIdentity) {
      lock.withLock {
        counts[identity, default: 1] -= 1
        if counts[identity] == 0 { counts[identity] = nil }
      }
    }

    /// Whether a store of this process has the file at `path` open (the store or its shared
    /// memory).
    func contains(_ path: String) -> Bool {
      guard let identity = FileSystem.identity(of: path) else { return false }
      return lock.withLock { counts[identity] != nil }
    }
  }

  /// The connection to a checked, migrated store. Unless `creating`, a command that only reads
  /// falls back to a read-only connection when the store lies where this process may not write,
  /// or on a full disk (where SQLite cannot grow the WAL's shared-memory file, needed even to
  /// read); the error of opening it to write comes with it.
  private static func connect(path: String, creating: Bool) throws(StoreError) -> (
    Connection, StoreError?
  ) {
    do throws(StoreError) {
      try identifyUntouched(path)
      let connection: Connection
      do {
        connection = try Connection(path: path, creating: false, wal: false)
      } catch {
        throw StoreError.database(error, path: path)
      }
      // An empty database is no store yet: reading must not make it one (as an empty file).
      if try identify(connection, path: path) == .empty, !creating {
        throw StoreError.missing(path: path)
      }
      do {
        try connection.useWAL()
      } catch {
        throw classify(error, path: path, opening: true)
      }
      try migrate(connection, path: path)
      return (connection, nil)
    } catch {
      guard !creating, error.allowsReading else { throw error }
      for access in [Connection.ReadingAccess.shared, .privateIndex, .immutable] {
        // An immutable reader would not see what is still in the write-ahead log.
        if access == .immutable, (FileSystem.size(of: path + "-wal") ?? 0) > 0 { continue }
        guard let connection = try? Connection(readingOnly: path, access: access),
          (try? connection.scalarInt("SELECT count(*) FROM sqlite_master")) != nil
        else { continue }
        // An empty database is no store yet, as when it opens to write.
        guard try identify(connection, path: path) == .store else {
          throw StoreError.missing(path: path)
        }
        let applied = (try? appliedMigrations(connection)) ?? []
        // A schema that needs an upgrade needs write access: report why it could not be had.
        guard applied == Set(Migration.all.map(\.name)) else { throw error }
        return (connection, error)
      }
      throw error
    }
  }

  /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`): every write inside it, and every
  /// read, is one unit, all or nothing. Transactions nest (as savepoints). Kinds added by a
  /// transaction that rolls back are gone from the database, so they are forgotten here too.
  public func write<T>(_ body: () throws -> T) throws -> T {
    try withDatabase {
      do {
        guard let journal, !connection.isInTransaction else {
          return try connection.transaction(body)
        }
        // The record of the change commits with the change, or neither does.
        return try connection.transaction {
          let change = try journal.begin(self)
          let value = try body()
          try journal.finish(change, self)
          return value
        }
      } catch {
        kindIDs = [:]
        throw error
      }
    }
  }

  /// Runs `body` in one read transaction: its reads see a single snapshot of the store.
  public func read<T>(_ body: () throws -> T) throws -> T {
    try withDatabase { try connection.readTransaction(body) }
  }

  /// Runs `body`, reporting SQLite failures as store errors of this store.
  func withDatabase<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as SQLiteError {
      throw classify(error)
    }
  }

  // MARK: Identity

  /// What a database that is not refused is.
  private enum Identity {
    /// A routine store (marked, or from before the mark).
    case store
    /// A database with nothing in it, to become a store.
    case empty
  }

  /// Refuses a file that is not a routine store, before anything in it is changed.
  @discardableResult
  private static func identify(_ connection: Connection, path: String) throws(StoreError)
    -> Identity
  {
    let owner: Int64
    do {
      owner = try connection.scalarInt("PRAGMA application_id") ?? 0
    } catch {
      throw classify(error, path: path, opening: true)
    }
    // Marked: routine's own. (The header alone says so; listing the tables would make SQLite
    // parse the whole schema before it is needed.)
    if Int32(truncatingIfNeeded: owner) == EventStore.applicationID { return .store }
    guard owner == 0 else {
      throw .foreign(path: path, detail: "application id \(owner)")
    }
    let schema: [SchemaObject]
    let version: Int64
    do {
      schema = try schemaObjects(connection)
      version = try connection.scalarInt("PRAGMA user_version") ?? 0
    } catch {
      throw classify(error, path: path, opening: true)
    }
    // A database with nothing in it at all is a new store. Any schema (a view, a trigger, even
    // a table of SQLite's own left by a dropped one) or a user version is another
    // application's mark, tables or not.
    if schema.isEmpty, version == 0 { return .empty }
    // Unmarked, with a schema: a store routine made before it marked them has only routine's
    // tables (and their indexes), and migrations that routine knows, the first among them.
    // Table names alone prove nothing (another app may have "events").
    let tables = Set(schema.filter { $0.type == "table" && !$0.isSQLitesOwn }.map(\.name))
    if version == 0, schema.allSatisfy({ $0.type == "table" || $0.type == "index" }),
      tables.isSubset(of: EventStore.unmarkedTables), tables.contains("migrations"),
      let recorded = try? appliedMigrations(connection), recorded.contains(Migration.all[0].name),
      recorded.isSubset(of: Set(Migration.all.map(\.name)))
    {
      return .store
    }
    throw .foreign(path: path, detail: describe(schema, version: version))
  }

  /// An entry of a database's schema (`sqlite_schema`).
  struct SchemaObject: Equatable {
    /// `table`, `view`, `index` or `trigger`.
    var type: String
    var name: String

    /// Whether SQLite made it itself (`sqlite_sequence`, `sqlite_stat1`).
    var isSQLitesOwn: Bool { name.hasPrefix("sqlite_") }
  }

  /// Every entry of the schema but the indexes SQLite makes for a table's own constraints.
  static func schemaObjects(_ connection: Connection) throws(SQLiteError) -> [SchemaObject] {
    let statement = try connection.prepare(
      "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_autoindex\\_%' ESCAPE '\\'"
    )
    var objects: [SchemaObject] = []
    while try statement.step() {
      objects.append(
        SchemaObject(type: statement.text(at: 0) ?? "", name: statement.text(at: 1) ?? ""))
    }
    return objects
  }

  /// What shows a database is another application's: "it has the tables 'a', 'b' and the view
  /// 'v'" (at most four names of each type), else its user version.
  private static func describe(_ schema: [SchemaObject], version: Int64) -> String {
    guard !schema.isEmpty else { return "its user version is \(version)" }
    let groups = ["table", "view", "trigger", "index"].compactMap { type -> String? in
      let names = schema.filter { $0.type == type }.map(\.name).sorted()
      guard !names.isEmpty else { return nil }
      let listed = names.prefix(4).map { "'\($0)'" }.joined(separator: ", ")
      let plural = type == "index" ? "indexes" : type + "s"
      return "the \(names.count == 1 ? type : plural) \(listed)\(names.count > 4 ? ", ..." : "")"
    }
    let joined =
      groups.count == 1
      ? groups[0] : groups.dropLast().joined(separator: ", ") + " and " + groups.last!
    return "it has \(joined)"
  }

  private static func tableNames(_ connection: Connection) throws(SQLiteError) -> Set<String> {
    let statement = try connection.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    )
    var names = Set<String>()
    while try statement.step() { names.insert(statement.text(at: 0) ?? "") }
    return names
  }

  /// A SQLite failure as the store error a user should read. A store opened for reading only
  /// because its disk is full refuses a write for that reason.
  private func classify(_ error: SQLiteError) -> StoreError {
    if error.primaryCode == 8, case .diskFull? = whyReadOnly { return whyReadOnly! }
    return EventStore.classify(error, path: path, opening: false)
  }

  /// A SQLite failure as the store error a user should read: a file that is not a database, a
  /// damaged store, or the SQLite error itself (busy, I/O, full disk).
  /// While the store is being opened, a generic SQLITE_ERROR also means damage ("unsupported
  /// file format", "malformed database schema"); later it is reported as it is.
  private static func classify(_ error: SQLiteError, path: String, opening: Bool) -> StoreError {
    if error.isDiskFull {
      return .diskFull(
        path: path, mountPoint: FileSystem.mountPoint(of: FileSystem.parent(of: path)))
    }
    if error.isBusy || error.isIOError { return .database(error, path: path) }
    // SQLITE_CORRUPT, SQLITE_FORMAT, SQLITE_NOTADB.
    var damage: Set<Int32> = [11, 24, 26]
    if opening { damage.insert(1) }
    guard damage.contains(error.primaryCode) else { return .database(error, path: path) }
    if hasSQLiteHeader(path) { return .damaged(path: path, detail: error.message) }
    // A store whose first bytes were overwritten has lost the magic string, but its schema
    // still names routine's tables further on: that is a damaged store, not another file.
    return holdsRoutineSchema(path)
      ? .damaged(path: path, detail: "its header is not a SQLite header")
      : .notADatabase(path: path)
  }

  /// Whether the file's first 64 MiB hold the definition of routine's `migrations` table, as
  /// SQLite keeps it in the schema.
  private static func holdsRoutineSchema(_ path: String) -> Bool {
    if openFiles.contains(path) { return true }
    let marker = Array(
      "CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)".utf8)
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var window: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    for _ in 0..<64 {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return false }
      // The tail of the previous chunk stays, for a marker split between two reads.
      window = Array(window.suffix(marker.count - 1)) + chunk[..<count]
      if window.firstRange(of: marker) != nil { return true }
    }
    return false
  }

  /// Refuses another application's database before SQLite opens it to write: opening would
  /// replay its unfinished journal, or checkpoint and delete its write-ahead log on closing,
  /// which changes a file routine promises to leave alone. The header's application id says
  /// it at once; an unmarked database with a journal or log beside it is identified through a
  /// connection that reads the main file only.
  private static func identifyUntouched(_ path: String) throws(StoreError) {
    // Open in this process already: identified then, and not to be opened and closed now.
    if openFiles.contains(path) { return }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    var header = [UInt8](repeating: 0, count: 100)
    let count = header.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, 100) }
    close(descriptor)
    guard count == 100, header.prefix(16) == Array("SQLite format 3\0".utf8)[...] else { return }
    let owner = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
    if owner == EventStore.applicationID { return }
    guard owner == 0 else {
      throw .foreign(path: path, detail: "application id \(owner)")
    }
    guard
      (FileSystem.size(of: path + "-wal") ?? 0) > 0
        || (FileSystem.size(of: path + "-journal") ?? 0) > 0
    else { return }
    guard let reader = try? Connection(readingOnly: path, access: .immutable) else { return }
    try identify(reader, path: path)
    // Routine's stores come into place complete and marked; an unmarked one whose schema is
    // all still in a log is not one of them.
    guard (try? schemaObjects(reader).isEmpty) != true else {
      throw .foreign(path: path, detail: "its data is in a journal or log routine leaves alone")
    }
  }

  /// Whether the file starts with SQLite's magic string (a damaged database still does).
  private static func hasSQLiteHeader(_ path: String) -> Bool {
    // A store this process has open had the header when it was opened.
    if openFiles.contains(path) { return true }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 16)
    let count = header.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, 16) }
    return count == 16 && header == Array("SQLite format 3\0".utf8)
  }

  // MARK: Migrations

  private static func migrate(_ connection: Connection, path: String) throws(StoreError) {
    do {
      let hasMigrations = try tableNames(connection).contains("migrations")
      if try !hasMigrations || markIsMissing(connection) {
        try connection.transaction {
          try connection.execute(
            "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)"
          )
          try connection.execute("PRAGMA application_id = \(EventStore.applicationID)")
        }
        // The mark belongs in the main file's header, where it is read before SQLite opens a
        // store (identifyUntouched), not only in the log of a process that may stay open.
        _ = try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
      }
      var applied = try appliedMigrations(connection)
      let known = Set(Migration.all.map(\.name))
      let unknown = applied.subtracting(known)
      guard unknown.isEmpty else {
        throw StoreError.newerVersion(path: path, unknownMigrations: unknown.sorted())
      }
      for migration in Migration.all where !applied.contains(migration.name) {
        try connection.transaction {
          // Another process may have applied it while we waited for the lock.
          applied = try appliedMigrations(connection)
          guard !applied.contains(migration.name) else { return }
          try connection.execute(migration.sql)
          let record = try connection.prepare(
            "INSERT INTO migrations (name, applied_at) VALUES (?, strftime('%s', 'now'))")
          try record.bind(migration.name, at: 1)
          try record.step()
        }
      }
    } catch let error as StoreError {
      throw error
    } catch let error as SQLiteError {
      throw classify(error, path: path, opening: true)
    } catch {
      throw .database(SQLiteError(code: 1, message: "\(error)", sql: nil), path: path)
    }
  }

  private static func markIsMissing(_ connection: Connection) throws -> Bool {
    try connection.scalarInt("PRAGMA application_id") != Int64(EventStore.applicationID)
  }

  private static func appliedMigrations(_ connection: Connection) throws -> Set<String> {
    let statement = try connection.prepare("SELECT name FROM migrations")
    var names = Set<String>()
    while try statement.step() { names.insert(statement.text(at: 0) ?? "") }
    return names
  }

  /// The names of the applied migrations, in order.
  public func migrations() throws -> [String] {
    try withDatabase {
      let statement = try connection.prepare("SELECT name FROM migrations ORDER BY name")
      var names: [String] = []
      while try statement.step() { names.append(statement.text(at: 0) ?? "") }
      return names
    }
  }

  // MARK: Kinds

  /// The id of `kind`, adding it when new (inside the caller's transaction).
  func kindID(for kind: EventKind) throws -> Int64 {
    if let id = kindIDs[kind.key] { return id }
    let select = try connection.prepare("SELECT id FROM kinds WHERE key = ?")
    try select.bind(kind.key, at: 1)
    if try select.step() {
      let id = select.int(at: 0)
      kindIDs[kind.key] = id
      return id
    }
    let insert = try connection.prepare("INSERT INTO kinds (key, name) VALUES (?, ?)")
    try insert.bind(kind.key, at: 1)
    try insert.bind(kind.name, at: 2)
    try insert.step()
    let id = connection.lastInsertRowID
    kindIDs[kind.key] = id
    return id
  }

  /// Forgets cached kind ids (after kinds were renamed or merged).
  func forgetKindIDs() { kindIDs = [:] }

  /// Every kind in the store, by id.
  public func kinds() throws -> [Int64: EventKind] {
    try withDatabase {
      let statement = try connection.prepare("SELECT id, key, name FROM kinds")
      var result: [Int64: EventKind] = [:]
      while try statement.step() {
        result[statement.int(at: 0)] = EventKind(
          name: statement.text(at: 2) ?? "", key: statement.text(at: 1) ?? "")
      }
      return result
    }
  }
}

extension StoreError {
  /// Whether a store that could not be opened to write may still be read: where this process
  /// may not write, or on a full disk.
  fileprivate var allowsReading: Bool {
    switch self {
    case .database(let sqlite, _): return sqlite.isPermissionDenied
    case .diskFull: return true
    default: return false
    }
  }
}

/// `read(2)`, callable from a type that has a `read` method of its own.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}
