import Foundation

/// What is known about a learned routine when its confidence is estimated: the evidence a
/// ``ConfidenceModel`` weighs.
///
/// Every count comes from the person's own log before the day forecast; nothing from the
/// day itself or later.
public struct ConfidenceFeatures: Sendable, Hashable {
  /// Of the last (at most 7) observed days of the routine's kind of day, how many had an event
  /// within the tolerance of its time.
  public var recentHits: Int
  /// How many days ``recentHits`` counts among (fewer than 7 in a short window or a new log).
  public var recentDays: Int
  /// The track record: on how many of the record's days (see ``TrackRecord``) the routine of
  /// the same slot learned the day before came true.
  public var recordHits: Int
  /// The record's days on which a routine of the slot was learned; 0 for no record (a new
  /// routine, a long window, or a routine of some days of the week).
  public var recordDays: Int
  /// Whether the most recent observed day of the kind hit.
  public var lastHit: Bool
  /// The window's recency-weighted leave-one-day-out estimate (Laplace's rule; see
  /// docs/analytics.md): the learner's confidence before the model.
  public var heldOut: Double
  /// Observed days (see ``ObservedDays``) over the days of the learning window.
  public var completeness: Double
  /// Events of the kind per observed day of the routine's kind of day.
  public var eventsPerDay: Double

  /// Features from their counts.
  public init(
    recentHits: Int, recentDays: Int, recordHits: Int = 0, recordDays: Int = 0, lastHit: Bool,
    heldOut: Double, completeness: Double, eventsPerDay: Double
  ) {
    self.recentHits = recentHits
    self.recentDays = recentDays
    self.recordHits = recordHits
    self.recordDays = recordDays
    self.lastHit = lastHit
    self.heldOut = heldOut
    self.completeness = completeness
    self.eventsPerDay = eventsPerDay
  }

  /// The names of ``vector``'s entries, in order (the fit prints them beside the weights).
  public static let names = [
    "recent share", "track record", "no record", "last day hit", "held out", "completeness",
    "log events per day",
  ]

  /// The numbers the model weighs, in the order of ``names``. A missing record reads as a
  /// neutral 0.5 with the "no record" indicator set, so that its weight can say what a new
  /// routine is worth.
  public var vector: [Double] {
    [
      recentDays > 0 ? Double(recentHits) / Double(recentDays) : 0,
      recordDays > 0 ? Double(recordHits) / Double(recordDays) : 0.5,
      recordDays > 0 ? 0 : 1,
      lastHit ? 1 : 0,
      heldOut,
      completeness,
      // Clamped: a kind logged once a month, or hundreds of times a day, must not dominate.
      log(min(max(eventsPerDay, 0.05), 100)),
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
