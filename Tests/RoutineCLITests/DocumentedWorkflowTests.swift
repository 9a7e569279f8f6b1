import Foundation
import Testing

/// Every workflow the documentation shows, run exactly as written.
///
/// - Each ```` ```console ```` block is a transcript: `$ command` lines and the output they
///   print (stdout and stderr together). All transcripts of one page run in order, in one shell,
///   in a clean environment (`env -i`: only `HOME` and a `PATH` holding the installed `routine`),
///   in a new home directory holding the repository's `data/`. The output must match exactly.
/// - The README's cron lines and docs/planner.md's systemd units run as cron and systemd would
///   run them, from a clean environment, after the README's install step.
struct DocumentedWorkflowTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// One command of a transcript and the output the page shows for it.
  struct Step: CustomStringConvertible {
    var command: String
    var expected: String
    var description: String { "$ \(command)" }
  }

  static func text(of page: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent(page), encoding: .utf8)
  }

  /// The fenced blocks of `markdown` whose info string is `language`.
  static func blocks(_ language: String, in markdown: String) -> [[String]] {
    var result: [[String]] = []
    var current: [String]?
    for line in markdown.components(separatedBy: "\n") {
      if current == nil, line == "```\(language)" {
        current = []
      } else if current != nil, line == "```" {
        result.append(current!)
        current = nil
      } else {
        current?.append(line)
      }
    }
    return result
  }

  static func steps(in markdown: String) -> [Step] {
    var steps: [Step] = []
    for block in blocks("console", in: markdown) {
      for line in block {
        if line.hasPrefix("$ ") {
          steps.append(Step(command: String(line.dropFirst(2)), expected: ""))
        } else if !steps.isEmpty {
          steps[steps.count - 1].expected += line + "\n"
        }
      }
    }
    return steps
  }

  /// A new home with routine installed as the README says (`~/.local/bin/routine`) and the
  /// repository's sample data beside it.
  static func home() throws -> URL {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-docs-\(UUID().uuidString)")
    let bin = home.appendingPathComponent(".local/bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: try Sandbox.binary(), to: bin.appendingPathComponent("routine"))
    try FileManager.default.createSymbolicLink(
      at: home.appendingPathComponent("data"),
      withDestinationURL: repository.appendingPathComponent("data"))
    return home
  }

  /// Runs `script` with `/bin/sh` in exactly `environment`, in `directory`.
  static func shell(_ script: String, environment: [String: String], in directory: URL) throws
    -> (status: Int32, output: String)
  {
    try PackageConsumerTests.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: directory, environment: environment)
  }

  /// Runs the transcripts of `page` and compares each command's output with the page's.
  static func check(page: String) throws {
    let steps = steps(in: try text(of: page))
    #expect(!steps.isEmpty, "\(page) has no transcript")
    let home = try home()
    defer { try? FileManager.default.removeItem(at: home) }
    // `swift run routine ...` on a page stands for the installed binary: building inside a test
    // would wait for the build lock the test run holds.
    var script = """
      swift() { if [ "$1" = run ] && [ "$2" = routine ]; then shift 2; routine "$@"; \
      else echo "only 'swift run routine' is simulated" >&2; return 127; fi; }
      status=0

      """
    for (index, step) in steps.enumerated() {
      script += "printf '\\n@@step \(index)@@\\n'\n(exit $status)\n{ \(step.command)\n} 2>&1\n"
      script += "status=$?\n"
    }
    let environment = [
      "HOME": home.path, "PATH": home.path + "/.local/bin:/usr/bin:/bin",
    ]
    let (_, output) = try shell(script, environment: environment, in: home)
    var outputs: [String] = []
    for part in output.components(separatedBy: "\n@@step ").dropFirst() {
      guard let end = part.range(of: "@@\n") else { continue }
      outputs.append(String(part[end.upperBound...]))
    }
    #expect(outputs.count == steps.count, "\(page): \(output)")
    for (step, actual) in zip(steps, outputs) {
      #expect(actual == step.expected, "\(page): \(step)")
    }
  }

  @Test func theReadmeTranscriptsAreTrue() throws { try Self.check(page: "README.md") }

  @Test(arguments: [
    "docs/cli.md", "docs/planner.md", "docs/formats.md", "docs/time.md", "docs/delivery.md",
    "docs/reminders.md", "docs/analytics.md", "docs/apple.md", "docs/status-bars.md",
    "docs/apple-health.md", "docs/calendar.md", "docs/report.md", "docs/completions.md",
    "docs/dates.md",
  ])
  func theTranscriptsOfTheDocsAreTrue(page: String) throws { try Self.check(page: page) }

  /// The README's install step: a release build that carries Swift's runtime and Foundation
  /// (so that it outlives the toolchain it was built with), installed as
  /// `~/.local/bin/routine`, the path these tests (and the cron lines) use.
  @Test func theInstallStepIsTheOneTheseTestsFollow() throws {
    let readme = try Self.text(of: "README.md")
    #expect(
      readme.contains(
        """
        swift build -c release --static-swift-stdlib
        install -D -m 0755 .build/release/routine ~/.local/bin/routine

        """))
  }

  /// Cron runs a line with `/bin/sh -c` and only `HOME`, `LOGNAME`, `SHELL` and
  /// `PATH=/usr/bin:/bin` set; a line must work so, on its first run.
  @Test(arguments: ["README.md", "docs/delivery.md", "docs/planner.md"])
  func theCronLinesWorkAsPastedOnTheirFirstRun(page: String) throws {
    let lines = Self.blocks("cron", in: try Self.text(of: page)).flatMap { $0 }
      .filter { !$0.hasPrefix("#") && !$0.isEmpty }
    #expect(!lines.isEmpty)
    for line in lines {
      let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
      #expect(fields.count == 6, "\(line)")
      let command = String(fields[5]).trimmingCharacters(in: .whitespaces)
      let home = try Self.home()
      defer { try? FileManager.default.removeItem(at: home) }
      // The export the line imports, where the README says it is.
      try FileManager.default.createDirectory(
        at: home.appendingPathComponent("exports"), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: Self.repository.appendingPathComponent("data/sample.csv"),
        to: home.appendingPathComponent("exports/daily.csv"))
      let cron = [
        "HOME": home.path, "LOGNAME": "routine", "SHELL": "/bin/sh", "PATH": "/usr/bin:/bin",
      ]
      let (status, output) = try Self.shell(command, environment: cron, in: home)
      #expect(output.isEmpty, "cron would mail: \(output)")
      let log =
        (try? String(
          contentsOf: home.appendingPathComponent(".local/state/routine.log"), encoding: .utf8))
        ?? ""
      if command.contains(" deliver ") {
        // Nothing is due on a first run: it succeeds and writes nothing, every minute; unless
        // notify-send is missing, which it says (NotifySendTests delivers for real).
        if ["/usr/bin", "/bin"].contains(where: {
          FileManager.default.isExecutableFile(atPath: "\($0)/notify-send")
        }) {
          #expect(status == 0, "\(line): \(log)")
          #expect(log.isEmpty, "\(line) logged: \(log)")
        } else {
          #expect(status == 69)
          #expect(log.contains("install libnotify-bin"), "\(log)")
        }
        continue
      }
      #expect(status == 0, "\(line): \(output)")
      if command.contains(" import ") {
        #expect(
          log.contains("'\(home.path)/exports/daily.csv': 709 events read, 709 added"), "\(log)")
      }
      #expect(log.contains("Plan from 7 days of events"), "\(log)")
      // Only a line that imports creates the store: planning and delivering find nothing to
      // do on a fresh install and create nothing (the store's locale is the person's, not cron's).
      #expect(
        FileManager.default.fileExists(
          atPath: home.appendingPathComponent(".local/share/routine/routine.db").path)
          == command.contains(" import "), "\(line)")
    }
  }

  /// systemd runs a user service's ExecStart with `%h` the home directory, and an environment of
  /// little more than `HOME`, `USER` and a default `PATH`.
  @Test func thePlannersSystemdUnitsRunAsWritten() throws {
    let units = Self.blocks("ini", in: try Self.text(of: "docs/planner.md"))
    let service = try #require(units.first { $0.contains("[Service]") })
    #expect(units.contains { $0.contains("[Timer]") && $0.contains("Persistent=true") })
    let execStart = try #require(service.first { $0.hasPrefix("ExecStart=") })
    let home = try Self.home()
    defer { try? FileManager.default.removeItem(at: home) }
    let command = execStart.dropFirst("ExecStart=".count).replacingOccurrences(
      of: "%h", with: home.path)
    let environment = [
      "HOME": home.path, "USER": "routine", "PATH": "/usr/local/bin:/usr/bin:/bin",
    ]
    let (status, output) = try Self.shell(command, environment: environment, in: home)
    #expect(status == 0, "\(output)")
    #expect(output.contains("Plan from 7 days of events"))
  }
}
