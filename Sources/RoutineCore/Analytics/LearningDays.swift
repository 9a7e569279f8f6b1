import Foundation

/// The days routines are learned from, worked out once per analysis and shared by every kind:
/// which were observed, which are weekend days, and how much each weighs.
struct LearningDays: Sendable {
  /// The first day, as days since 1970.
  let first: Int
  /// How many days.
  let count: Int
  /// Whether the user was logging that day (see ``ObservedDays``).
  let isObserved: [Bool]
  /// Whether the day is a Saturday or Sunday.
  let isWeekend: [Bool]
  /// 2^(-age / half-life) for observed days (age from the newest observed day), else 0.
  let weights: [Double]
  private let observedCounts: (all: Int, weekdays: Int, weekends: Int)
  private let weightTotals: (all: Double, weekdays: Double, weekends: Double)

  init(_ observed: ObservedDays, halfLife: Double?) {
    let range = observed.range
    let first = range.lowerBound.daysSince1970
    let count = range.upperBound.daysSince1970 - first + 1
    let isObserved = (0..<count).map { observed.contains(LocalDate(daysSince1970: first + $0)) }
    self.first = first
    self.count = count
    self.isObserved = isObserved
    isWeekend = (0..<count).map { LocalDate(daysSince1970: first + $0).isWeekend }
    // Age counts from the newest observed day: a log that stopped a while ago still has recent
    // evidence of its own.
    let newest = isObserved.lastIndex(of: true) ?? count - 1
    var weights = [Double](repeating: 0, count: count)
    var weekdays = 0
    var weekends = 0
    var weekdayWeight = 0.0
    var weekendWeight = 0.0
    for index in 0..<count where isObserved[index] {
      let weight = halfLife.map { pow(2, -Double(newest - index) / $0) } ?? 1
      weights[index] = weight
      if isWeekend[index] {
        weekends += 1
        weekendWeight += weight
      } else {
        weekdays += 1
        weekdayWeight += weight
      }
    }
    self.weights = weights
    observedCounts = (weekdays + weekends, weekdays, weekends)
    weightTotals = (weekdayWeight + weekendWeight, weekdayWeight, weekendWeight)
  }

  /// The range of dates.
  var range: ClosedRange<LocalDate> {
    LocalDate(daysSince1970: first)...LocalDate(daysSince1970: first + count - 1)
  }

  /// Whether day `index` is of `dayKind`.
  func isDay(_ index: Int, of dayKind: DayKind) -> Bool {
    switch dayKind {
    case .all: true
    case .weekdays: !isWeekend[index]
    case .weekends: isWeekend[index]
    }
  }

  /// The summed weights of the observed days of `dayKind`.
  func totalWeight(of dayKind: DayKind) -> Double {
    switch dayKind {
    case .all: weightTotals.all
    case .weekdays: weightTotals.weekdays
    case .weekends: weightTotals.weekends
    }
  }

  /// Observed days of `dayKind`.
  func observedCount(of dayKind: DayKind) -> Int {
    switch dayKind {
    case .all: observedCounts.all
    case .weekdays: observedCounts.weekdays
    case .weekends: observedCounts.weekends
    }
  }
}
