import RoutineCore

/// How many day marks an import added, and how many the store held already.
public struct DayMarkSummary: Sendable, Equatable {
  /// Marks new to the store.
  public var added: Int
  /// Marks the store held already (a second import of the same file adds nothing).
  public var alreadyPresent: Int
}

extension EventStore {
  /// Adds `marks` from `source` (`loop`), leaving those the store holds (the same kind and
  /// date) as they are: a day is done once, whatever the file says twice.
  public func addDayMarks(_ marks: [DayMark], source: String) throws -> DayMarkSummary {
    try write {
      let insert = try connection.prepare(
        """
        INSERT OR IGNORE INTO day_marks (kind_key, kind_name, day, source)
        VALUES (?, ?, ?, ?)
        """)
      var added = 0
      for mark in marks {
        insert.reset()
        try insert.bind(mark.kind.key, at: 1)
        try insert.bind(mark.kind.name, at: 2)
        try insert.bind(Int64(mark.date.daysSince1970), at: 3)
        try insert.bind(source, at: 4)
        _ = try insert.step()
        added += connection.changes
      }
      return DayMarkSummary(added: added, alreadyPresent: marks.count - added)
    }
  }

  /// The dates marked done for each of `keys` (kinds' keys) from `first` through `last`, by key,
  /// oldest first.
  public func markedDays(ofKeys keys: Set<String>, from first: LocalDate, through last: LocalDate)
    throws -> [String: [LocalDate]]
  {
    guard !keys.isEmpty else { return [:] }
    return try read {
      let select = try connection.prepare(
        "SELECT day FROM day_marks WHERE kind_key = ? AND day >= ? AND day <= ? ORDER BY day")
      var result: [String: [LocalDate]] = [:]
      for key in keys {
        select.reset()
        try select.bind(key, at: 1)
        try select.bind(Int64(first.daysSince1970), at: 2)
        try select.bind(Int64(last.daysSince1970), at: 3)
        var dates: [LocalDate] = []
        while try select.step() { dates.append(LocalDate(daysSince1970: Int(select.int(at: 0)))) }
        if !dates.isEmpty { result[key] = dates }
      }
      return result
    }
  }

  /// How many days are marked done, for each kind's key that has any.
  public func dayMarkCounts() throws -> [String: Int] {
    try read {
      let select = try connection.prepare(
        "SELECT kind_key, count(*) FROM day_marks GROUP BY kind_key")
      var result: [String: Int] = [:]
      while try select.step() { result[select.text(at: 0) ?? ""] = Int(select.int(at: 1)) }
      return result
    }
  }

  /// The names of the kinds that have days marked done, each once.
  public func dayMarkedKindNames() throws -> [String] {
    try read {
      let select = try connection.prepare(
        "SELECT kind_name FROM day_marks GROUP BY kind_key ORDER BY kind_key")
      var names: [String] = []
      while try select.step() { names.append(select.text(at: 0) ?? "") }
      return names
    }
  }

  /// The kind `kind` names among the days marked done, with the name they were imported under.
  public func dayMarkedKind(_ kind: EventKind) throws -> EventKind? {
    try read {
      let select = try connection.prepare(
        "SELECT kind_name FROM day_marks WHERE kind_key = ? LIMIT 1")
      try select.bind(kind.key, at: 1)
      guard try select.step() else { return nil }
      return EventKind(name: select.text(at: 0) ?? kind.name, key: kind.key)
    }
  }

  /// Moves the marks of the kind `old` to `new` (a kind renamed or merged), inside the caller's
  /// transaction; a date both hold stays once.
  func renameDayMarks(from old: EventKind, to new: EventKind) throws {
    let move = try connection.prepare(
      "UPDATE OR IGNORE day_marks SET kind_key = ?, kind_name = ? WHERE kind_key = ?")
    try move.bind(new.key, at: 1)
    try move.bind(new.name, at: 2)
    try move.bind(old.key, at: 3)
    _ = try move.step()
    guard new.key != old.key else { return }
    let drop = try connection.prepare("DELETE FROM day_marks WHERE kind_key = ?")
    try drop.bind(old.key, at: 1)
    _ = try drop.step()
  }
}
