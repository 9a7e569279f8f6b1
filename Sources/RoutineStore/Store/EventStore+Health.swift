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
  /// transaction: all or nothing. Importing the same export again adds nothing; a workout or a night the store already holds
  /// from another source (another app's export) is not added again (``insertImported(_:source:)``).
  public func importHealthExport(
    from reader: AppleHealthReader, from firstDate: LocalDate? = nil,
    source: EventSource = .import
  ) throws -> HealthImportSummary {
    var mapping = HealthMapping(from: firstDate)
    let reading = try reader.read(into: &mapping)
    let result = mapping.finish()
    return try write {
      var summary = HealthImportSummary(reading: reading, mapping: result)
      // The same rule as other apps' exports: a workout or a night the store already holds,
      // from this export or another source, is not added again.
      (summary.added, summary.alreadyPresent) = try insertImported(result.events, source: source)
      return summary
    }
  }
}
