import Foundation
import Testing

@testable import RoutineCLI

/// The options of the event commands (`log`, `events`, `import`, `analyze`, `backtest`, `sample`,
/// `export`...) are typed: a bad value is refused while the command line is read, before the
/// command runs, whatever else was given, with the option's choices or range.
struct TypedEventOptionsTests {
  /// Options the command itself reads, because their meaning needs the clock, the zone database
  /// or words of their own in the error (`--columns`).
  static let readByTheCommand: Set<String> = [
    "from", "to", "at", "assume-zone", "columns", "date-format",
  ]

  @Test(arguments: [
    "log", "undo", "events", "events delete", "kinds rename", "import", "analyze", "backtest",
    "sample", "backup", "export",
  ])
  func everyValueIsCheckedWhenTheLineIsRead(command: String) throws {
    let spec = try #require(RoutineCLI.parser.command(named: command))
    for option in spec.options where option.valueName != nil {
      if Self.readByTheCommand.contains(option.name)
        && !(command == "import" && option.name == "from")
      {
        continue
      }
      #expect(option.check != nil, "\(command) --\(option.name)")
    }
  }

  @Test func importRefusesAnUnknownFormatNamingTheOnesItReads() {
    let sandbox = Sandbox()
    // Without a FILE: the value is refused before anything else is looked at.
    let result = sandbox.run("import", "--format", "xml")
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "error: --format: expected csv, jsonl, apple-health, sleep-as-android, fitbit, garmin, "
          + "health-auto-export, daylio or loop, found 'xml'\n"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
  }

  @Test(arguments: ["analyze", "backtest"])
  func analysisRefusesAFormatEvenWithoutALog(command: String) {
    // Without --log the format was never read, and a typo went unnoticed.
    let result = Sandbox().run(command, "--format", "xml")
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("error: --format: expected csv or jsonl, found 'xml'\n"))
  }

  @Test(arguments: ["99999999999999999999", "-1", "1e3", ""])
  func sampleRefusesASeedOutsideSixtyFourBits(seed: String) {
    let result = Sandbox().run("sample", "--seed", seed)
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.hasPrefix(
        "error: --seed: expected a whole number from 0 to 18446744073709551615, found '\(seed)'\n"))
  }

  @Test func theLargestSeedIsASeed() {
    let result = Sandbox().run("sample", "--seed", "18446744073709551615", "--days", "1")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("timestamp,event,value,note\n"))
  }

  @Test func sampleChecksEachValueBeforeHowTheyCombine() {
    let sandbox = Sandbox()
    // A bad value is named as such, not as an option that does not combine.
    let limit = sandbox.run("sample", "--format", "apple-health", "--limit", "many")
    #expect(limit.status == 64)
    #expect(
      limit.stderr.hasPrefix(
        "error: --limit: expected a whole number from 1 to \(Int.max), found 'many'\n"))
    let size = sandbox.run("sample", "--size", "lots")
    #expect(size.status == 64)
    #expect(
      size.stderr.hasPrefix("error: --size: expected a size such as 200MB or 2GB, found 'lots'"))
    // A good one still does not combine.
    let combined = sandbox.run("sample", "--size", "1MB")
    #expect(combined.stderr.hasPrefix("error: --size: only with --format apple-health"))
    let persona = sandbox.run("sample", "--persona", "-1")
    #expect(
      persona.stderr.hasPrefix("error: --persona: expected a whole number from 0 to 1000000"))
  }

  @Test func numbersKeepTheirRanges() {
    let sandbox = Sandbox()
    let cases: [([String], String)] = [
      (
        ["backtest", "--threshold", "1"], "--threshold: expected a number from 0 up to 1, found '1'"
      ),
      (["backtest", "--days", "3661"], "--days: expected a whole number from 1 to 3660"),
      (["analyze", "--weekly", "-1"], "--weekly: expected a whole number from 0 to 3660"),
      (["events", "--last", "0"], "--last: expected a whole number from 1 to 2147483647"),
      (["log", "Coffee", "--value", "nan"], "--value: expected a number, found 'nan'"),
      (["sample", "--start", "2026-3-1"], "--start: expected a date YYYY-MM-DD, found '2026-3-1'"),
    ]
    for (arguments, message) in cases {
      let result = sandbox.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.hasPrefix("error: \(message)"), "\(arguments): \(result.stderr)")
    }
    // Nothing was logged, nothing created.
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
  }

  @Test func helpAndCompletionOfferTheChoices() throws {
    let help = Sandbox().run("help", "import").stdout
    #expect(help.contains("--date-order dmy|mdy"))
    #expect(
      help.contains(
        "--format csv|jsonl|apple-health|sleep-as-android|fitbit|garmin|health-auto-export|daylio|loop"
      ))
    let parser = RoutineCLI.parser
    func option(_ command: String, _ name: String) -> OptionSpec? {
      parser.command(named: command)?.options.first { $0.name == name }
    }
    let imported = try #require(option("import", "format"))
    #expect(
      imported.choices == [
        "csv", "jsonl", "apple-health", "sleep-as-android", "fitbit", "garmin",
        "health-auto-export", "daylio", "loop",
      ])
    // sample writes only the files of routine and Apple Health.
    let sampled = try #require(option("sample", "format"))
    #expect(sampled.choices == ["csv", "jsonl", "apple-health"])
    #expect(sampled.check?.expected == "csv, jsonl or apple-health")
    for command in ["analyze", "backtest"] {
      #expect(option(command, "format")?.choices == ["csv", "jsonl"])
      #expect(option(command, "log")?.completes == .file)
    }
    #expect(
      option("import", "date-order")?.check?.expected == "dmy (day first) or mdy (month first)")
    #expect(option("events", "event")?.completes == .kind)
  }
}
