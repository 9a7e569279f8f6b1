/// The results of several backtests pooled (a cohort's people, `backtest --cohort`): counts
/// summed, ratios of the sums (never a mean of ratios), each reliability bin rebuilt from its
/// count, summed confidence and hits. Added one result at a time, so that a cohort's results
/// need not be held together.
public struct BacktestPool: Sendable {
  /// The results added.
  public private(set) var count = 0
  private var days = 0
  private var daysSkipped = 0
  private var reminders = 0
  private var hits = 0
  private var predictions = 0
  private var eventDays = 0
  private var eventDaysHit = 0
  /// Brier score times predictions, summed: the squared errors.
  private var squaredError = 0.0
  /// Per tenth of confidence: predictions, their confidences summed, and their hits.
  private var bins = [(count: Int, confidence: Double, hits: Double)](
    repeating: (0, 0, 0), count: 10)

  /// An empty pool.
  public init() {}

  /// Adds one result (its precision curve is not pooled: that needs every prediction).
  public mutating func add(_ result: BacktestResult) {
    count += 1
    days += result.days
    daysSkipped += result.daysSkipped
    reminders += result.reminders
    hits += result.hits
    predictions += result.predictions
    eventDays += result.eventDays
    eventDaysHit += result.eventDaysHit
    squaredError += (result.brier ?? 0) * Double(result.predictions)
    for bin in result.reliability {
      let index = min(max(Int((bin.lowerBound * 10).rounded()), 0), 9)
      bins[index].count += bin.count
      bins[index].confidence += bin.meanConfidence * Double(bin.count)
      // A hit rate times its count is a whole number of hits, up to rounding.
      bins[index].hits += (bin.hitRate * Double(bin.count)).rounded()
    }
  }

  /// The pooled result of walks with `windowDays`-day windows, without a precision curve.
  public func result(windowDays: Int) -> BacktestResult {
    var pooled = BacktestResult(
      windowDays: windowDays, days: days, reminders: reminders, hits: hits,
      predictions: predictions, eventDays: eventDays, eventDaysHit: eventDaysHit,
      precision: reminders > 0 ? Double(hits) / Double(reminders) : nil,
      recall: eventDays > 0 ? Double(eventDaysHit) / Double(eventDays) : nil,
      brier: predictions > 0 ? squaredError / Double(predictions) : nil)
    pooled.daysSkipped = daysSkipped
    pooled.reliability = bins.indices.filter { bins[$0].count > 0 }.map { index in
      let bin = bins[index]
      return ReliabilityBin(
        lowerBound: Double(index) / 10, count: bin.count,
        meanConfidence: bin.confidence / Double(bin.count),
        hitRate: bin.hits / Double(bin.count))
    }
    let gaps = bins.reduce(0.0) { $0 + abs($1.confidence - $1.hits) }
    pooled.calibrationError = predictions > 0 ? gaps / Double(predictions) : nil
    return pooled
  }
}
