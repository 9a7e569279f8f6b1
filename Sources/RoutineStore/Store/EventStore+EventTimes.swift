import RoutineCore

extension EventStore {
  /// The times of the events of every kind that counts as `kind` (``ActivityPreset/kinds(countingAs:)``)
  /// at instants in `from...to`, in time order.
  public func eventTimes(countingAs kind: EventKind, from: Int64, to: Int64) throws -> [Timestamp] {
    let kinds = ActivityPreset.kinds(countingAs: kind)
    guard kinds.count > 1 else { return try eventTimes(of: kind, from: from, to: to) }
    return try kinds.flatMap { try eventTimes(of: $0, from: from, to: to) }.sorted()
  }

  /// The times of the events of `kind` at instants in `from...to`: a range of the time index,
  /// filtered by kind.
  public func eventTimes(of kind: EventKind, from: Int64, to: Int64) throws -> [Timestamp] {
    try read {
      let select = try connection.prepare(
        """
        SELECT at, utc_offset FROM events
        WHERE at >= ? AND at <= ? AND kind_id = (SELECT id FROM kinds WHERE key = ?)
        ORDER BY at
        """)
      try select.bind(from, at: 1)
      try select.bind(to, at: 2)
      try select.bind(kind.key, at: 3)
      var result: [Timestamp] = []
      while try select.step() {
        result.append(
          .stored(at: select.int(at: 0), offset: select.int(at: 1)))
      }
      return result
    }
  }

  /// The times of every event at instants in `from...to`, by kind key (each kind's in time
  /// order): one range of the time index, for checks that watch thousands of kinds.
  public func eventTimesByKind(from: Int64, to: Int64) throws -> [String: [Timestamp]] {
    try read {
      let select = try connection.prepare(
        """
        SELECT k.key, e.at, e.utc_offset FROM events e JOIN kinds k ON k.id = e.kind_id
        WHERE e.at >= ? AND e.at <= ?
        ORDER BY e.at
        """)
      try select.bind(from, at: 1)
      try select.bind(to, at: 2)
      var result: [String: [Timestamp]] = [:]
      while try select.step() {
        result[select.text(at: 0) ?? "", default: []].append(
          .stored(at: select.int(at: 1), offset: select.int(at: 2)))
      }
      return result
    }
  }
}
