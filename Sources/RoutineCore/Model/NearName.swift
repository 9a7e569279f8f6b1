/// Names close enough to be a typo of each other: `Coffe` for `Coffee`, `snoze` for `snooze`
/// (docs/cli.md, "A typo is named").
///
/// The rule: the Damerau-Levenshtein distance (an adjacent transposition is one edit) between
/// the names in lower case is at most 1 for names of 4 to 7 characters and at most 2 from 8
/// characters (the typed name's length). Names of 3 characters or fewer are never a typo of
/// another (Tea, Pee and Tee are all real). Two names that differ only in their digits
/// (`Habit 001`, `Habit 002`; `Run 5k`, `Run 3k`) are distinct on purpose, not a typo. A name
/// equal to a candidate (ignoring case) is that candidate, not a typo of another.
public enum NearName {
  /// The edits a typo of `name` may be away from what was meant.
  public static func allowedEdits(for name: String) -> Int {
    let count = name.count
    return count <= 3 ? 0 : count <= 7 ? 1 : 2
  }

  /// The candidate `name` is most likely a typo of, or `nil` (none is close, or `name` is one
  /// of them). Ties go to the earlier candidate.
  public static func nearest(to name: String, among candidates: [String]) -> String? {
    let typed = Array(name.lowercased())
    let allowed = allowedEdits(for: name)
    guard allowed > 0 else { return nil }
    let lowered = candidates.map { Array($0.lowercased()) }
    guard !lowered.contains(typed) else { return nil }
    var best: (index: Int, distance: Int)?
    for (index, candidate) in lowered.enumerated() {
      if differOnlyInDigits(typed, candidate) { continue }
      let found = distance(typed, candidate, limit: allowed)
      if found <= allowed, found < (best?.distance ?? .max) { best = (index, found) }
    }
    return best.map { candidates[$0.index] }
  }

  /// The Damerau-Levenshtein distance (optimal string alignment) between `a` and `b`, or
  /// `limit + 1` as soon as it is clear the distance exceeds `limit`.
  public static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMinimum = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, beforePrevious[j - 2] + 1)
        }
        current[j] = value
        rowMinimum = min(rowMinimum, value)
      }
      if rowMinimum > limit { return limit + 1 }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return min(previous[b.count], limit + 1)
  }

  /// Whether the names are the same once their digits are set aside, and differ in them.
  private static func differOnlyInDigits(_ a: [Character], _ b: [Character]) -> Bool {
    a != b && a.contains(where: \.isNumber) && b.contains(where: \.isNumber)
      && a.filter { !$0.isNumber } == b.filter { !$0.isNumber }
  }
}
