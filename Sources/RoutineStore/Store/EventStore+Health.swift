import RoutineCore

extension EventStore {
  /// What importing an Apple Health export did: the reader's counts, the mapping's, and the
  /// store's.
  public struct HealthImportSummary: Sendable, Equatable {
    /// What the reader saw (records, skipped types).
    public var reading: AppleHealthReader.Summary
    /// What the records became.
    public var mapping: HealthMapping.Result
    /// Events added.
    public var added = 0
    /// Events the store already held.
    public var alreadyPresent = 0
  }

  /// Imports the events the Apple Health export `reader` reads, mapped by the rules of
  /// ``HealthMapping`` (events before `firstDate`, their own local date, are left out), in one
  /// transaction: all or nothing. Importing the same export again adds nothing.
  public func importHealthExport(
    from reader: AppleHealthReader, from firstDate: LocalDate? = nil,
    source: EventSource = .import
  ) throws -> HealthImportSummary {
    var mapping = HealthMapping(from: firstDate)
    let reading = try reader.read(into: &mapping)
    let result = mapping.finish()
    return try write {
      var summary = HealthImportSummary(reading: reading, mapping: result)
      let inserter = try EventInserter(connection: connection, source: source)
      var kinds: [EventKind: Int64] = [:]
      for event in result.events {
        let id: Int64
        if let known = kinds[event.kind] {
          id = known
        } else {
          id = try kindID(for: event.kind)
          kinds[event.kind] = id
        }
        if try inserter.insert(
          at: event.timestamp, kindID: id, value: event.value, note: event.note)
        {
          summary.added += 1
        } else {
          summary.alreadyPresent += 1
        }
      }
      return summary
    }
  }
}
