import Foundation

/// What is known about a learned routine when its confidence is estimated: the evidence a
/// ``ConfidenceModel`` weighs.
///
/// Every count comes from the person's own log before the day forecast; nothing from the
/// day itself or later.
public struct ConfidenceFeatures: Sendable, Hashable {
  /// The window's recency-weighted leave-one-day-out estimate (Laplace's rule; see
  /// docs/analytics.md): how well the window's days agree with each other.
  public var heldOut: Double
  /// The track record: on how many of the record's days (see ``TrackRecord``) the routine of
  /// the same slot learned the day before came true.
  public var recordHits: Int
  /// The record's days on which a routine of the slot was learned; 0 for no record (a new
  /// routine, a long window, or a routine of some days of the week).
  public var recordDays: Int
  /// The records of every routine learned for the same day, pooled: how often this person's
  /// forecasts came true lately, whatever the slot.
  public var pooledHits: Int
  /// The forecasts ``pooledHits`` counts among.
  public var pooledDays: Int
  /// How many days of record the window's estimate counts as, where the record and the
  /// window are blended (``AnalysisConfiguration/trackRecordWindowWeight``).
  public var windowWeight: Double
  /// Whether the significance test refused the slot: its hits are no more than events at
  /// random times would give (a kind logged many times a day). Such a routine is still a
  /// forecast, and the model says what it is worth.
  public var unclaimed = false
  /// Whether it was learned from the long look-back (``AnalysisConfiguration/longLookBackDays``)
  /// rather than the window: a slot four weeks show may be one the last week does not.
  public var isLong = false
  /// Whether the other look-back has a routine in the same slot: two look-backs that agree
  /// are more than either.
  public var agrees = false

  /// Features from their counts.
  public init(
    heldOut: Double, recordHits: Int = 0, recordDays: Int = 0, pooledHits: Int = 0,
    pooledDays: Int = 0, windowWeight: Double = 4
  ) {
    self.heldOut = heldOut
    self.recordHits = recordHits
    self.recordDays = recordDays
    self.pooledHits = pooledHits
    self.pooledDays = pooledDays
    self.windowWeight = windowWeight
  }

  /// The names of ``vector``'s entries, in order (the fit prints them beside the weights).
  public static let names = [
    "no record", "held out", "pooled record", "blended", "unclaimed", "long look-back", "agrees",
  ]

  /// The numbers the model weighs, in the order of ``names``: rates on the log-odds scale,
  /// where a logistic model adds evidence. A missing record reads as even odds with the
  /// "no record" indicator set, so that its weight can say what a new routine is worth.
  public var vector: [Double] {
    // Half a hit and half a miss added keep a rate of 0 or 1 finite.
    func logOdds(_ hits: Double, _ misses: Double) -> Double { log((hits + 0.5) / (misses + 0.5)) }
    func logOdds(_ rate: Double) -> Double {
      let clamped = min(max(rate, 0.01), 0.99)
      return log(clamped / (1 - clamped))
    }
    // The estimator the learner used before the model: the record with the window's estimate
    // counted as `windowWeight` more days.
    let blended =
      (Double(recordHits) + windowWeight * heldOut) / (Double(recordDays) + windowWeight)
    return [
      recordDays > 0 ? 0 : 1,
      logOdds(heldOut),
      pooledDays > 0 ? logOdds(Double(pooledHits), Double(pooledDays - pooledHits)) : 0,
      logOdds(blended),
      unclaimed ? 1 : 0,
      isLong ? 1 : 0,
      agrees ? 1 : 0,
    ]
  }
}

/// A logistic model of a routine's confidence: the probability that, on a day of its kind, the
/// event happens within the tolerance of its time, `1 / (1 + exp(-(b + w · x)))` for the
/// features x (see ``ConfidenceFeatures/vector``).
///
/// The weights are fitted offline on a population of logs (`routine-bench --fit`) and shipped
/// as ``shipped``; docs/analytics.md says how and with what result.
public struct ConfidenceModel: Sendable, Hashable {
  /// One weight per feature, in the order of ``ConfidenceFeatures/names``.
  public var weights: [Double]
  /// The intercept b.
  public var intercept: Double

  /// A model with the given weights and intercept.
  public init(weights: [Double], intercept: Double) {
    self.weights = weights
    self.intercept = intercept
  }

  /// The confidence of a routine with `features`.
  public func confidence(_ features: ConfidenceFeatures) -> Double {
    let x = features.vector
    var z = intercept
    for index in 0..<min(x.count, weights.count) { z += weights[index] * x[index] }
    return 1 / (1 + exp(-z))
  }
}

/// The evidence behind a routine's confidence, kept with the routine so that the track record
/// can estimate it again. Not part of a routine's identity: two routines alike in everything a
/// user sees are equal whatever their evidence.
struct RoutineEvidence: Sendable, Hashable {
  var features: ConfidenceFeatures

  static func == (_: RoutineEvidence, _: RoutineEvidence) -> Bool { true }
  func hash(into _: inout Hasher) {}
}
