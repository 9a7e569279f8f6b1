import Foundation

/// The expected number of days with an event within the tolerance of each candidate minute,
/// estimated from a kernel density of the events: the suggested time is the minute where that
/// curve peaks.
///
/// Counting raw events inside a one-hour window finds the same target but jumps between modes
/// when a single day is added or removed; smoothing the events first (Gaussian kernel, bandwidth
/// by Silverman's rule of thumb) makes the estimate stable on a week of data. Each day weighs its
/// recency weight, shared among its events, so a day with two events does not count twice.
struct HitCurve {
  /// Kernel values for offsets `-radius...radius` minutes.
  private let kernel: [Double]
  private let radius: Int
  /// `scores[i]` belongs to minute `i - radius`; minutes run over the grouped day, 0..<1440.
  private var scores: [Double]
  /// The minutes where the peak may lie.
  private let searchRange: ClosedRange<Int>

  /// The curve of a `histogram` of weighted events by minute, whose peak is searched in
  /// `searchRange`, smoothed with `bandwidth` minutes.
  ///
  /// The kernel is a discrete Gaussian (weights proportional to exp(-k^2 / 2h^2), summing to 1)
  /// followed by a box of +-tolerance minutes: the chance that an event smoothed around minute m
  /// falls within the tolerance of t. Computed that way round, smoothing then a running sum, the
  /// curve costs O(1440 x Gaussian width); ``add(minute:weight:)`` uses the same kernel, so a
  /// held-out curve equals the curve of the other days exactly.
  init(
    histogram: [Double], bandwidth: Double, toleranceMinutes: Int, searchRange: ClosedRange<Int>
  ) {
    self.searchRange = searchRange
    let spread = Int((4 * bandwidth).rounded(.up))
    radius = toleranceMinutes + spread
    var gaussian = (-spread...spread).map { exp(-0.5 * Double($0 * $0) / (bandwidth * bandwidth)) }
    let total = gaussian.reduce(0, +)
    gaussian = gaussian.map { $0 / total }
    // The combined kernel, for adding and removing single events.
    var combined = [Double](repeating: 0, count: 2 * radius + 1)
    for (offset, weight) in gaussian.enumerated() {
      for box in 0...(2 * toleranceMinutes) { combined[offset + box] += weight }
    }
    kernel = combined

    // Smooth: smoothed[i] belongs to minute i - spread.
    var smoothed = [Double](repeating: 0, count: TimeOfDayClusters.minutesPerDay + 2 * spread)
    for (minute, weight) in histogram.enumerated() where weight != 0 {
      for (offset, gauss) in gaussian.enumerated() { smoothed[minute + offset] += weight * gauss }
    }
    // Box: scores[i] (minute i - radius) sums smoothed minutes within the tolerance of it.
    let width = 2 * toleranceMinutes + 1
    scores = [Double](repeating: 0, count: TimeOfDayClusters.minutesPerDay + 2 * radius)
    var running = 0.0
    for index in 0..<scores.count {
      // smoothed[index] is minute index - spread = (score minute) + tolerance.
      if index < smoothed.count { running += smoothed[index] }
      if index - width >= 0, index - width < smoothed.count { running -= smoothed[index - width] }
      scores[index] = running
    }
  }

  /// Adds (or, with a negative weight, removes) an event's kernel.
  mutating func add(minute: Int, weight: Double) {
    for offset in 0..<kernel.count { scores[minute + offset] += weight * kernel[offset] }
  }

  /// The minute in the search range where the curve peaks (the middle of a plateau of equal
  /// maxima), or `nil` when it has no peak of its own there.
  func best() -> Int? {
    var top = 1e-12
    var first = -1
    var last = -1
    let lower = max(searchRange.lowerBound + radius, 0)
    let upper = min(searchRange.upperBound + radius, scores.count - 1)
    guard lower <= upper else { return nil }
    for index in lower...upper {
      let score = scores[index]
      if score > top + 1e-12 {
        top = score
        first = index
        last = index
      } else if abs(score - top) <= 1e-12 {
        last = index
      }
    }
    guard first >= 0 else { return nil }
    // A peak on the edge of the range, with the curve still rising beyond it, belongs to the
    // neighbouring cluster: this one has no peak of its own.
    if first == lower, lower > 0, scores[lower - 1] > top + 1e-12 { return nil }
    if last == upper, upper + 1 < scores.count, scores[upper + 1] > top + 1e-12 { return nil }
    return (first + last) / 2 - radius
  }

  /// Silverman's rule of thumb, 0.9 * min(sd, IQR / 1.34) * n^(-1/5), kept within 3...60
  /// minutes: never sharper than the data's resolution, never wider than a routine. `histogram`
  /// counts events per minute; `days` is the number of days they come from.
  static func bandwidth(histogram: [Int], days: Int) -> Double {
    var count = 0
    var sum = 0.0
    var squares = 0.0
    for (minute, events) in histogram.enumerated() where events > 0 {
      count += events
      sum += Double(minute * events)
      squares += Double(minute * minute * events)
    }
    guard count > 1 else { return 3 }
    let mean = sum / Double(count)
    let variance = max(squares - Double(count) * mean * mean, 0) / Double(count - 1)
    func quantile(_ q: Double) -> Double {
      let target = q * Double(count - 1)
      var seen = 0
      for (minute, events) in histogram.enumerated() where events > 0 {
        seen += events
        if Double(seen - 1) >= target { return Double(minute) }
      }
      return Double(histogram.count - 1)
    }
    let iqr = quantile(0.75) - quantile(0.25)
    var scale = variance.squareRoot()
    if iqr > 0 { scale = min(scale, iqr / 1.34) }
    let width = 0.9 * scale * pow(Double(max(days, 1)), -0.2)
    return min(max(width, 3), 60)
  }
}
