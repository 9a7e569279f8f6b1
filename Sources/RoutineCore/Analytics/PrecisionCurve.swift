/// One forecast of a walk for the precision curve: its confidence, whether an event matched it,
/// and the (kind, day) pair of recall it anticipated, if any.
public struct CurvePrediction: Sendable, Hashable {
  /// The routine's confidence for the day.
  public var confidence: Double
  /// Whether an event of its kind matched it.
  public var isHit: Bool
  /// The key of the (kind, day) pair among the backtest's event days the matched event
  /// belongs to; `nil` when not hit or when that pair is not counted by recall.
  public var eventDay: Int64?

  /// A prediction.
  public init(confidence: Double, isHit: Bool, eventDay: Int64? = nil) {
    self.confidence = confidence
    self.isHit = isHit
    self.eventDay = eventDay
  }
}

/// Interpolated precision at recall levels 0.05, 0.10, ... up to the highest recall any
/// threshold reaches: the best precision among thresholds whose reminders reach at least that
/// recall, as in information retrieval. A change to the learner is judged over every threshold
/// instead of one.
public struct PrecisionCurve: Sendable, Hashable {
  /// One level of recall.
  public struct Point: Sendable, Hashable {
    /// The recall level, a multiple of 0.05.
    public var recall: Double
    /// The best precision of any threshold reaching ``recall``.
    public var precision: Double
    /// The threshold that gives it: reminders are the predictions with at least this
    /// confidence.
    public var minConfidence: Double
    /// Reminders at that threshold.
    public var reminders: Int
    /// Hits among them.
    public var hits: Int
    /// The recall that threshold actually reaches (at least ``recall``).
    public var reachedRecall: Double
  }

  /// The levels, lowest recall first; empty when nothing was anticipated.
  public var points: [Point]

  /// The recall levels the summary averages over.
  public static let summaryLevels = [0.1, 0.2, 0.3, 0.4, 0.5]

  /// The mean interpolated precision at recall 0.1, 0.2, 0.3, 0.4 and 0.5, a level the method
  /// never reaches counting 0: one number to compare two methods by. `nil` without points.
  public var meanPrecision: Double? {
    guard !points.isEmpty else { return nil }
    let total = Self.summaryLevels.reduce(0.0) { sum, level in
      sum + (points.first { abs($0.recall - level) < 1e-9 }?.precision ?? 0)
    }
    return total / Double(Self.summaryLevels.count)
  }

  /// The curve of `predictions` over `eventDays` (kind, day) pairs with an event, in one pass
  /// over them sorted by confidence, highest first.
  public init(_ predictions: [CurvePrediction], eventDays: Int) {
    points = []
    guard eventDays > 0 else { return }
    let sorted = predictions.sorted { $0.confidence > $1.confidence }
    // Operating points: one per distinct confidence, after all predictions with it are in
    // (a threshold cannot split equal confidences).
    var operating: [(covered: Int, hits: Int, reminders: Int, confidence: Double)] = []
    var covered = Set<Int64>()
    var hits = 0
    for (index, prediction) in sorted.enumerated() {
      if prediction.isHit { hits += 1 }
      if let day = prediction.eventDay { covered.insert(day) }
      if index + 1 == sorted.count || sorted[index + 1].confidence != prediction.confidence {
        operating.append((covered.count, hits, index + 1, prediction.confidence))
      }
    }
    // The best precision at or beyond each operating point's recall (recall never falls as the
    // threshold drops, so this is a running maximum from the lowest threshold back).
    var best = operating.indices.map { $0 }
    for index in operating.indices.reversed().dropFirst() {
      let next = best[index + 1]
      let here = operating[index]
      let there = operating[next]
      // Precision compared exactly: hits * reminders' across.
      if there.hits * here.reminders > here.hits * there.reminders { best[index] = next }
    }
    var position = 0
    var level = 1
    while let reached = operating.last?.covered, 20 * reached >= level * eventDays {
      while 20 * operating[position].covered < level * eventDays { position += 1 }
      let chosen = operating[best[position]]
      points.append(
        Point(
          recall: Double(level) / 20, precision: Double(chosen.hits) / Double(chosen.reminders),
          minConfidence: chosen.confidence, reminders: chosen.reminders, hits: chosen.hits,
          reachedRecall: Double(chosen.covered) / Double(eventDays)))
      level += 1
    }
  }
}
