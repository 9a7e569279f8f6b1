/// Finds the times of day around which a kind's events cluster (breakfast, lunch and dinner for
/// "Meal"), from a smoothed circular histogram of minutes.
struct TimeOfDayClusters {
  /// One cluster: the arc of the clock it covers and its densest minute.
  struct Cluster: Equatable {
    /// First minute of the arc, `0..<1440`.
    var start: Int
    /// Length of the arc in minutes, `1...1440` (1440: the whole clock).
    var length: Int
    /// The densest minute.
    var peak: Int

    /// Whether minute-of-day `minute` lies on the arc.
    func contains(minute: Int) -> Bool {
      floorMod(minute - start, 1440) < length
    }
  }

  static let minutesPerDay = 1440

  /// Clusters of the minutes-of-day in `histogram` (1440 counts), smoothed by three box blurs of
  /// `radius` minutes; adjacent peaks whose valley is above `mergeRatio` of the lower peak merge.
  static func find(histogram: [Double], radius: Int, mergeRatio: Double) -> [Cluster] {
    precondition(histogram.count == minutesPerDay)
    guard histogram.contains(where: { $0 > 0 }) else { return [] }
    let density = smooth(histogram, radius: radius)

    // Peaks: a minute higher than the minute before and at least as high as the minute after,
    // where a plateau counts once (at its first minute).
    var peaks: [Int] = []
    for minute in 0..<minutesPerDay {
      let here = density[minute]
      guard here > 0 else { continue }
      let before = density[(minute + minutesPerDay - 1) % minutesPerDay]
      if here <= before { continue }
      var next = (minute + 1) % minutesPerDay
      var steps = 0
      while density[next] == here && steps < minutesPerDay {
        next = (next + 1) % minutesPerDay
        steps += 1
      }
      if density[next] < here || steps == minutesPerDay { peaks.append(minute) }
    }
    if peaks.isEmpty {
      // Perfectly flat density: one cluster over the whole clock.
      let peak = density.indices.max(by: { density[$0] < density[$1] }) ?? 0
      return [Cluster(start: (peak + 720) % minutesPerDay, length: minutesPerDay, peak: peak)]
    }

    // Merge shallow valleys until every valley is deep enough, shallowest first.
    while peaks.count > 1 {
      var shallowest: (index: Int, ratio: Double)?
      for i in peaks.indices {
        let a = peaks[i]
        let b = peaks[(i + 1) % peaks.count]
        let valley = lowest(in: density, from: a, to: b)
        let ratio = density[valley] / min(density[a], density[b])
        if ratio > mergeRatio, ratio > (shallowest?.ratio ?? -1) { shallowest = (i, ratio) }
      }
      guard let (i, _) = shallowest else { break }
      let j = (i + 1) % peaks.count
      if density[peaks[i]] >= density[peaks[j]] { peaks.remove(at: j) } else { peaks.remove(at: i) }
    }

    if peaks.count == 1 {
      let peak = peaks[0]
      return [Cluster(start: (peak + 720) % minutesPerDay, length: minutesPerDay, peak: peak)]
    }
    // Arcs run from the valley before each peak to the valley after it.
    let valleys = peaks.indices.map { i in
      lowest(in: density, from: peaks[i], to: peaks[(i + 1) % peaks.count])
    }
    return peaks.indices.map { i in
      let start = (valleys[(i + peaks.count - 1) % peaks.count] + 1) % minutesPerDay
      let end = valleys[i]
      return Cluster(start: start, length: floorMod(end - start, minutesPerDay) + 1, peak: peaks[i])
    }
  }

  /// The minute with the lowest density strictly after `from` going forward to `to`.
  private static func lowest(in density: [Double], from: Int, to: Int) -> Int {
    var best = (from + 1) % minutesPerDay
    var minute = best
    while minute != to {
      if density[minute] < density[best] { best = minute }
      minute = (minute + 1) % minutesPerDay
    }
    return best
  }

  /// Three circular box blurs: close to a Gaussian, in O(1440) per pass.
  static func smooth(_ values: [Double], radius: Int) -> [Double] {
    guard radius > 0 else { return values }
    var current = values
    var next = [Double](repeating: 0, count: minutesPerDay)
    let width = Double(2 * radius + 1)
    for _ in 0..<3 {
      var sum = 0.0
      for offset in -radius...radius { sum += current[floorMod(offset, minutesPerDay)] }
      for minute in 0..<minutesPerDay {
        next[minute] = sum / width
        sum += current[(minute + radius + 1) % minutesPerDay]
        sum -= current[floorMod(minute - radius, minutesPerDay)]
      }
      swap(&current, &next)
    }
    // Running sums leave rounding dust where the histogram is empty; it must not form peaks.
    return current.map { $0 < 1e-9 ? 0 : $0 }
  }
}
