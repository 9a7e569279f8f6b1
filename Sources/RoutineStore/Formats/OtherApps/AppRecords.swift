import RoutineCore

/// What the readers of other apps' exports find, mapped by the rules Apple Health import uses
/// (``HealthMapping``): a sleep session is a span of a night (a "Bed Time" and a "Wake Up" once
/// merged), a workout a "Workout" with its minutes as the value and its activity as the note,
/// and anything else (Daylio's activities) an event of its own.
public struct AppRecords: Sendable {
  private var mapping: HealthMapping
  private var entries: [Event] = []
  private let firstDate: LocalDate?
  /// The app, named as each sample's source (only used to order copies).
  private let source: String
  /// Sleep sessions read.
  public private(set) var sleeps = 0
  /// Workouts read.
  public private(set) var workouts = 0

  /// Records that keep events on or after `firstDate` (their own local date), or all.
  public init(format: AppFormat, from firstDate: LocalDate? = nil) {
    mapping = HealthMapping(from: firstDate)
    self.firstDate = firstDate
    source = format.rawValue
  }

  /// A sleep session from `start` to `end`.
  mutating func sleep(from start: Timestamp, to end: Timestamp) {
    sleeps += 1
    mapping.add(HealthRecord(kind: .sleep(.inBed), start: start, end: end, source: source))
  }

  /// A workout of `activity` from `start` to `end`; `minutes` when the file gives the duration
  /// apart from the span (else the span's).
  mutating func workout(
    _ activity: String, from start: Timestamp, to end: Timestamp, minutes: Double? = nil
  ) {
    workouts += 1
    mapping.add(
      HealthRecord(
        kind: .workout(activity: activity), start: start, end: end, value: minutes, unit: "min",
        source: source))
  }

  /// An event of its own (not a session).
  mutating func event(_ kind: EventKind, at timestamp: Timestamp) {
    entries.append(Event(kind: kind, timestamp: timestamp, source: .import))
  }

  /// The events of everything added, in time order: nights and workouts as the Apple Health
  /// mapping makes them (copies within the file merged), then the other events.
  public mutating func finish() -> HealthMapping.Result {
    var result = mapping.finish()
    guard !entries.isEmpty else { return result }
    for entry in entries {
      if let firstDate, entry.timestamp.localDate < firstDate {
        result.beforeFirstDate += 1
      } else {
        result.events.append(entry)
      }
    }
    result.events.sort {
      ($0.timestamp.secondsSince1970, $0.kind.key, $0.note ?? "")
        < ($1.timestamp.secondsSince1970, $1.kind.key, $1.note ?? "")
    }
    return result
  }
}
