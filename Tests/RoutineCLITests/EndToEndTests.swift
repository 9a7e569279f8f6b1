import Foundation
import Testing

/// Runs the built `routine` binary: real processes, real exit statuses, stdout and stderr apart.
struct EndToEndTests {
  /// The repository's data directory.
  static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data")

  @Test func theQuickStartAnalysesTheBundledSample() throws {
    let sandbox = Sandbox()
    let result = try sandbox.runBinary(
      "analyze", "--log", Self.data.appendingPathComponent("sample.csv").path,
      "--now", "2026-04-27T06:00:00+02:00", "--tz", "Europe/Berlin")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdout.hasPrefix(
        "Routines learned from Mon 2026-04-20 to Sun 2026-04-26 (7 days, 42 for some weekdays, Europe/Berlin):"
      ))
    #expect(result.stdout.contains("Wake Up           weekdays"))
    #expect(result.stdout.contains("Leaving Home -> Arriving at Work: 35 min"))
  }

  @Test(arguments: ["csv", "jsonl"])
  func theBundledSamplesAreWhatTheGeneratorWrites(format: String) throws {
    let sandbox = Sandbox()
    let generated = try sandbox.runBinary(
      "sample", "--days", "56", "--seed", "1", "--start", "2026-03-02", "--format", format)
    let committed = try String(
      contentsOf: Self.data.appendingPathComponent("sample.\(format)"), encoding: .utf8)
    #expect(generated.stdout == committed)
  }

  @Test func exitStatusesFollowSysexits() throws {
    let sandbox = Sandbox()
    let usage = try sandbox.runBinary("log")
    #expect(usage.status == 64)
    #expect(usage.stdout.isEmpty)
    #expect(
      usage.stderr
        == "error: missing EVENT\nusage: routine log EVENT... [--at TIME] [--value N] [--note TEXT]\n"
    )

    let malformed = sandbox.file("bad.csv", "timestamp,event\nmonday,Wake Up\n")
    let data = try sandbox.runBinary("import", malformed)
    #expect(data.status == 65)
    #expect(data.stderr.hasPrefix("error: '\(malformed)' line 2: expected an ISO 8601 timestamp"))

    let missing = try sandbox.runBinary(
      "analyze", "--log", sandbox.directory.appendingPathComponent("none.csv").path)
    #expect(missing.status == 66)

    let unwritable = try sandbox.runBinary("log", "Wake Up", "--store", "/proc/routine/routine.db")
    #expect(unwritable.status == 74, "\(unwritable.stderr)")
  }

  @Test func loggingFromTheCommandLineIsListedAndCounted() throws {
    let sandbox = Sandbox()
    #expect(try sandbox.runBinary("log", "Wake Up", "--at", "06:45").status == 0)
    #expect(
      try sandbox.runBinary("log", "Wake Up", "--at", "06:45").stdout.contains("already logged"))
    let listed = try sandbox.runBinary("events")
    #expect(listed.stdout == "2026-04-27T06:45:00+02:00  Wake Up  (cli)\n")
  }
}
