/// Turns Apple Health samples into events: the rules of docs/apple-health.md.
///
/// - A workout is a "Workout" at its start, its activity in words as the note
///   (`HKWorkoutActivityTypeMixedCardio` -> "Mixed Cardio") and its duration in minutes as the
///   value (from `duration` and `durationUnit`, else from its start and end).
/// - A mindful session is a "Mindfulness" at its start, its minutes as the value.
/// - A count of alcoholic beverages is an "Alcohol" at its start, the count as the value.
/// - Sleep samples become nights (``SleepNights``): a "Bed Time" and a "Wake Up" each.
/// - The same workout or session written twice (re-synced, or by two apps) is one: sessions of
///   one kind and activity whose spans overlap by at least half of the shorter one (or, when one
///   lasts under a minute, that start within a minute of each other) are merged, and the longest
///   of them is kept (then the earliest, then the source first in alphabetical order).
/// - Local times come from each sample's `HKTimeZone` when it has one, else from the offset the
///   export wrote.
/// - With a first date (`--from`), events on earlier local dates are left out (and counted).
///
/// Workouts and sessions are held until ``finish()`` (a few dozen bytes each), sleep samples as
/// ``SleepNights`` holds them; nothing else is kept.
public struct HealthMapping: Sendable {
  /// What the mapping found.
  public struct Result: Sendable, Equatable {
    /// The events, in time order.
    public var events: [Event] = []
    /// Workouts imported (after merging duplicates).
    public var workouts = 0
    /// Mindful sessions imported.
    public var mindfulSessions = 0
    /// Alcohol records imported.
    public var alcohol = 0
    /// Nights imported (each a Bed Time and a Wake Up).
    public var nights = 0
    /// Naps (short daytime sleeps), not imported.
    public var naps = 0
    /// Workouts and sessions dropped as copies of another.
    public var duplicates = 0
    /// Workouts, sessions, drinks and nights before the first date, not imported.
    public var beforeFirstDate = 0
  }

  private struct Session {
    var isWorkout: Bool
    var activity: Int
    var start: Timestamp
    var end: Int64
    var minutes: Double
    var source: String
  }

  private let firstDate: LocalDate?
  private var sessions: [Session] = []
  private var activities: [String] = []
  private var activityIndex: [String: Int] = [:]
  private var drinks: [Event] = []
  private var nights = SleepNights()

  /// A mapping that keeps events on or after `firstDate` (their own local date), or all.
  public init(from firstDate: LocalDate? = nil) {
    self.firstDate = firstDate
  }

  /// Adds one sample.
  public mutating func add(_ record: HealthRecord) {
    let start = record.localStart
    switch record.kind {
    case .workout(let activity):
      let index: Int
      if let known = activityIndex[activity] {
        index = known
      } else {
        index = activities.count
        activities.append(activity)
        activityIndex[activity] = index
      }
      sessions.append(
        Session(
          isWorkout: true, activity: index, start: start, end: record.end.secondsSince1970,
          minutes: Self.minutes(record), source: record.source))
    case .mindfulSession:
      sessions.append(
        Session(
          isWorkout: false, activity: -1, start: start, end: record.end.secondsSince1970,
          minutes: Self.minutes(record, usingValue: false), source: record.source))
    case .alcohol:
      drinks.append(
        Event(kind: Self.alcohol, timestamp: start, value: record.value, source: .import))
    case .sleep(let stage):
      nights.add(stage: stage, start: start, end: record.localEnd)
    }
  }

  /// The events of everything added.
  public mutating func finish() -> Result {
    var result = Result()
    result.duplicates = mergeDuplicateSessions()
    func keep(_ event: Event) -> Bool {
      guard let firstDate, event.timestamp.localDate < firstDate else { return true }
      result.beforeFirstDate += 1
      return false
    }
    // Once per activity, not per workout: the words are looked up character by character.
    let names = activities.map(Self.activityName)
    for session in sessions {
      let event =
        session.isWorkout
        ? Event(
          kind: Self.workout, timestamp: session.start, value: session.minutes,
          note: names[session.activity], source: .import)
        : Event(
          kind: Self.mindfulness, timestamp: session.start, value: session.minutes,
          source: .import)
      guard keep(event) else { continue }
      result.events.append(event)
      if session.isWorkout { result.workouts += 1 } else { result.mindfulSessions += 1 }
    }
    for drink in drinks where keep(drink) {
      result.events.append(drink)
      result.alcohol += 1
    }
    for night in nights.finish() {
      let bed = Event(kind: Self.bedTime, timestamp: night.bedTime, source: .import)
      guard keep(bed) else { continue }
      result.events.append(bed)
      result.events.append(Event(kind: Self.wakeUp, timestamp: night.wakeUp, source: .import))
      result.nights += 1
    }
    result.naps = nights.naps
    // By instant, then kind and note: the same export gives the same order every time.
    result.events.sort {
      ($0.timestamp.secondsSince1970, $0.kind.key, $0.note ?? "")
        < ($1.timestamp.secondsSince1970, $1.kind.key, $1.note ?? "")
    }
    return result
  }

  /// Drops the sessions that are copies of another (see the type's rules); returns how many.
  private mutating func mergeDuplicateSessions() -> Int {
    sessions.sort { $0.start.secondsSince1970 < $1.start.secondsSince1970 }
    var kept: [Session] = []
    kept.reserveCapacity(sessions.count)
    var dropped = 0
    for session in sessions {
      // Only sessions that start before this one ends can overlap it; look back over those.
      var match: Int?
      var index = kept.count - 1
      while index >= 0, kept[index].start.secondsSince1970 > session.start.secondsSince1970 - 86400
      {
        let other = kept[index]
        if other.isWorkout == session.isWorkout, other.activity == session.activity,
          Self.isSame(other, session)
        {
          match = index
          break
        }
        index -= 1
      }
      guard let match else {
        kept.append(session)
        continue
      }
      dropped += 1
      if Self.isPreferred(session, over: kept[match]) { kept[match] = session }
    }
    sessions = kept
    return dropped
  }

  private static func isSame(_ a: Session, _ b: Session) -> Bool {
    let aStart = a.start.secondsSince1970
    let bStart = b.start.secondsSince1970
    let shorter = min(a.end - aStart, b.end - bStart)
    if shorter < 60 { return abs(aStart - bStart) <= 60 }
    let overlap = min(a.end, b.end) - max(aStart, bStart)
    return overlap * 2 >= shorter
  }

  private static func isPreferred(_ a: Session, over b: Session) -> Bool {
    let aLength = a.end - a.start.secondsSince1970
    let bLength = b.end - b.start.secondsSince1970
    if aLength != bLength { return aLength > bLength }
    if a.start.secondsSince1970 != b.start.secondsSince1970 {
      return a.start.secondsSince1970 < b.start.secondsSince1970
    }
    return a.source < b.source
  }

  /// The duration in minutes, to a tenth: from `value` in `unit` when given and the unit is
  /// known, else from the start and end.
  static func minutes(_ record: HealthRecord, usingValue: Bool = true) -> Double {
    var minutes =
      Double(record.end.secondsSince1970 - record.start.secondsSince1970) / 60
    if usingValue, let value = record.value, value.isFinite, value >= 0,
      let scale = unitMinutes[record.unit ?? "min"]
    {
      minutes = value * scale
    }
    return (max(minutes, 0) * 10).rounded() / 10
  }

  /// Minutes per unit of the `durationUnit`s HealthKit writes.
  static let unitMinutes: [String: Double] = [
    "min": 1, "s": 1.0 / 60, "sec": 1.0 / 60, "ms": 1.0 / 60000, "hr": 60, "h": 60, "d": 1440,
  ]

  /// `HKWorkoutActivityTypeHighIntensityIntervalTraining` -> "High Intensity Interval
  /// Training": the prefix dropped, words split where a capital follows a small letter.
  public static func activityName(_ type: String) -> String {
    var name = Substring(type)
    let prefix = "HKWorkoutActivityType"
    if name.hasPrefix(prefix) { name = name.dropFirst(prefix.count) }
    var words = ""
    var previous: Character?
    for character in name {
      if let previous, character.isUppercase, previous.isLowercase || previous.isNumber {
        words.append(" ")
      }
      words.append(character)
      previous = character
    }
    return words.isEmpty ? type : words
  }

  static let workout = EventKind("Workout")!
  static let mindfulness = EventKind("Mindfulness")!
  static let alcohol = EventKind("Alcohol")!
  static let bedTime = EventKind("Bed Time")!
  static let wakeUp = EventKind("Wake Up")!
}
