/// How the routines learned on earlier days fared the day after: the evidence that makes a
/// confidence hold for people whose week does not predict their next day.
///
/// Held-out hits inside the window say how well the days of the window agree with each other.
/// For a regular person that is also how well they predict tomorrow; for a shift worker whose
/// shift changes every week, or a person whose times drift, a week that agrees perfectly says
/// little about the next day. The track record asks the next-day question directly, of the
/// person's own log: for each of the last ``AnalysisConfiguration/trackRecordDays`` days D, the
/// routine of the same kind and slot learned from the window before D (whatever its
/// confidence), and whether an event came within the tolerance of its time on D.
/// docs/analytics.md ("Calibration") gives the estimator.
struct TrackRecord: Sendable {
  let configuration: AnalysisConfiguration

  /// `routines` (learned from the window before `day`) with their track record, the hits on
  /// the earlier days on which a routine of the same kind and slot was learned, among the
  /// features of their confidence (see ``ConfidenceModel``), and stated in their reasoning.
  ///
  /// - Parameters:
  ///   - observed: the record's days on which the user was logging at all; a day in a logging
  ///     gap says nothing.
  ///   - history: the routines learned from the window before a given day, or `nil` when that
  ///     day was not learned for.
  func calibrated(
    _ routines: [Routine], for day: LocalDate, in log: EventLog, observed: ObservedDays,
    history: (LocalDate) -> [Routine]?
  ) -> [Routine] {
    guard configuration.trackRecordDays > 0, !routines.isEmpty else { return routines }
    let tolerance = Int64(configuration.toleranceSeconds)
    let reach = 2 * configuration.toleranceSeconds
    // Every day of the record weighs the same, unlike the window's recency weights: a shift
    // rota or a drift repeats over weeks, and the record must span whole cycles of it to say
    // how often a next-day forecast holds.
    // Each day's routines by kind: a log of many kinds must not compare every routine with
    // every other.
    let earlier: [(date: LocalDate, routines: [String: [Routine]])] =
      (1...configuration.trackRecordDays).compactMap { age in
        let date = day.adding(days: -age)
        guard observed.contains(date), let learned = history(date) else { return nil }
        return (date, Dictionary(grouping: learned, by: \.kind.key))
      }
    let records: [(hits: Int, days: Int)] = routines.map { routine in
      guard let kindIndex = log.index(ofKey: routine.kind.key) else { return (0, 0) }
      let events = log.times[kindIndex]
      var hits = 0
      var days = 0
      for past in earlier {
        // The same slot that day: the nearest routine of the kind for that kind of day, within
        // twice the tolerance (a drifting time stays the same slot; lunch is not breakfast).
        var nearest: (routine: Routine, distance: Int)?
        for candidate in past.routines[routine.kind.key, default: []]
        where candidate.dayKind.contains(past.date) {
          let distance = abs(candidate.time.signedDistance(to: routine.time))
          if distance <= reach, nearest == nil || distance < nearest!.distance {
            nearest = (candidate, distance)
          }
        }
        guard let nearest else { continue }
        let suggested = nearest.routine.suggestedLocalSeconds(on: past.date)
        let first = events.lowerBound(localSeconds: suggested - tolerance)
        days += 1
        if first < events.count, events[first].localSeconds <= suggested + tolerance { hits += 1 }
      }
      return (hits, days)
    }
    // Every claimed slot's record pooled: how often this person's forecasts came true lately,
    // whatever the slot (an irregular person misses in every slot alike). Slots the
    // significance test refused would pull it down for a person who logs a kind all day long.
    let pooled = zip(routines, records).reduce((hits: 0, days: 0)) { total, pair in
      pair.0.evidence?.features.unclaimed == true
        ? total : (total.hits + pair.1.hits, total.days + pair.1.days)
    }
    return zip(routines, records).map { routine, record in
      let (hits, days) = record
      // A new slot has no record of its own, but the model still weighs it (the flag, and the
      // person's record).
      var adjusted = routine
      // A routine made by hand has no evidence: its counts stand in for it.
      var features =
        routine.evidence?.features
        ?? ConfidenceFeatures(
          heldOut: routine.confidence, windowWeight: configuration.trackRecordWindowWeight)
      features.recordHits = hits
      features.recordDays = days
      features.pooledHits = pooled.hits
      features.pooledDays = pooled.days
      adjusted.evidence = RoutineEvidence(features: features)
      adjusted.confidence = configuration.confidenceModel.confidence(features)
      if configuration.boundsByEvidence {
        adjusted.confidence = EvidenceBound.bounded(
          adjusted.confidence, hits: routine.daysMatched, of: routine.daysObserved,
          recordHits: hits, recordDays: days)
      }
      adjusted.reasoning = Wording.reasoning(
        kind: routine.kind, dayKind: routine.dayKind, matched: routine.daysMatched,
        observed: routine.daysObserved, earliest: routine.earliest, latest: routine.latest,
        record: days > 0 ? (hits, days) : nil)
      return adjusted
    }
  }
}
