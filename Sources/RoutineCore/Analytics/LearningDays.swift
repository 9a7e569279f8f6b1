import Foundation

/// The days routines are learned from, worked out once per analysis and shared by every kind:
/// which were observed, which day of the week each is, and how much each weighs.
struct LearningDays: Sendable {
  /// The first day, as days since 1970.
  let first: Int
  /// How many days.
  let count: Int
  /// The index of the window's first day: the days before it are the lookback, read for the
  /// split of the week and for the last days with events (see
  /// ``AnalysisConfiguration/eventDays``); clusters come from the window.
  let windowStart: Int
  /// Whether the user was logging that day (see ``ObservedDays``).
  let isObserved: [Bool]
  /// `1 << weekday` (1 = Sunday ... 7 = Saturday) per day, to test against
  /// ``DayKind/weekdayMask``.
  private let weekdayBits: [UInt8]
  /// 2^(-age / half-life) for observed days (age from the newest observed day), else 0.
  let weights: [Double]
  /// Observed days and their summed weights per weekday (index 1 = Sunday ... 7 = Saturday).
  private let observedPerWeekday: [Int]
  private let weightPerWeekday: [Double]

  init(_ observed: ObservedDays, halfLife: Double?, windowStart: Int = 0) {
    let range = observed.range
    let first = range.lowerBound.daysSince1970
    let count = range.upperBound.daysSince1970 - first + 1
    let isObserved = (0..<count).map { observed.contains(LocalDate(daysSince1970: first + $0)) }
    let weekdays = (0..<count).map { LocalDate(daysSince1970: first + $0).weekday }
    self.first = first
    self.count = count
    self.windowStart = min(max(windowStart, 0), count - 1)
    self.isObserved = isObserved
    weekdayBits = weekdays.map { UInt8(1) << $0 }
    // Age counts from the newest observed day: a log that stopped a while ago still has recent
    // evidence of its own.
    let newest = isObserved.lastIndex(of: true) ?? count - 1
    var weights = [Double](repeating: 0, count: count)
    var observedPerWeekday = [Int](repeating: 0, count: 8)
    var weightPerWeekday = [Double](repeating: 0, count: 8)
    for index in 0..<count where isObserved[index] {
      let weight = halfLife.map { pow(2, -Double(newest - index) / $0) } ?? 1
      weights[index] = weight
      observedPerWeekday[weekdays[index]] += 1
      weightPerWeekday[weekdays[index]] += weight
    }
    self.weights = weights
    self.observedPerWeekday = observedPerWeekday
    self.weightPerWeekday = weightPerWeekday
  }

  /// The range of dates.
  var range: ClosedRange<LocalDate> {
    LocalDate(daysSince1970: first)...LocalDate(daysSince1970: first + count - 1)
  }

  /// The weekday (1 = Sunday ... 7 = Saturday) of day `index`.
  func weekday(of index: Int) -> Int {
    weekdayBits[index].trailingZeroBitCount
  }

  /// Whether day `index` is of `dayKind`.
  func isDay(_ index: Int, of dayKind: DayKind) -> Bool {
    dayKind.weekdayMask & weekdayBits[index] != 0
  }

  /// The summed weights of the observed days of `dayKind`.
  func totalWeight(of dayKind: DayKind) -> Double {
    dayKind.weekdays.reduce(0) { $0 + weightPerWeekday[$1] }
  }

  /// Observed days of `dayKind`.
  func observedCount(of dayKind: DayKind) -> Int {
    dayKind.weekdays.reduce(0) { $0 + observedPerWeekday[$1] }
  }

  /// The observed days of `dayKind` from day index `start` on, and their summed weights.
  func observed(of dayKind: DayKind, from start: Int) -> (count: Int, weight: Double) {
    guard start > 0 else { return (observedCount(of: dayKind), totalWeight(of: dayKind)) }
    var count = 0
    var weight = 0.0
    for index in start..<self.count where isObserved[index] && isDay(index, of: dayKind) {
      count += 1
      weight += weights[index]
    }
    return (count, weight)
  }
}
