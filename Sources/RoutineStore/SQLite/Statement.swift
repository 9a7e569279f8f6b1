import CSQLite

/// A prepared statement. Parameters are 1-based as in SQLite; columns are 0-based.
public final class Statement {
  private let pointer: OpaquePointer
  private let connection: Connection
  /// The SQL, for error messages.
  public let sql: String

  init(connection: Connection, sql: String, persistent: Bool = false) throws(SQLiteError) {
    var statement: OpaquePointer?
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    guard sqlite3_prepare_v3(connection.handle, sql, -1, flags, &statement, nil) == SQLITE_OK,
      let statement
    else { throw connection.error(sql: sql) }
    pointer = statement
    self.connection = connection
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(pointer)
  }

  /// Binds a 64-bit integer.
  public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
    try check(sqlite3_bind_int64(pointer, index, value))
  }

  /// Binds a 64-bit integer, or NULL.
  public func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
    if let value {
      try check(sqlite3_bind_int64(pointer, index, value))
    } else {
      try check(sqlite3_bind_null(pointer, index))
    }
  }

  /// Binds a double, or NULL.
  public func bind(_ value: Double?, at index: Int32) throws(SQLiteError) {
    if let value {
      try check(sqlite3_bind_double(pointer, index, value))
    } else {
      try check(sqlite3_bind_null(pointer, index))
    }
  }

  /// Binds text, or NULL.
  public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
    guard var value else {
      try check(sqlite3_bind_null(pointer, index))
      return
    }
    let status = value.withUTF8 { bytes in
      bindStatus(UnsafeRawBufferPointer(bytes), at: index)
    }
    try check(status)
  }

  /// Binds UTF-8 bytes as text (copied by SQLite).
  public func bindText(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
    try check(bindStatus(bytes, at: index))
  }

  /// Binds UTF-8 bytes as text *without copying*: the bytes must stay valid and unchanged until
  /// the statement is stepped, reset, rebound or finalized (SQLite's `SQLITE_STATIC`). Saves a
  /// copy per row in bulk inserts.
  public func bindBorrowedText(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError)
  {
    try check(bindStatus(bytes, at: index, destructor: nil))
  }

  private func bindStatus(
    _ bytes: UnsafeRawBufferPointer, at index: Int32,
    destructor: sqlite3_destructor_type? = sqliteTransient
  ) -> Int32 {
    // A nil pointer would bind NULL; empty text needs a real (empty) string.
    let base =
      bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
      ?? UnsafeRawPointer(emptyText.utf8Start).assumingMemoryBound(to: CChar.self)
    return sqlite3_bind_text(pointer, index, base, Int32(bytes.count), destructor)
  }

  /// Steps once: `true` when a row is available, `false` when done.
  @discardableResult
  public func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(pointer) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw connection.error(sql: sql)
    }
  }

  /// Resets the statement for reuse, keeping bindings unless `clearingBindings`.
  public func reset(clearingBindings: Bool = false) {
    sqlite3_reset(pointer)
    if clearingBindings { sqlite3_clear_bindings(pointer) }
  }

  /// Column `index` as a 64-bit integer.
  public func int(at index: Int32) -> Int64 { sqlite3_column_int64(pointer, index) }

  /// Column `index` as a double.
  public func double(at index: Int32) -> Double { sqlite3_column_double(pointer, index) }

  /// Whether column `index` is NULL.
  public func isNull(at index: Int32) -> Bool { sqlite3_column_type(pointer, index) == SQLITE_NULL }

  /// Column `index` as text, or `nil` when NULL.
  public func text(at index: Int32) -> String? {
    guard let bytes = sqlite3_column_text(pointer, index) else { return nil }
    let count = Int(sqlite3_column_bytes(pointer, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Calls `body` with the bytes of column `index` as text (empty when NULL), valid only during
  /// the call: no `String` is made.
  public func withText<T>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows
    -> T
  {
    guard let bytes = sqlite3_column_text(pointer, index) else {
      return try body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    return try body(
      UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(pointer, index))))
  }

  /// The first byte of column `index` as text, or `nil` when NULL or empty: enough to tell
  /// apart values of a column with a CHECK constraint, without a `String` per row.
  public func firstByte(at index: Int32) -> UInt8? {
    guard let bytes = sqlite3_column_text(pointer, index), sqlite3_column_bytes(pointer, index) > 0
    else { return nil }
    return bytes[0]
  }

  private func check(_ status: Int32) throws(SQLiteError) {
    guard status == SQLITE_OK else { throw connection.error(sql: sql) }
  }
}

private let emptyText: StaticString = ""

/// SQLite's `SQLITE_TRANSIENT`: the C macro is a cast Swift does not import.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
