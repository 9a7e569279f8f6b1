/// Merges sleep samples into nights: one "Bed Time" and one "Wake Up" each.
///
/// The rule (docs/apple-health.md):
/// - `Awake` samples are dropped: they never start, end or join a night.
/// - Every other sample (in bed or asleep, from any source) is a span of the night; samples are
///   taken in order of their start, and one that starts at most ``maximumGap`` (90 minutes)
///   after the end of the night so far joins it, as long as the night then spans no more than
///   ``maximumNight`` (14 hours). So an iPhone's "in bed" 22:30-07:00 beside a watch's stages
///   23:10-06:40 is one night, 22:30 to 07:00, and so is a night broken by 40 minutes awake.
/// - No source wins: the night runs from the earliest start of its samples to the latest end;
///   each end keeps the local offset of the sample it comes from.
/// - A sleep shorter than ``maximumNap`` (3 hours) that starts between 09:00 and 19:00 local
///   time is a nap, not a night: counted, not imported.
///
/// Memory and time: samples are kept compact (32 bytes); past ``flushThreshold`` samples the
/// nights that ended more than ``flushLag`` (7 days) before the latest start seen are emitted
/// and dropped, and each night still open is held as one span (its earliest start and latest
/// end so far), so that a file of any size, even one with millions of samples in one week,
/// merges in bounded memory and in time linear in its samples. For samples in time order, as
/// exports write them, this is exactly the rule above. A sample arriving out of order after a
/// flush is merged with the spans held (and, more than 7 days late, only with those).
public struct SleepNights: Sendable {
  /// The longest gap between two samples of one night: 90 minutes.
  public static let maximumGap: Int64 = 90 * 60
  /// The longest night: 14 hours.
  public static let maximumNight: Int64 = 14 * 3600
  /// Sleeps shorter than this that start in the day (09:00 to 19:00) are naps: 3 hours.
  public static let maximumNap: Int64 = 3 * 3600
  /// How many samples are held before nights far behind the newest are emitted.
  public static let flushThreshold = 1 << 18
  /// How far behind the latest start a night must have ended to be emitted early: 7 days.
  public static let flushLag: Int64 = 7 * 86400

  /// A night: when it started (in bed or asleep) and ended, each with its local offset.
  public struct Night: Sendable, Equatable {
    /// When the first sample starts.
    public var bedTime: Timestamp
    /// When the last sample ends.
    public var wakeUp: Timestamp
  }

  private struct Sample: Comparable {
    var start: Int64
    var end: Int64
    var startOffset: Int32
    var endOffset: Int32

    static func < (lhs: Sample, rhs: Sample) -> Bool {
      (lhs.start, lhs.end) < (rhs.start, rhs.end)
    }
  }

  private var samples: [Sample] = []
  private var latestStart = Int64.min
  /// Nights found so far (emitted by a flush).
  private var found: [Night] = []
  /// Naps found so far.
  public private(set) var naps = 0

  /// How many samples are held before a flush: ``flushThreshold`` but in tests.
  private let threshold: Int
  /// How many samples are held before the next flush: `threshold`, or twice what the last
  /// flush kept when that was more, so that samples no flush can drop (spans of days that never
  /// end) are sorted a logarithmic number of times, not once per sample.
  private var nextFlush: Int

  /// No samples yet.
  public init() { self.init(flushingPast: Self.flushThreshold) }

  /// No samples yet, flushing past `threshold` samples (tests flush often to check that a flush
  /// changes no night).
  init(flushingPast threshold: Int) {
    self.threshold = max(1, threshold)
    nextFlush = self.threshold
  }

  /// Adds one sample, already in local time (``HealthRecord/localStart``).
  public mutating func add(stage: SleepStage, start: Timestamp, end: Timestamp) {
    guard stage != .awake else { return }
    let sample = Sample(
      start: start.secondsSince1970, end: max(end.secondsSince1970, start.secondsSince1970),
      startOffset: start.utcOffsetSeconds,
      endOffset: end.secondsSince1970 >= start.secondsSince1970
        ? end.utcOffsetSeconds : start.utcOffsetSeconds)
    samples.append(sample)
    latestStart = max(latestStart, sample.start)
    if samples.count >= nextFlush {
      flush(before: latestStart - Self.flushLag)
      nextFlush = max(threshold, 2 * samples.count)
    }
  }

  /// How many samples (or spans of nights still open) are held now.
  var heldSamples: Int { samples.count }
  /// How many times the held samples were sorted and merged before ``finish()``.
  private(set) var flushes = 0

  /// Every night, in order of bed time (naps left out and counted in ``naps``).
  public mutating func finish() -> [Night] {
    flush(before: .max)
    found.sort { $0.bedTime.secondsSince1970 < $1.bedTime.secondsSince1970 }
    return found
  }

  /// Merges the held samples; emits the nights that ended before `limit` and keeps the samples
  /// of the rest.
  private mutating func flush(before limit: Int64) {
    flushes += 1
    samples.sort()
    var kept: [Sample] = []
    var index = 0
    while index < samples.count {
      var first = samples[index]
      var last = first
      var next = index + 1
      while next < samples.count {
        let candidate = samples[next]
        guard candidate.start <= last.end + Self.maximumGap,
          max(last.end, candidate.end) - first.start <= Self.maximumNight
        else { break }
        if candidate.end > last.end { last = candidate }
        next += 1
      }
      first.end = last.end
      first.endOffset = last.endOffset
      if first.end >= limit {
        // Only the night's start and end so far decide what later samples join it, so the
        // night is held as one span: without this, a week of more than `flushThreshold` samples
        // was sorted again at every sample that arrived.
        kept.append(first)
      } else {
        emit(first)
      }
      index = next
    }
    samples = kept
  }

  private mutating func emit(_ night: Sample) {
    let bed = Timestamp(secondsSince1970: night.start, utcOffsetSeconds: night.startOffset)
    let wake = Timestamp(secondsSince1970: night.end, utcOffsetSeconds: night.endOffset)
    let hour = bed.timeOfDay.hour
    if night.end - night.start < Self.maximumNap, (9..<19).contains(hour) {
      naps += 1
      return
    }
    found.append(Night(bedTime: bed, wakeUp: wake))
  }
}
