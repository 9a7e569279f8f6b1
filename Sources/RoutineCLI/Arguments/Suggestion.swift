import RoutineCore

/// "Did you mean ...?": the candidate nearest to a mistyped word.
enum Suggestion {
  /// The only candidate `word` begins (from three characters), else the candidate closest to
  /// `word` by edit distance (ignoring case), when it is close enough to be a typo: at most one
  /// edit for short words, two from six characters, three from twelve. Ties go to the earlier
  /// candidate.
  static func nearest(to word: String, among candidates: [String]) -> String? {
    let typed = Array(word.lowercased())
    guard !typed.isEmpty else { return nil }
    // A shortened name ("--dry" for "--dry-run") is a typo too, when only one name starts so.
    let extended = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
    if typed.count >= 3, extended.count == 1 { return extended[0] }
    let allowed = typed.count >= 12 ? 3 : typed.count >= 6 ? 2 : 1
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(typed, Array(candidate.lowercased()), limit: allowed)
      if distance <= allowed, distance < (best?.distance ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  /// `"; did you mean 'analyze'?"`, or nothing when no candidate is close.
  static func clause(for word: String, among candidates: [String], prefix: String = "") -> String {
    nearest(to: word, among: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
  }

  /// The Damerau-Levenshtein distance (adjacent transpositions count as one edit), or a value
  /// above `limit` as soon as it is clear the distance exceeds it: the core's, which also
  /// names a kind typed with a typo (``NearName``).
  static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    NearName.distance(a, b, limit: limit)
  }
}
