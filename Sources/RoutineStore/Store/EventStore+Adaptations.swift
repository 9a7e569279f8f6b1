import RoutineCore

extension EventStore {
  private static let adaptationColumns = """
    key, mode, state, spacing, anchor_day, offset_minutes, offset_since, paused_since, resumed_at,
    strength, streak, explanation, computed_day, started_at
    """

  /// What the last plan decided for each reminder (``AdaptationRecord``), by key.
  public func adaptations() throws -> [String: AdaptationRecord] {
    try read {
      let select = try connection.prepare(
        "SELECT \(EventStore.adaptationColumns) FROM adaptations")
      var result: [String: AdaptationRecord] = [:]
      while try select.step() {
        let record = EventStore.adaptation(from: select)
        result[record.key] = record
      }
      return result
    }
  }

  /// The record of `key`, if one was kept.
  public func adaptation(key: String) throws -> AdaptationRecord? {
    try read {
      let select = try connection.prepare(
        "SELECT \(EventStore.adaptationColumns) FROM adaptations WHERE key = ?")
      try select.bind(key, at: 1)
      return try select.step() ? EventStore.adaptation(from: select) : nil
    }
  }

  /// Stores `records` at `now`, each replacing the one of its key; the keys in `removing` go.
  public func saveAdaptations(_ records: [AdaptationRecord], removing: [String] = [], at now: Int64)
    throws
  {
    try write {
      let upsert = try connection.prepare(
        """
        INSERT INTO adaptations (key, mode, state, spacing, anchor_day, offset_minutes,
          offset_since, paused_since, resumed_at, strength, streak, explanation, computed_day,
          updated_at, started_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
        ON CONFLICT (key) DO UPDATE SET mode = excluded.mode, state = excluded.state,
          spacing = excluded.spacing, anchor_day = excluded.anchor_day,
          offset_minutes = excluded.offset_minutes, offset_since = excluded.offset_since,
          paused_since = excluded.paused_since, resumed_at = excluded.resumed_at,
          strength = excluded.strength, streak = excluded.streak,
          explanation = excluded.explanation, computed_day = excluded.computed_day,
          updated_at = excluded.updated_at, started_at = excluded.started_at
        """)
      for record in records {
        upsert.reset()
        try upsert.bind(record.key, at: 1)
        try upsert.bind(record.mode.rawValue, at: 2)
        try upsert.bind(record.state.rawValue, at: 3)
        try upsert.bind(Int64(record.spacing), at: 4)
        try upsert.bind(record.anchorDay.map(Int64.init), at: 5)
        try upsert.bind(Int64(record.offsetMinutes), at: 6)
        try upsert.bind(record.offsetSince, at: 7)
        try upsert.bind(record.since.map(Int64.init), at: 8)
        try upsert.bind(record.countsSince, at: 9)
        try upsert.bind(record.strength, at: 10)
        try upsert.bind(record.streak.map(Int64.init), at: 11)
        try upsert.bind(
          record.explanations.isEmpty ? nil : record.explanations.joined(separator: "\n"), at: 12)
        try upsert.bind(record.computedDay.map(Int64.init), at: 13)
        try upsert.bind(now, at: 14)
        try upsert.bind(record.startedAt, at: 15)
        try upsert.step()
      }
      let delete = try connection.prepare("DELETE FROM adaptations WHERE key = ? AND mode = 'auto'")
      for key in removing {
        delete.reset()
        try delete.bind(key, at: 1)
        try delete.step()
      }
    }
  }

  /// Sets the mode of a learned reminder's adaptation (`reminders adapt routine_WakeUp off`).
  public func setAdaptationMode(key: String, _ mode: AdaptationMode, at now: Int64) throws {
    try write {
      var record = try adaptation(key: key) ?? AdaptationRecord(key: key)
      record.mode = mode
      if mode == .off {
        record.state = .active
        record.spacing = 1
        record.offsetMinutes = 0
        record.explanations = []
      }
      try saveAdaptations([record], at: now)
    }
  }

  /// Brings a paused or backing-off reminder back at `now` (`reminders resume`): full dose, its
  /// days from now on alone count towards the next pause. Returns the record as it was.
  @discardableResult
  public func resumeAdaptation(key: String, at now: Int64) throws -> AdaptationRecord? {
    try write {
      guard let before = try adaptation(key: key) else { return nil }
      var record = before
      record.state = .active
      record.spacing = 1
      record.since = nil
      record.countsSince = now
      record.explanations = ["resumed by you: full dose, and the days from now on decide again"]
      try saveAdaptations([record], at: now)
      return before
    }
  }

  /// Forgets the record of `key` (its reminder was removed).
  func deleteAdaptation(key: String) throws {
    let delete = try connection.prepare("DELETE FROM adaptations WHERE key = ?")
    try delete.bind(key, at: 1)
    try delete.step()
  }

  private static func adaptation(from row: Statement) -> AdaptationRecord {
    func int(_ column: Int32) -> Int? {
      row.isNull(at: column) ? nil : Int(clamping: row.int(at: column))
    }
    var record = AdaptationRecord(key: row.text(at: 0) ?? "")
    record.mode = row.text(at: 1).flatMap(AdaptationMode.init(rawValue:)) ?? .auto
    record.state = row.text(at: 2).flatMap(AdaptationRecord.State.init(rawValue:)) ?? .active
    // A store edited by hand holds what it holds: clamped to what the rules could decide.
    record.spacing = max(1, min(3, int(3) ?? 1))
    record.anchorDay = int(4)
    record.offsetMinutes = max(
      -Adaptation.maximumOffsetMinutes, min(Adaptation.maximumOffsetMinutes, int(5) ?? 0))
    record.offsetSince = row.isNull(at: 6) ? nil : row.int(at: 6)
    record.since = int(7)
    record.countsSince = row.isNull(at: 8) ? nil : row.int(at: 8)
    record.strength = row.isNull(at: 9) ? nil : max(0, min(1, row.double(at: 9)))
    record.streak = int(10).map { max(0, $0) }
    record.explanations =
      row.text(at: 11)?.split(separator: "\n").map(String.init) ?? []
    record.computedDay = int(12)
    record.startedAt = row.isNull(at: 13) ? nil : row.int(at: 13)
    return record
  }
}
