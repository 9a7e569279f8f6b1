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
      days.spec, seed.spec, start.spec, kinds.spec, persona.spec, limit.spec, format.spec,
      size.spec, output.spec,
    ],
    globals: ["tz"],
    globalHelp: ["tz": "The persona's IANA time zone (default Europe/Berlin, whatever $TZ says)."],
    jsonNote: "it writes events as CSV, or as JSON Lines with --format jsonl")

  /// `--days N`.
  static let days = Option("days", .integer(in: 1...100_000), "Days to generate (default 56).")
  /// `--seed S`: any 64-bit unsigned number.
  static let seed = Option("seed", .unsigned("S"), "The random seed (default 1).")
  /// `--start DATE`.
  static let start = Option(
    "start", .calendarDate(), "The first day, YYYY-MM-DD (default 2026-03-02).")
  /// `--kinds K`.
  static let kinds = Option(
    "kinds", .integer("K", in: 1...10_000), "How many kinds (default 12, the persona's).")
  /// `--persona N`, from 0.
  static let persona = Option(
    "persona", .integer(in: 0...1_000_000),
    "Person N (from 0) of the population of docs/analytics.md (not with --kinds).")
  /// `--limit N`.
  static let limit = Option("limit", .integer(in: 1...Int.max), "Stop after N events.")
  /// `--format csv|jsonl|apple-health`: files `import` reads (other apps' exports are not
  /// generated).
  static let format = Option(
    "format", .oneOf([ImportFormat.csv, .jsonl, .appleHealth]), "Output format (default csv).")
  /// `--size SIZE`: decimal units, as disks count.
  static let size = Option(
    "size",
    ValueType(placeholder: "SIZE", expected: "a size such as 200MB or 2GB") { byteCount($0) },
    "Apple Health: stop at about SIZE bytes (e.g. 200MB, 2GB).")
  /// `--output FILE`.
  static let output = CommonOptions.output.describing(
    "Write to FILE instead of stdout (- is stdout; a regular file is replaced atomically).")

  static func run(_ context: Context) throws -> ExitCode {
    let arguments = context.arguments
    let chosen = try arguments.value(Self.format) ?? .csv
    guard let format = chosen.eventFormat else { return try runHealth(context) }
    if arguments.isGiven(size) {
      throw UsageError("--size: only with --format apple-health", command: spec.name)
    }
    let days = try arguments.value(Self.days) ?? 56
    let kinds = try arguments.value(Self.kinds) ?? SampleGenerator.personaKinds.count
    let limit = try arguments.value(Self.limit) ?? Int.max
    let seed = try arguments.value(Self.seed) ?? 1
    let start = try startDate(context, days: days)
    let zone = try personaZone(context)
    if arguments.isGiven(Self.persona), arguments.isGiven(Self.kinds) {
      throw UsageError(
        "--kinds and --persona do not combine: a persona has its own kinds", command: spec.name)
    }
    let persona = try arguments.value(Self.persona)
    let generator = SampleGenerator(
      options: .init(seed: seed, start: start, days: days, kinds: kinds, timeZone: zone))

    // "-" is standard output, as for any file argument.
    let path = try context.outputPath(command: spec.name, option: output)
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
    for option in [kinds, persona, limit] where context.arguments.isGiven(option) {
      throw UsageError(
        "--\(option.name) does not combine with --format apple-health", command: spec.name)
    }
    let byteLimit = try context.arguments.value(size) ?? Int.max
    let days = try context.arguments.value(Self.days) ?? (byteLimit == Int.max ? 56 : 36_500)
    let seed = try context.arguments.value(Self.seed) ?? 1
    let start = try startDate(context, days: days)
    let zone = try personaZone(context)
    let generator = HealthSampleGenerator(
      options: .init(
        seed: seed, start: start, days: days, byteLimit: byteLimit, timeZone: zone,
        travelZone: try context.zone(named: "America/New_York", source: "sample")))
    let path = try context.outputPath(command: spec.name, option: output)
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

  /// The persona is Berliner unless `--tz` says otherwise: the bundled data must not depend on
  /// `$TZ`.
  static func personaZone(_ context: Context) throws -> Zone {
    !context.arguments.isGiven(GlobalOption.tz)
      ? try context.zone(named: "Europe/Berlin", source: "sample") ?? Zone.utc
      : try context.environmentTimeZone.get()
  }

  /// `--start`, default 2026-03-02, checked so that `days` days from it end before 10000.
  private static func startDate(_ context: Context, days: Int) throws(UsageError) -> LocalDate {
    // The same YYYY-MM-DD as every date option: four-digit years, so that every generated
    // time is an instant timestamps can write and read back.
    let start = try context.arguments.value(Self.start) ?? LocalDate(year: 2026, month: 3, day: 2)!
    guard start.adding(days: days - 1) <= LocalDate(year: 9999, month: 12, day: 30)! else {
      throw UsageError(
        "--start: the sample must end before the year 10000, found \(days) days from \(start)",
        command: spec.name)
    }
    return start
  }

  /// `200MB`, `2GB`, `500k`, `1000000`: decimal units, as disks count.
  static func byteCount(_ text: String) -> Int? {
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
    else { return nil }
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
