import Foundation

/// What a routine's own counts can support: Wilson's score interval of k hits in n days
/// (docs/analytics.md, "Confidence within its own evidence").
///
/// A confidence is a probability estimated from evidence beyond the routine's own days (the
/// person's pooled record, the slot's track record, the model's weights), and that evidence may
/// move it, but only within what the days the reasoning names allow: "4 of the last 25 days"
/// can mean at most about 35%, whatever the person's other habits are worth.
public enum EvidenceBound {
  /// The normal quantile of the interval: 1.96, a 95% interval.
  public static let z = 1.96

  /// Wilson's score interval for `hits` of `days` at `z`; `0...1` for no days.
  public static func interval(hits: Int, of days: Int, z: Double = z) -> ClosedRange<Double> {
    guard days > 0 else { return 0...1 }
    let n = Double(days)
    let p = Double(min(max(hits, 0), days)) / n
    let z2 = z * z
    let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    let half = z * ((p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()) / (1 + z2 / n)
    return max(0, centre - half)...min(1, centre + half)
  }

  /// `confidence` within what `hits` of `days` support: no more than the upper end of their
  /// interval (and, with a track record of `recordHits` of `recordDays`, no more than that
  /// record's either: both are the routine's own counts, and the reasoning states both).
  public static func bounded(
    _ confidence: Double, hits: Int, of days: Int, recordHits: Int = 0, recordDays: Int = 0
  ) -> Double {
    var upper = interval(hits: hits, of: days).upperBound
    if recordDays > 0 { upper = min(upper, interval(hits: recordHits, of: recordDays).upperBound) }
    return min(confidence, upper)
  }
}
