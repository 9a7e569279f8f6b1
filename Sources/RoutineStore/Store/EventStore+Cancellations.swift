import RoutineCore

extension EventStore {

  /// Records `cancellations` made at `now` (a firing already cancelled stays as it was); returns
  /// how many were new.
  @discardableResult
  public func addCancellations(_ cancellations: [Cancellation], at now: Int64) throws -> Int {
    guard !cancellations.isEmpty else { return 0 }
    return try write {
      let insert = try connection.prepare(
        """
        INSERT OR IGNORE INTO cancellations (request_id, occurrence, reminder_id, event_kind,
          event_at, event_offset, created_at, local_day, slot)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      var added = 0
      for cancellation in cancellations {
        insert.reset()
        try insert.bind(cancellation.occurrence.requestID, at: 1)
        try insert.bind(cancellation.occurrence.at, at: 2)
        try insert.bind(cancellation.reminderID, at: 3)
        try insert.bind(cancellation.eventKind, at: 4)
        try insert.bind(cancellation.eventAt.secondsSince1970, at: 5)
        try insert.bind(Int64(cancellation.eventAt.utcOffsetSeconds), at: 6)
        try insert.bind(now, at: 7)
        try bind(cancellation.slot, to: insert, at: 8)
        try insert.step()
        added += connection.changes
      }
      return added
    }
  }

  /// The cancellations of firings at or after `from` (all when `nil`), in time order.
  public func cancellations(from: Int64? = nil) throws -> [StoredCancellation] {
    try read {
      let select = try connection.prepare(
        """
        SELECT request_id, occurrence, reminder_id, event_kind, event_at, event_offset, created_at,
          restored_at, local_day, slot
        FROM cancellations WHERE occurrence >= ? ORDER BY occurrence, request_id
        """)
      try select.bind(from ?? Int64.min, at: 1)
      var result: [StoredCancellation] = []
      while try select.step() {
        result.append(
          StoredCancellation(
            cancellation: Cancellation(
              occurrence: Occurrence(
                requestID: select.text(at: 0) ?? "", at: select.int(at: 1),
                slot: EventStore.slot(select, at: 8)),
              reminderID: select.text(at: 2) ?? "", eventKind: select.text(at: 3) ?? "",
              eventAt: .stored(at: select.int(at: 4), offset: select.int(at: 5))),
            createdAt: select.int(at: 6),
            restoredAt: select.isNull(at: 7) ? nil : select.int(at: 7)))
      }
      return result
    }
  }

  /// Undoes the cancellations of reminder `reminderID` (or of the one firing of request
  /// `requestID`) still ahead of `now`: those firings happen after all, whatever the log says.
  /// Returns how many were undone.
  @discardableResult
  public func restoreCancellations(reminderID: String, requestID: String? = nil, now: Int64) throws
    -> Int
  {
    try write {
      let update = try connection.prepare(
        """
        UPDATE cancellations SET restored_at = ?1
        WHERE reminder_id = ?2 AND (?3 IS NULL OR request_id = ?3) AND occurrence > ?1
          AND restored_at IS NULL
        """)
      try update.bind(now, at: 1)
      try update.bind(reminderID, at: 2)
      try update.bind(requestID, at: 3)
      try update.step()
      return connection.changes
    }
  }

  /// Forgets cancellations of firings before `before` (they have passed); returns how many.
  @discardableResult
  public func removeExpiredCancellations(before: Int64) throws -> Int {
    try write {
      let delete = try connection.prepare("DELETE FROM cancellations WHERE occurrence < ?")
      try delete.bind(before, at: 1)
      try delete.step()
      return connection.changes
    }
  }

  func deleteCancellations(reminderID: String) throws {
    let delete = try connection.prepare("DELETE FROM cancellations WHERE reminder_id = ?")
    try delete.bind(reminderID, at: 1)
    try delete.step()
  }
}
