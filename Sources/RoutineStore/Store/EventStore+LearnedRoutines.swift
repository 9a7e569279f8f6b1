import RoutineCore

extension EventStore {

  /// Replaces the saved routines with `routines` (at plan time).
  public func saveLearnedRoutines(_ routines: [LearnedRoutine]) throws {
    try write {
      try connection.execute("DELETE FROM learned_routines")
      let insert = try connection.prepare(
        """
        INSERT INTO learned_routines (kind_key, kind_name, time, weekdays, tolerance, threshold)
        VALUES (?, ?, ?, ?, ?, ?)
        """)
      for routine in routines {
        insert.reset()
        try insert.bind(routine.kind.key, at: 1)
        try insert.bind(routine.kind.name, at: 2)
        try insert.bind(Int64(routine.time.secondsSinceMidnight), at: 3)
        try insert.bind(Int64(routine.weekdays.rawValue), at: 4)
        try insert.bind(Int64(routine.toleranceSeconds), at: 5)
        try insert.bind(Int64(routine.thresholdSeconds), at: 6)
        try insert.step()
      }
    }
  }

  /// The saved routines of `kind`.
  public func learnedRoutines(of kind: EventKind) throws -> [LearnedRoutine] {
    try read {
      let select = try connection.prepare(
        "SELECT kind_name, time, weekdays, tolerance, threshold FROM learned_routines WHERE kind_key = ?"
      )
      try select.bind(kind.key, at: 1)
      var result: [LearnedRoutine] = []
      while try select.step() {
        result.append(
          LearnedRoutine(
            kind: EventKind(name: select.text(at: 0) ?? kind.name, key: kind.key),
            time: TimeOfDay(secondsSinceMidnight: Int(select.int(at: 1))),
            weekdays: WeekdaySet(rawValue: UInt8(truncatingIfNeeded: select.int(at: 2))),
            toleranceSeconds: Int(select.int(at: 3)), thresholdSeconds: Int(select.int(at: 4))))
      }
      return result
    }
  }
}
