/// One Apple Health sample that routine maps to events, as parsed from an export: the reader
/// has picked the fields, the mapping (``HealthMapping``) decides what they become.
public struct HealthRecord: Sendable, Equatable {
  /// What the sample records.
  public enum Kind: Sendable, Equatable {
    /// A `Workout` element; `activity` is its `workoutActivityType`
    /// (`HKWorkoutActivityTypeRunning`).
    case workout(activity: String)
    /// `HKCategoryTypeIdentifierMindfulSession`.
    case mindfulSession
    /// `HKQuantityTypeIdentifierNumberOfAlcoholicBeverages`; the count is the value.
    case alcohol
    /// `HKCategoryTypeIdentifierSleepAnalysis` with its stage.
    case sleep(SleepStage)
  }

  /// What it records.
  public var kind: Kind
  /// `startDate`, with the offset written in the export.
  public var start: Timestamp
  /// `endDate`, with the offset written in the export.
  public var end: Timestamp
  /// The number: the count of drinks, or a workout's `duration` (in `durationUnit`).
  public var value: Double?
  /// A workout's `durationUnit` (`min`, `s`, `hr`); `nil` for minutes.
  public var unit: String?
  /// `sourceName` (the app or device that wrote it), entities decoded.
  public var source: String
  /// The zone of its `HKTimeZone` metadata, when it has one the zone database knows: local
  /// times come from it rather than from the offset written in the export.
  public var timeZone: Zone?

  /// A record.
  public init(
    kind: Kind, start: Timestamp, end: Timestamp, value: Double? = nil, unit: String? = nil,
    source: String = "", timeZone: Zone? = nil
  ) {
    self.kind = kind
    self.start = start
    self.end = end
    self.value = value
    self.unit = unit
    self.source = source
    self.timeZone = timeZone
  }

  /// `start` as the local time of the sample: the offset of `timeZone` at that instant when
  /// there is one (the export writes every date in the exporting phone's zone, so a night in New
  /// York exported in Berlin says +0100 where the metadata says America/New_York).
  public var localStart: Timestamp { Self.localized(start, in: timeZone) }
  /// `end` as the local time of the sample (see ``localStart``).
  public var localEnd: Timestamp { Self.localized(end, in: timeZone) }

  static func localized(_ time: Timestamp, in zone: Zone?) -> Timestamp {
    guard let zone else { return time }
    return Timestamp(
      secondsSince1970: time.secondsSince1970,
      utcOffsetSeconds: Int32(zone.offset(at: time.secondsSince1970)))
  }
}

/// A stage of `HKCategoryTypeIdentifierSleepAnalysis`.
public enum SleepStage: UInt8, Sendable, Equatable, CaseIterable {
  /// `InBed`: in bed, asleep or not (what iPhones and older sleep apps record).
  case inBed
  /// `AsleepUnspecified` (older exports: `Asleep`), `AsleepCore`, `AsleepDeep`, `AsleepREM`.
  case asleep
  /// `Awake`: awake during the night; it never starts or ends a night on its own.
  case awake

  /// The stage a sample's `value` names: `HKCategoryValueSleepAnalysisAsleepCore` (any
  /// `HKCategoryValueSleepAnalysis` value, with or without the prefix), or the raw number of
  /// old exports (0 in bed, 1 and 3 to 5 asleep, 2 awake); `nil` for anything else.
  public init?(healthValue: String) {
    var name = Substring(healthValue)
    let prefix = "HKCategoryValueSleepAnalysis"
    if name.hasPrefix(prefix) { name = name.dropFirst(prefix.count) }
    switch name {
    case "InBed", "0": self = .inBed
    case "Asleep", "AsleepUnspecified", "AsleepCore", "AsleepDeep", "AsleepREM", "1", "3", "4",
      "5":
      self = .asleep
    case "Awake", "2": self = .awake
    default: return nil
    }
  }
}
