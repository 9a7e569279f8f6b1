import RoutineCore

/// An answer to a notification, as stored.
public struct AnswerRecord: Hashable, Sendable {
  /// The firing answered.
  public var occurrence: Occurrence
  /// The action.
  public var action: String
  /// When.
  public var answeredAt: Int64
  /// The event it logged, if any.
  public var eventID: Int64?
  /// The confirmation given.
  public var message: String
  /// When the event it logged was undone (`routine undo`): the answer no longer counts.
  public var undoneAt: Int64?
}

extension EventStore {

  /// Records an answer; returns `false` when the same answer to the same firing was recorded
  /// already (it is stored once).
  public func recordAnswer(
    _ occurrence: Occurrence, action: String, at now: Int64, eventID: Int64?, message: String
  ) throws -> Bool {
    try write {
      let insert = try connection.prepare(
        """
        INSERT OR IGNORE INTO answers (request_id, occurrence, action, answered_at, event_id, message)
        VALUES (?, ?, ?, ?, ?, ?)
        """)
      try insert.bind(occurrence.requestID, at: 1)
      try insert.bind(occurrence.at, at: 2)
      try insert.bind(action, at: 3)
      try insert.bind(now, at: 4)
      if let eventID { try insert.bind(eventID, at: 5) }
      try insert.bind(message, at: 6)
      try insert.step()
      return connection.changes > 0
    }
  }

  /// The answer `action` to the firing, if it was given.
  public func answer(to occurrence: Occurrence, action: String) throws -> AnswerRecord? {
    try answers(requestID: occurrence.requestID).first {
      $0.occurrence == occurrence && $0.action == action && $0.undoneAt == nil
    }
  }

  /// The answers given in `from..<to` (either bound optional), of `requestID` when given,
  /// oldest first.
  public func answers(from: Int64? = nil, to: Int64? = nil, requestID: String? = nil) throws
    -> [AnswerRecord]
  {
    try read {
      let cursor = try answerCursor(from: from, to: to, requestID: requestID)
      var result: [AnswerRecord] = []
      while let answer = try cursor.next() { result.append(answer) }
      return result
    }
  }

  /// The answers of ``answers(from:to:requestID:)``, in the same order, one at a time.
  public func answerCursor(from: Int64? = nil, to: Int64? = nil, requestID: String? = nil)
    throws -> StoreCursor<AnswerRecord>
  {
    try withDatabase {
      let select = try connection.prepare(
        """
        SELECT \(EventStore.answerColumns) FROM answers
        WHERE answered_at >= ?1 AND answered_at < ?2 AND (?3 IS NULL OR request_id = ?3)
        ORDER BY answered_at, id
        """)
      try select.bind(from ?? Int64.min, at: 1)
      try select.bind(to ?? Int64.max, at: 2)
      try select.bind(requestID, at: 3)
      return StoreCursor(store: self, statement: select, decode: EventStore.answer(from:))
    }
  }

  /// The answers to the firing `occurrence`, oldest first.
  public func answers(to occurrence: Occurrence) throws -> [AnswerRecord] {
    try read {
      let select = try connection.prepare(
        """
        SELECT \(EventStore.answerColumns) FROM answers
        WHERE request_id = ? AND occurrence = ?
        ORDER BY answered_at, id
        """)
      try select.bind(occurrence.requestID, at: 1)
      try select.bind(occurrence.at, at: 2)
      var result: [AnswerRecord] = []
      while try select.step() { result.append(EventStore.answer(from: select)) }
      return result
    }
  }

  private static let answerColumns =
    "request_id, occurrence, action, answered_at, event_id, message, undone_at"

  private static func answer(from row: Statement) -> AnswerRecord {
    AnswerRecord(
      occurrence: Occurrence(requestID: row.text(at: 0) ?? "", at: row.int(at: 1)),
      action: row.text(at: 2) ?? "", answeredAt: row.int(at: 3),
      eventID: row.isNull(at: 4) ? nil : row.int(at: 4), message: row.text(at: 5) ?? "",
      undoneAt: row.isNull(at: 6) ? nil : row.int(at: 6))
  }

  /// firings can be answered again.
  public func markAnswersUndone(eventIDs: [Int64], at now: Int64) throws {
    guard !eventIDs.isEmpty else { return }
    try write {
      let update = try connection.prepare(
        "UPDATE answers SET undone_at = ? WHERE event_id = ? AND undone_at IS NULL")
      for id in eventIDs {
        update.reset()
        try update.bind(now, at: 1)
        try update.bind(id, at: 2)
        try update.step()
      }
    }
  }
}
