/// A day something was done, without a time of day: a habit tracker's checkmark (Loop Habit
/// Tracker's `Checkmarks.csv`, docs/formats.md).
///
/// Day marks are not events: they count for a habit's days (its strength and streak) and for
/// nothing that reads a time of day (the analyzer, the learner, outlier checks), which would
/// otherwise learn a routine at whatever hour was made up for them.
public struct DayMark: Hashable, Sendable {
  /// What was done (a habit's name).
  public var kind: EventKind
  /// The local date it was done on.
  public var date: LocalDate

  /// A mark of `kind` on `date`.
  public init(kind: EventKind, date: LocalDate) {
    self.kind = kind
    self.date = date
  }
}
