/// Writes a realistic Apple Health `export.xml`, seeded, of any size: for tests and benchmarks
/// that must not need anyone's personal data (`routine sample --format apple-health`).
///
/// What real exports hold, in the same shapes: the DOCTYPE with its internal subset,
/// `ExportDate` and `Me`; step counts from an iPhone and an Apple Watch, heart rate and active
/// energy (the bulk, to be skipped); nights as an iPhone's "in bed" beside the watch's stages
/// (some nights broken by 40 minutes awake, some daytime naps); workouts from the watch, some
/// also written a minute later by a third-party app and some re-synced (written twice);
/// mindful sessions; drinks; blood-pressure `Correlation`s whose records also appear at the
/// top level; `HKTimeZone` metadata (a week a year in New York); source names with entities.
public struct HealthSampleGenerator: Sendable {
  /// What to generate.
  public struct Options: Sendable, Hashable {
    /// The random seed.
    public var seed: UInt64
    /// The first day.
    public var start: LocalDate
    /// Days to generate (at most; ``byteLimit`` may stop earlier).
    public var days: Int
    /// Stop after the day that reaches this many bytes.
    public var byteLimit: Int
    /// Where the person lives.
    public var timeZone: Zone
    /// Where the person travels a week a year.
    public var travelZone: Zone?

    /// Options.
    public init(
      seed: UInt64, start: LocalDate, days: Int, byteLimit: Int = .max, timeZone: Zone,
      travelZone: Zone? = nil
    ) {
      self.seed = seed
      self.start = start
      self.days = days
      self.byteLimit = byteLimit
      self.timeZone = timeZone
      self.travelZone = travelZone
    }
  }

  /// The options.
  public let options: Options

  /// A generator.
  public init(options: Options) {
    self.options = options
  }

  /// What was written.
  public struct Counts: Sendable, Equatable {
    /// Bytes written.
    public var bytes = 0
    /// Days written.
    public var days = 0
  }

  /// Calls `write` with the document in pieces of about 1 MiB.
  public func generate(_ write: ([UInt8]) throws -> Void) rethrows -> Counts {
    var out = XMLText()
    var counts = Counts()
    var random = SplitMix64(seed: options.seed)
    out.raw(Self.header)
    out.raw(" <ExportDate value=\"")
    let exportDay = options.start.adding(days: options.days)
    out.date(
      WallClock.instant(on: exportDay, at: TimeOfDay(hour: 12, minute: 0)!, in: options.timeZone),
      options.timeZone)
    out.raw("\"/>\n <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1990-01-01\" ")
    out.raw(
      "HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexNotSet\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeNotSet\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\"/>\n"
    )
    for index in 0..<options.days {
      let date = options.start.adding(days: index)
      // A week a year away (from the 200th day of each year of the sample).
      let travelling = options.travelZone != nil && (index % 365) >= 200 && (index % 365) < 207
      let zone = travelling ? options.travelZone! : options.timeZone
      day(date, zone: zone, travelling: travelling, random: &random, into: &out)
      counts.days += 1
      if out.bytes.count >= 1 << 20 {
        counts.bytes += out.bytes.count
        try write(out.bytes)
        out.bytes.removeAll(keepingCapacity: true)
      }
      if counts.bytes + out.bytes.count >= options.byteLimit { break }
    }
    out.raw("</HealthData>\n")
    counts.bytes += out.bytes.count
    try write(out.bytes)
    return counts
  }

  private static let phone = "J&#xF6;rg&#x2019;s iPhone"
  private static let watch = "J&#xF6;rg&#x2019;s Apple&#xA0;Watch"
  private static let phoneDevice =
    "&lt;&lt;HKDevice: 0x2837545f0&gt;, name:iPhone, manufacturer:Apple, model:iPhone, hardware:iPhone14,5, software:17.4&gt;"
  private static let watchDevice =
    "&lt;&lt;HKDevice: 0x283754280&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.4&gt;"
  private static let activities = [
    "HKWorkoutActivityTypeRunning", "HKWorkoutActivityTypeWalking",
    "HKWorkoutActivityTypeCycling", "HKWorkoutActivityTypeHighIntensityIntervalTraining",
    "HKWorkoutActivityTypeTraditionalStrengthTraining", "HKWorkoutActivityTypeYoga",
  ]

  private func day(
    _ date: LocalDate, zone: Zone, travelling: Bool, random: inout SplitMix64,
    into out: inout XMLText
  ) {
    func at(_ minutes: Double, day offset: Int = 0) -> Int64 {
      // Past midnight is the next day (a late bedtime at the weekend).
      let total = Int(minutes * 60) + offset * 86400
      let days = total >= 0 ? total / 86400 : (total - 86399) / 86400
      return WallClock.instant(
        on: date.adding(days: days),
        at: TimeOfDay(secondsSinceMidnight: total - days * 86400), in: zone)
    }
    let home = options.timeZone
    let meta: String? = travelling ? zone.identifier : nil
    // Steps: the phone hourly from 07:00 to 22:00, the watch every 20 minutes as well.
    for hour in 7..<23 {
      let start = at(Double(hour * 60) + random.unit() * 10)
      out.record(
        "HKQuantityTypeIdentifierStepCount", source: Self.phone, device: Self.phoneDevice,
        unit: "count", value: String(random.integer(in: 20...900)), start: start,
        end: start + 600, zone: home)
      for third in 0..<3 {
        let start = at(Double(hour * 60 + third * 20) + random.unit() * 3)
        out.record(
          "HKQuantityTypeIdentifierStepCount", source: Self.watch, device: Self.watchDevice,
          unit: "count", value: String(random.integer(in: 0...400)), start: start,
          end: start + 900, zone: home)
        out.record(
          "HKQuantityTypeIdentifierHeartRate", source: Self.watch, device: Self.watchDevice,
          unit: "count/min", value: String(random.integer(in: 55...120)), start: start + 60,
          end: start + 60, zone: home)
        out.record(
          "HKQuantityTypeIdentifierActiveEnergyBurned", source: Self.watch,
          device: Self.watchDevice, unit: "kcal", value: String(random.integer(in: 1...40)),
          start: start, end: start + 1200, zone: home)
      }
    }
    // A blood-pressure reading some mornings: a Correlation and its records again at the top.
    if random.chance(0.1) {
      let start = at(7 * 60 + 30)
      out.raw("  <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"")
      out.raw(Self.phone)
      out.raw("\" sourceVersion=\"17.4\" creationDate=\"")
      out.date(start, home)
      out.raw("\" startDate=\"")
      out.date(start, home)
      out.raw("\" endDate=\"")
      out.date(start, home)
      out.raw("\">\n")
      for (type, value) in [
        ("HKQuantityTypeIdentifierBloodPressureSystolic", "121"),
        ("HKQuantityTypeIdentifierBloodPressureDiastolic", "79"),
      ] {
        out.raw(" ")
        out.record(
          type, source: Self.phone, unit: "mmHg", value: value, start: start, end: start, zone: home
        )
      }
      out.raw("  </Correlation>\n")
      for (type, value) in [
        ("HKQuantityTypeIdentifierBloodPressureSystolic", "121"),
        ("HKQuantityTypeIdentifierBloodPressureDiastolic", "79"),
      ] {
        out.record(
          type, source: Self.phone, unit: "mmHg", value: value, start: start, end: start, zone: home
        )
      }
    }
    // A workout most days after work: the watch's, sometimes also a third-party app's a minute
    // later, sometimes re-synced (the same element twice).
    if random.chance(0.55) {
      let activity = Self.activities[random.integer(in: 0...(Self.activities.count - 1))]
      let start = at(random.normal(mean: 18 * 60, deviation: 40))
      let minutes = 20 + random.unit() * 50
      let end = start + Int64(minutes * 60)
      let copies = random.chance(0.05) ? 2 : 1
      for _ in 0..<copies {
        out.workout(
          activity, source: Self.watch, device: Self.watchDevice, minutes: minutes, start: start,
          end: end, zone: home, timeZone: meta, events: true)
      }
      if random.chance(0.3) {
        out.workout(
          activity, source: "Strava", device: nil, minutes: nil, start: start + 60,
          end: end + 30, zone: home, timeZone: meta, events: false)
      }
    }
    // A mindful session most evenings.
    if random.chance(0.6) {
      let start = at(random.normal(mean: 21 * 60, deviation: 20))
      out.record(
        "HKCategoryTypeIdentifierMindfulSession", source: "Calm &amp; Co", unit: nil, value: nil,
        start: start, end: start + Int64(random.integer(in: 5...20) * 60), zone: home,
        timeZone: meta)
    }
    // Drinks on some evenings, mostly at weekends.
    if random.chance(date.isWeekend ? 0.5 : 0.1) {
      let start = at(random.normal(mean: 20 * 60, deviation: 30))
      out.record(
        "HKQuantityTypeIdentifierNumberOfAlcoholicBeverages", source: Self.phone, unit: "count",
        value: String(random.integer(in: 1...3)), start: start, end: start, zone: home,
        timeZone: meta)
    }
    // A nap some weekend afternoons.
    if date.isWeekend, random.chance(0.2) {
      let start = at(14 * 60 + random.unit() * 60)
      out.record(
        "HKCategoryTypeIdentifierSleepAnalysis", source: Self.watch, device: Self.watchDevice,
        unit: nil, value: "HKCategoryValueSleepAnalysisAsleepCore", start: start,
        end: start + Int64(random.integer(in: 20...50) * 60), zone: home, timeZone: meta)
    }
    // The night: the phone's "in bed" (older iOS: InBed from the Clock's bedtime), the watch's
    // stages a little inside it; some nights broken by 40 minutes awake.
    let bed = at(random.normal(mean: 23 * 60, deviation: 25) - (date.isWeekend ? -40 : 0))
    let wake = at(random.normal(mean: 6.75 * 60, deviation: 20) + (date.isWeekend ? 60 : 0), day: 1)
    out.record(
      "HKCategoryTypeIdentifierSleepAnalysis", source: Self.phone, device: Self.phoneDevice,
      unit: nil, value: "HKCategoryValueSleepAnalysisInBed", start: bed, end: wake, zone: home,
      timeZone: meta)
    var time = bed + Int64(random.integer(in: 10...40) * 60)
    let stop = wake - Int64(random.integer(in: 5...30) * 60)
    let broken = random.chance(0.15)
    let stages = [
      "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
      "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepREM",
    ]
    var stage = 0
    var brokeAlready = false
    while time < stop {
      var length = Int64(random.integer(in: 15...60) * 60)
      var value = stages[stage % stages.count]
      if broken, !brokeAlready, time > bed + 3 * 3600 {
        brokeAlready = true
        value = "HKCategoryValueSleepAnalysisAwake"
        length = 40 * 60
        // Awake time the watch did not record: a gap in the stages.
        time += length
        continue
      }
      let end = min(time + length, stop)
      out.record(
        "HKCategoryTypeIdentifierSleepAnalysis", source: Self.watch, device: Self.watchDevice,
        unit: nil, value: value, start: time, end: end, zone: home, timeZone: meta)
      time = end
      stage += 1
    }
  }

  private static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 13 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
    <!ATTLIST HealthData
      locale CDATA #REQUIRED
    >
    <!ELEMENT ExportDate EMPTY>
    <!ATTLIST ExportDate
      value CDATA #REQUIRED
    >
    <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
    <!ATTLIST Record
      type          CDATA #REQUIRED
      unit          CDATA #IMPLIED
      value         CDATA #IMPLIED
      sourceName    CDATA #REQUIRED
      startDate     CDATA #REQUIRED
      endDate       CDATA #REQUIRED
    >
    <!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
    <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
    <!ELEMENT MetadataEntry EMPTY>
    <!ATTLIST MetadataEntry
      key   CDATA #REQUIRED
      value CDATA #REQUIRED
    >
    ]>
    <HealthData locale="en_DE">

    """
}

/// The text of an export as bytes, built without going through `String` for the bulk.
private struct XMLText {
  var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(1 << 21) }

  mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

  mutating func digits(_ value: Int, _ width: Int) {
    var divisor = 1
    for _ in 1..<width { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      bytes.append(UInt8(48 + rest / divisor % 10))
      rest %= divisor
      divisor /= 10
    }
  }

  /// `2026-03-02 07:05:00 +0100`: the instant in `zone`, as the Health app writes dates.
  mutating func date(_ instant: Int64, _ zone: Zone) {
    let offset = Int(zone.offset(at: instant))
    let local = instant + Int64(offset)
    let days = Int((local >= 0 ? local : local - 86399) / 86400)
    let (year, month, day) = LocalDate(daysSince1970: days).components
    let seconds = Int(local - Int64(days) * 86400)
    digits(year, 4)
    bytes.append(0x2D)
    digits(month, 2)
    bytes.append(0x2D)
    digits(day, 2)
    bytes.append(0x20)
    digits(seconds / 3600, 2)
    bytes.append(0x3A)
    digits(seconds / 60 % 60, 2)
    bytes.append(0x3A)
    digits(seconds % 60, 2)
    bytes.append(0x20)
    bytes.append(offset < 0 ? 0x2D : 0x2B)
    digits(abs(offset) / 3600, 2)
    digits(abs(offset) / 60 % 60, 2)
  }

  /// The three date attributes every record and workout has, the last left open.
  private mutating func dates(created: Int64, start: Int64, end: Int64, zone: Zone) {
    raw(" creationDate=\"")
    date(created, zone)
    raw("\" startDate=\"")
    date(start, zone)
    raw("\" endDate=\"")
    date(end, zone)
  }

  mutating func record(
    _ type: String, source: String, device: String? = nil, unit: String?, value: String?,
    start: Int64, end: Int64, zone: Zone, timeZone: String? = nil
  ) {
    raw(" <Record type=\"\(type)\" sourceName=\"\(source)\" sourceVersion=\"17.4\"")
    if let device { raw(" device=\"\(device)\"") }
    if let unit { raw(" unit=\"\(unit)\"") }
    dates(created: end + 120, start: start, end: end, zone: zone)
    raw("\"")
    if let value { raw(" value=\"\(value)\"") }
    if let timeZone {
      raw(">\n  <MetadataEntry key=\"HKTimeZone\" value=\"\(timeZone)\"/>\n </Record>\n")
    } else {
      raw("/>\n")
    }
  }

  mutating func workout(
    _ activity: String, source: String, device: String?, minutes: Double?, start: Int64,
    end: Int64, zone: Zone, timeZone: String?, events: Bool
  ) {
    raw(" <Workout workoutActivityType=\"\(activity)\"")
    if let minutes { raw(" duration=\"\(minutes)\" durationUnit=\"min\"") }
    raw(" sourceName=\"\(source)\" sourceVersion=\"10.4\"")
    if let device { raw(" device=\"\(device)\"") }
    dates(created: end + 60, start: start, end: end, zone: zone)
    raw("\">\n  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n")
    if let timeZone { raw("  <MetadataEntry key=\"HKTimeZone\" value=\"\(timeZone)\"/>\n") }
    if events {
      raw("  <WorkoutEvent type=\"HKWorkoutEventTypeSegment\" date=\"")
      date(start, zone)
      raw("\" duration=\"10\" durationUnit=\"min\"/>\n")
      raw("  <WorkoutStatistics type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" startDate=\"")
      date(start, zone)
      raw("\" endDate=\"")
      date(end, zone)
      raw(
        "\" sum=\"250\" unit=\"kcal\"/>\n  <WorkoutRoute sourceName=\"\(source)\" sourceVersion=\"10.4\" startDate=\""
      )
      date(start, zone)
      raw("\" endDate=\"")
      date(end, zone)
      raw(
        "\">\n   <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"2\"/>\n   <FileReference path=\"/workout-routes/route.gpx\"/>\n  </WorkoutRoute>\n"
      )
    }
    raw(" </Workout>\n")
  }
}
