/// The sentences analytics speaks in.
enum Wording {
  /// "woke up", "left home", or "logged Coffee": what the user did, in the past tense.
  static func pastTense(_ kind: EventKind) -> String {
    switch kind.known {
    case .wakeUp: "woke up"
    case .bedTime: "went to bed"
    case .leavingHome: "left home"
    case .arrivingAtWork: "arrived at work"
    case .leavingWork: "left work"
    case .arrivingHome: "arrived home"
    case .workout: "worked out"
    case .meditation: "meditated"
    case nil: "logged \(kind.name)"
    }
  }

  /// "You woke up between 06:50 and 07:20 on 5 of the last 5 weekdays." (times as `format`
  /// writes them). With a track record of h hits on d days, it goes on: ", and when forecast
  /// the day before, on 19 of the last 24." (see ``TrackRecord``).
  static func reasoning(
    kind: EventKind, dayKind: DayKind, matched: Int, observed: Int, earliest: TimeOfDay,
    latest: TimeOfDay, format: (TimeOfDay) -> String = \.description,
    record: (hits: Int, days: Int)? = nil
  ) -> String {
    let when =
      earliest.description == latest.description
      ? "at \(format(earliest))" : "between \(format(earliest)) and \(format(latest))"
    let window =
      "You \(pastTense(kind)) \(when) on \(matched) of the last \(observed) "
      + "\(dayKind.noun(count: observed))"
    guard let record else { return window + "." }
    return window
      + ", and when forecast the day before, on \(record.hits) of the last \(record.days)."
  }

  /// "You woke up at 05:30, 105 minutes earlier than your usual 07:15."
  static func outlier(kind: EventKind, at time: TimeOfDay, deviationMinutes: Int, usual: TimeOfDay)
    -> String
  {
    let direction = deviationMinutes < 0 ? "earlier" : "later"
    return "You \(pastTense(kind)) at \(time), \(minutes(abs(deviationMinutes))) \(direction) "
      + "than your usual \(usual)."
  }

  /// "Arriving at Work usually follows Leaving Home after 35 minutes (median of 5 times)."
  static func duration(from: EventKind, to: EventKind, minutes count: Int, pairs: Int) -> String {
    "\(to.name) usually follows \(from.name) after \(minutes(count)) (median of \(pairs) times)."
  }

  /// "1 minute", "105 minutes".
  static func minutes(_ count: Int) -> String {
    count == 1 ? "1 minute" : "\(count) minutes"
  }
}
