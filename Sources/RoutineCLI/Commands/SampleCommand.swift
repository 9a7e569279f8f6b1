import Foundation
import RoutineCore
import RoutineStore

/// `routine sample [--days N] [--seed S] [--start DATE] [--kinds K] [--format csv|jsonl|apple-health]
/// [--size SIZE] [--output FILE]`
enum SampleCommand: Command {
  static let spec = CommandSpec(
    name: "sample",
    summary: "Generate a realistic, seeded event log (the bundled data and the benchmarks).",
    discussion: """
      The same options always produce the same file. The persona lives in Europe/Berlin unless
      --tz names another zone. Kinds beyond the persona's twelve are synthetic 'Habit NNN'
      routines (for benchmarks). data/generate.sh shows the commands behind the bundled files.

      --persona N writes person N of a population that differs in regularity (tight, loose,
      drifting, shift work, several slots a day, weekly-only habits, long gaps, in turn; the
      seed draws their habits) instead of the bundled persona: the population the confidence
      is calibrated on (docs/analytics.md).

      --format apple-health writes an Apple Health export.xml instead (docs/apple-health.md):
      several sources, duplicate workouts, split nights, naps, a week a year in New York, and
      the step counts and heart rates that make real exports large; --size stops it at about
      SIZE bytes (200MB; days then default to as many as it takes). An --output ending in .zip
      gets it deflated in a ZIP archive, as apple_health_export/export.xml.
      """,
    options: [
      .value("days", "N", "Days to generate (default 56)."),
      .value("seed", "S", "The random seed (default 1)."),
      .value("start", "DATE", "The first day, YYYY-MM-DD (default 2026-03-02)."),
      .value("kinds", "K", "How many kinds (default 12, the persona's)."),
      .value(
        "persona", "N",
        "Person N (from 0) of the population of docs/analytics.md (not with --kinds)."),
      .value("limit", "N", "Stop after N events."),
      .value("format", "csv|jsonl|apple-health", "Output format (default csv)."),
      .value("size", "SIZE", "Apple Health: stop at about SIZE bytes (e.g. 200MB, 2GB)."),
      .value(
        "output", "FILE",
        "Write to FILE instead of stdout (- is stdout; a regular file is replaced atomically).",
        completes: .file),
    ],
    globals: ["tz"],
    globalHelp: ["tz": "The persona's IANA time zone (default Europe/Berlin, whatever $TZ says)."],
    jsonNote: "it writes events as CSV, or as JSON Lines with --format jsonl")

  static func run(_ context: Context) throws -> ExitCode {
    if context.isAppleHealthFormat { return try runHealth(context) }
    if context.arguments.value("size") != nil {
      throw UsageError("--size: only with --format apple-health", command: spec.name)
    }
    let days = try context.positiveInteger("days", default: 56, maximum: 100_000)
    let kinds = try context.positiveInteger(
      "kinds", default: SampleGenerator.personaKinds.count, maximum: 10_000)
    let limit = try context.positiveInteger("limit", default: Int.max, maximum: Int.max)
    let seed = try seed(context)
    let start = try startDate(context, days: days)
    let zone = try personaZone(context)
    let format = try context.fileFormat() ?? .csv
    if context.arguments.value("persona") != nil, context.arguments.value("kinds") != nil {
      throw UsageError(
        "--kinds and --persona do not combine: a persona has its own kinds", command: spec.name)
    }
    let persona =
      context.arguments.value("persona") == nil
      ? nil
      : try context.positiveInteger("persona", default: 0, maximum: 1_000_000, allowsZero: true)
    let generator = SampleGenerator(
      options: .init(seed: seed, start: start, days: days, kinds: kinds, timeZone: zone))

    // "-" is standard output, as for any file argument.
    let path = try context.outputPath(command: spec.name)
    let sink = try path.map(SampleSink.init(path:)) ?? SampleSink(output: context.output)
    try sink.write(format == .csv ? "timestamp,event,value,note\n" : "")
    var count = 0
    let write = { (event: Event) throws in
      guard count < limit else { throw Done() }
      try sink.write(format == .csv ? csvLine(event) : jsonLine(event))
      count += 1
    }
    do {
      if let persona {
        try PersonaPopulation(seed: seed).persona(persona).generate(
          start: start, days: days, timeZone: zone, write)
      } else {
        try generator.generate(write)
      }
    } catch is Done {}
    try sink.finish()
    if let path {
      context.errors.line(
        "Wrote \(counted(count, "event")) to \(TerminalText.escaped("'\(path)'")).")
    }
    return .ok
  }

  /// `--format apple-health`: an export.xml, or an export.zip when the output ends in `.zip`.
  private static func runHealth(_ context: Context) throws -> ExitCode {
    for option in ["kinds", "persona", "limit"] where context.arguments.value(option) != nil {
      throw UsageError(
        "--\(option) does not combine with --format apple-health", command: spec.name)
    }
    let byteLimit = try context.arguments.value("size").map(byteCount) ?? Int.max
    let days = try context.positiveInteger(
      "days", default: byteLimit == Int.max ? 56 : 36_500, maximum: 100_000)
    let seed = try seed(context)
    let start = try startDate(context, days: days)
    let zone = try personaZone(context)
    let generator = HealthSampleGenerator(
      options: .init(
        seed: seed, start: start, days: days, byteLimit: byteLimit, timeZone: zone,
        travelZone: try context.zone(named: "America/New_York", source: "sample")))
    let path = try context.outputPath(command: spec.name)
    let counts: HealthSampleGenerator.Counts
    if let path, path.lowercased().hasSuffix(".zip") {
      let zip = try ZipWriter(path: path, entry: "apple_health_export/export.xml")
      counts = try generator.generate { try zip.write($0) }
      try zip.finish()
    } else if let path {
      let writer = try FileWriter(path: path)
      counts = try generator.generate { bytes in
        try bytes.withUnsafeBytes { try writer.write($0) }
      }
      try writer.finish()
    } else {
      counts = generator.generate {
        context.output.writeVerbatim(String(decoding: $0, as: UTF8.self))
      }
    }
    if let path {
      context.errors.line(
        "Wrote an Apple Health export of \(counted(counts.days, "day")) (\(counts.bytes) bytes of XML) to \(TerminalText.escaped("'\(path)'"))."
      )
    }
    return .ok
  }

  /// `--seed`, default 1.
  /// The persona is Berliner unless `--tz` says otherwise: the bundled data must not depend on
  /// `$TZ`.
  static func personaZone(_ context: Context) throws -> Zone {
    context.arguments.value("tz") == nil
      ? try context.zone(named: "Europe/Berlin", source: "sample") ?? Zone.utc
      : try context.environmentTimeZone.get()
  }

  private static func seed(_ context: Context) throws(UsageError) -> UInt64 {
    guard let seed = UInt64(context.arguments.value("seed") ?? "1") else {
      throw UsageError(
        "--seed: expected a whole number, found '\(context.arguments.value("seed")!)'",
        command: spec.name)
    }
    return seed
  }

  /// `--start`, default 2026-03-02, checked so that `days` days from it end before 10000.
  private static func startDate(_ context: Context, days: Int) throws(UsageError) -> LocalDate {
    let startText = context.arguments.value("start") ?? "2026-03-02"
    // The same YYYY-MM-DD as every date option: four-digit years, so that every generated
    // time is an instant timestamps can write and read back.
    guard let start = TimeArgument.date(startText) else {
      throw UsageError(
        "--start: expected a date YYYY-MM-DD, found '\(startText)'", command: spec.name)
    }
    guard start.adding(days: days - 1) <= LocalDate(year: 9999, month: 12, day: 30)! else {
      throw UsageError(
        "--start: the sample must end before the year 10000, found \(days) days from \(start)",
        command: spec.name)
    }
    return start
  }

  /// `200MB`, `2GB`, `500k`, `1000000`: decimal units, as disks count.
  private static func byteCount(_ text: String) throws(UsageError) -> Int {
    let upper = text.uppercased()
    var digits = Substring(upper)
    if digits.hasSuffix("B") { digits = digits.dropLast() }
    var scale = 1
    if let last = digits.last, let unit = ["K": 1000, "M": 1_000_000, "G": 1_000_000_000][last] {
      scale = unit
      digits = digits.dropLast()
    }
    guard let number = Int(digits), number > 0, number <= Int.max / scale / 2,
      digits.allSatisfy(\.isNumber)
    else {
      throw UsageError(
        "--size: expected a size such as 200MB or 2GB, found '\(text)'", command: spec.name)
    }
    return number * scale
  }

  /// `timestamp,event,value,note`, quoting fields as RFC 4180 requires.
  static func csvLine(_ event: Event) -> String {
    func field(_ text: String) -> String {
      guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
        return text
      }
      return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    let value = event.value.map(EventFormatting.value) ?? ""
    return
      "\(event.timestamp.iso8601),\(field(event.kind.name)),\(value),\(field(event.note ?? ""))\n"
  }

  /// `{"timestamp": ..., "event": ..., "value": ..., "note": ...}` with absent keys left out.
  static func jsonLine(_ event: Event) -> String {
    var text = "{\"timestamp\": \"\(event.timestamp.iso8601)\", \"event\": "
    JSON.writeString(event.kind.name, to: &text)
    if let value = event.value { text += ", \"value\": \(EventFormatting.value(value))" }
    if let note = event.note {
      text += ", \"note\": "
      JSON.writeString(note, to: &text)
    }
    return text + "}\n"
  }
}

/// Stops the generator at `--limit`.
private struct Done: Error {}

/// Where generated text goes: stdout, or a file through ``FileWriter`` (replaced atomically when
/// it is a regular file, so that an interrupted run never leaves half a file).
private final class SampleSink {
  private let output: Output?
  private let writer: FileWriter?
  private var buffer = ""

  init(output: Output) {
    self.output = output
    writer = nil
  }

  init(path: String) throws {
    output = nil
    writer = try FileWriter(path: path)
  }

  func write(_ text: String) throws {
    if let output {
      output.writeVerbatim(text)
      return
    }
    buffer += text
    if buffer.utf8.count > 1 << 20 { try drain() }
  }

  private func drain() throws {
    try writer?.write(buffer)
    buffer = ""
  }

  func finish() throws {
    try drain()
    try writer?.finish()
  }
}
