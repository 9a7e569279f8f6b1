import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// The path of `program` on this machine's usual `PATH`, or `nil` when it is not installed.
private func installed(_ program: String) -> String? {
  ["/usr/bin", "/bin", "/usr/local/bin"].map { "\($0)/\(program)" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }
}

struct CompletionDeclarationTests {
  @Test func choicesComeFromTheValueTypeNotFromThePlaceholder() {
    #expect(StatusCommand.format.spec.choices == ["text", "waybar", "polybar", "tmux"])
    #expect(Option("time-zone", .zone(alsoNone: true), "").spec.choices == ["none"])
    #expect(Option("window", .text("HH:MM-HH:MM"), "").spec.choices.isEmpty)
    #expect(Option("log", .path(), "").spec.choices.isEmpty)
    #expect(OptionSpec.flag("json", "").choices.isEmpty)
    #expect(ArgumentSpec("bash|zsh|fish", "").choices == ["bash", "zsh", "fish"])
  }

  @Test func whatNamesAReminderAKindAZoneOrAFileSaysSo() throws {
    let parser = RoutineCLI.parser
    func argument(_ command: String) -> CompletionSource? {
      parser.command(named: command)?.arguments.first?.completes
    }
    func option(_ command: String, _ name: String) -> CompletionSource? {
      parser.command(named: command)?.options.first { $0.name == name }?.completes
    }
    for command in ["show", "edit", "remove", "enable", "disable", "restore"] {
      #expect(argument("reminders \(command)") == .reminder, "reminders \(command)")
    }
    #expect(argument("respond") == .notification)
    #expect(parser.command(named: "respond")?.arguments.last?.completes == .action)
    #expect(argument("log") == .kind)
    #expect(argument("import") == .file)
    #expect(option("events", "event") == .kind)
    #expect(option("reminders add", "activity") == .kind)
    #expect(option("import", "assume-zone") == .zone)
    #expect(option("settings", "time-zone") == .zone)
    #expect(GlobalOption.named("tz")?.completes == .zone)
    // A command that rewords a global keeps what it completes from.
    #expect(parser.command(named: "sample")?.globals.first { $0.name == "tz" }?.completes == .zone)
  }
}

struct CompleteCommandTests {
  @Test func theStoresKindsRemindersHabitsAndTasksArePrintedOneALine() {
    let sandbox = Sandbox()
    #expect(sandbox.run("log", "Wake", "Up").status == 0)
    #expect(sandbox.run("log", "Coffee").status == 0)
    #expect(sandbox.run("reminders", "add", "--activity", "Wake Up", "--at", "07:00").status == 0)
    #expect(sandbox.run("habits", "add", "Stretch").status == 0)
    #expect(sandbox.run("tasks", "add", "Taxes", "--due", "2026-05-01 17:00").status == 0)
    #expect(sandbox.run("__complete", "kinds").stdout == "Coffee\nWake Up\n")
    #expect(sandbox.run("__complete", "reminders").stdout == "reminder-1\n")
    #expect(sandbox.run("__complete", "habits").stdout == "Stretch\n")
    #expect(sandbox.run("__complete", "tasks").stdout == "Taxes\n")
  }

  /// `respond`'s notification ids: reminders' own, the pending ones (learned ones too) and those
  /// delivered in the last two days; its actions are those of the notification named before.
  @Test func respondIsOfferedItsNotificationsAndTheirActions() throws {
    let sandbox = Sandbox(now: "2026-04-27T04:00:00Z", zone: "Europe/Berlin")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    #expect(sandbox.run("import", sample).status == 0)
    #expect(sandbox.run("plan").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "05:00").status == 0)
    #expect(sandbox.run("deliver", "--now", "2026-04-27T03:00:30Z").status == 0)
    let ids = sandbox.run("__complete", "notifications").stdout.split(separator: "\n").map(
      String.init)
    #expect(ids.first == "reminder-1")
    let learned = try #require(ids.first { $0.hasPrefix("routine_WakeUp") }, "\(ids)")
    #expect(Set(ids).count == ids.count)
    let pending = sandbox.run("pending").stdout
    #expect(pending.contains(learned))
    // A learned wake-up reminder's buttons, in its category's order, then open.
    let actions = sandbox.run("__complete", "actions", learned).stdout
    let category =
      try #require(
        sandbox.run("pending", "--json").json["requests"] as? [[String: Any]]
      ).first { $0["id"] as? String == learned }?["category"] as? String
    let expected = NotificationCategory.all.first { $0.id.rawValue == category }?.actionIDs
    #expect(actions.split(separator: "\n").map(String.init) == expected)
    // Without a store or an id, every action there is, each once.
    let every = Sandbox().run("__complete", "actions").stdout.split(separator: "\n")
    #expect(Set(every).count == every.count && every.contains("steady") && every.contains("onit"))
    #expect(
      sandbox.run("__complete", "actions", "no-such-id").stdout.split(separator: "\n").count
        == every.count)
  }

  @Test func withoutAStoreNothingIsPrintedAndNoStoreIsCreated() {
    let sandbox = Sandbox()
    for source in ["kinds", "reminders", "habits", "tasks"] {
      let result = sandbox.run("__complete", source)
      #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
    }
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
  }

  @Test func aDamagedStoreIsPassedOverInSilence() throws {
    let sandbox = Sandbox()
    try FileManager.default.createDirectory(
      atPath: (sandbox.storePath as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    _ = sandbox.file("store/routine.db", String(repeating: "not a database\n", count: 100))
    let result = sandbox.run("__complete", "kinds")
    #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
  }

  @Test func zoneNamesComeFromTheZoneDatabase() {
    let lines = Sandbox().run("__complete", "zones").stdout.split(separator: "\n")
    #expect(lines.contains("Europe/Berlin") && lines.contains("Australia/Lord_Howe"))
    #expect(lines.contains("UTC"))
  }

  @Test func anUnknownShellOrSourceIsAUsageError() {
    let shell = Sandbox().run("completions", "tcsh")
    #expect(shell.status == 64)
    #expect(shell.stderr.hasPrefix("error: expected bash, zsh or fish, found 'tcsh'\n"))
    #expect(Sandbox().run("__complete", "files").status == 64)
    #expect(Sandbox().run("completions", "bash", "--json").status == 64)
  }

  @Test func theHiddenCommandIsLeftOutOfTheOverviewAndTheScripts() {
    #expect(!Sandbox().run("help").stdout.contains("__complete"))
    let bash = Sandbox().run("completions", "bash").stdout
    let commands = bash.split(separator: "\n").first { $0.contains("'') REPLY='log ") } ?? ""
    #expect(commands.contains(" respond "))
    #expect(!commands.contains("await-answer") && !commands.contains("__complete"))
  }
}

/// Each shell loads its script and completes what a person would type, against a real store
/// and the built binary (on `PATH`, as installed).
struct ShellCompletionTests {
  /// A line typed so far (its words, the last one at the cursor) and candidates it must offer.
  struct Case: CustomStringConvertible, Sendable {
    var words: [String]
    var expected: [String]
    /// Whether the candidates must be exactly `expected` (else: include them).
    var exact = false
    var description: String { words.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(words: ["routine", "rem"], expected: ["reminders"], exact: true),
    Case(words: ["routine", "reminders", ""], expected: ["list", "add", "show", "restore"]),
    Case(
      words: ["routine", "status", "--format", ""],
      expected: ["polybar", "text", "tmux", "waybar"],
      exact: true),
    Case(words: ["routine", "respond", ""], expected: ["reminder-1", "reminder-1-weekday-2"]),
    // The actions of the notification named before: an activity reminder's, not NoAlc's levels.
    Case(
      words: ["routine", "respond", "reminder-1-weekday-2", ""],
      expected: ["done", "snooze", "dismiss", "open"], exact: true),
    Case(
      words: ["routine", "respond", "--occurrence", "07:00", "reminder-1", "sn"],
      expected: ["snooze"], exact: true),
    Case(words: ["routine", "reminders", "show", ""], expected: ["reminder-1"], exact: true),
    Case(words: ["routine", "log", "Wa"], expected: ["Wake Up", "Water"], exact: true),
    Case(words: ["routine", "--tz", "Europe/Ber"], expected: ["Europe/Berlin"], exact: true),
    Case(words: ["routine", "completions", ""], expected: ["bash", "fish", "zsh"], exact: true),
    Case(words: ["routine", "help", "rem"], expected: ["reminders"], exact: true),
    Case(words: ["routine", "help", "da"], expected: ["dates"], exact: true),
    Case(words: ["routine", "events", "--ev"], expected: ["--event"], exact: true),
    Case(
      words: ["routine", "analyse", "--log", "x.csv", "--for"], expected: ["--format"], exact: true),
  ]

  /// A sandbox with a store holding "Wake Up", "Water" and reminder-1, and `script` written by
  /// `routine completions SHELL`.
  static func prepared(_ shell: String) throws -> (
    Sandbox, script: String, environment: [String: String]
  ) {
    let sandbox = Sandbox()
    for command in [
      ["log", "Wake", "Up"], ["log", "Water"],
      ["reminders", "add", "--activity", "Wake Up", "--at", "07:00"],
    ] {
      #expect(sandbox.run(command).status == 0)
    }
    let script = try sandbox.runBinary("completions", shell)
    #expect(script.status == 0 && script.stderr.isEmpty)
    let path = sandbox.file("routine.\(shell)", script.stdout)
    var environment = sandbox.variables
    environment["PATH"] = try Sandbox.binary().deletingLastPathComponent().path + ":/usr/bin:/bin"
    return (sandbox, path, environment)
  }

  /// The candidates `shell` offers for `words`, as it would insert them (quoted).
  static func candidates(
    _ shell: String, _ words: [String], script: String, in sandbox: Sandbox,
    environment: [String: String]
  ) throws -> [String] {
    let program = URL(fileURLWithPath: installed(shell)!)
    let (status, output): (Int32, String)
    switch shell {
    case "bash":
      (status, output) = try PackageConsumerTests.run(
        program,
        [
          "-c",
          """
          source "$1" || exit 3; shift
          COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
          _routine; printf '%s\\n' "${COMPREPLY[@]}"
          """, "bash", script,
        ] + words, in: sandbox.directory, environment: environment)
    case "zsh":
      // compadd, _files and compset exist only inside a completion widget: these stand-ins
      // match what is typed, as compadd does, and print what it would insert (quoted).
      (status, output) = try PackageConsumerTests.run(
        program,
        [
          "-f", "-c",
          """
          compadd() { while [[ $1 != -- ]]; do shift; done; shift
            local c; for c in "$@"; do [[ $c == ${PREFIX}* ]] && print -r -- ${(q)c}; done }
          _files() { print -r -- '<files>' }
          compset() { PREFIX=${PREFIX#*=} }
          compdef() { : }
          source "$1" || exit 3; shift
          words=("$@"); CURRENT=$#; PREFIX=${words[CURRENT]}
          _routine
          """, "zsh", script,
        ] + words, in: sandbox.directory, environment: environment)
    default:
      (status, output) = try PackageConsumerTests.run(
        program,
        [
          "--no-config", "-c", "source $argv[1]; or exit 3; complete -C$argv[2]", script,
          words.joined(separator: " "),
        ],
        in: sandbox.directory, environment: environment)
    }
    #expect(status == 0, "\(shell): \(output)")
    return output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
      .filter { !$0.isEmpty }
  }

  /// How `shell` inserts `value`: bash and zsh escape a space; fish quotes as it inserts, and
  /// `complete -C` shows the value itself.
  static func inserted(_ value: String, by shell: String) -> String {
    shell == "fish" ? value : value.replacingOccurrences(of: " ", with: "\\ ")
  }

  static func check(_ shell: String) throws {
    let (sandbox, script, environment) = try prepared(shell)
    for test in cases {
      let found = try candidates(
        shell, test.words, script: script, in: sandbox, environment: environment)
      let expected = test.expected.map { inserted($0, by: shell) }
      if test.exact {
        #expect(found.sorted() == expected.sorted(), "\(shell): \(test)")
      } else {
        #expect(Set(expected).isSubset(of: found), "\(shell): \(test): \(found)")
      }
    }
  }

  @Test(.enabled(if: installed("bash") != nil, "bash is not installed"))
  func bashLoadsItsScriptAndCompletes() throws { try Self.check("bash") }

  @Test(.enabled(if: installed("zsh") != nil, "zsh is not installed (apt-get install zsh)"))
  func zshLoadsItsScriptAndCompletes() throws { try Self.check("zsh") }

  @Test(.enabled(if: installed("fish") != nil, "fish is not installed (apt-get install fish)"))
  func fishLoadsItsScriptAndCompletes() throws { try Self.check("fish") }

  /// `--store ~/other.db` reaches the completion function unexpanded: the kinds must come from
  /// that store under the home directory, not from one called '~'.
  @Test(arguments: ["bash", "zsh", "fish"])
  func aStoreTypedWithATildeIsReadFromTheHomeDirectory(shell: String) throws {
    guard installed(shell) != nil else {
      print("skipped: \(shell) is not installed")
      return
    }
    let (sandbox, script, environment) = try Self.prepared(shell)
    let other = sandbox.directory.appendingPathComponent("other.db").path
    #expect(sandbox.run(["--store", other, "log", "Coffee"]).status == 0)
    let found = try Self.candidates(
      shell, ["routine", "--store", "~/other.db", "log", "Co"], script: script, in: sandbox,
      environment: environment)
    #expect(found == ["Coffee"], "\(shell)")
  }

  @Test(.enabled(if: installed("bash") != nil, "bash is not installed"))
  func bashCompletesAValueAfterAnEqualsSignAndFiles() throws {
    let (sandbox, script, environment) = try Self.prepared("bash")
    _ = sandbox.file("data one.csv", "")
    // bash splits --format=t at '=' (COMP_WORDBREAKS): '--format' '=' 't'.
    #expect(
      try Self.candidates(
        "bash", ["routine", "status", "--format", "=", "t"], script: script, in: sandbox,
        environment: environment
      ).sorted() == ["text", "tmux"])
    #expect(
      try Self.candidates(
        "bash", ["routine", "import", "data"], script: script, in: sandbox, environment: environment
      ) == ["data one.csv"])
    // Inside an opened quote the value goes in as it is; the shell closes the quote.
    #expect(
      try Self.candidates(
        "bash", ["routine", "log", "\"Wak"], script: script, in: sandbox, environment: environment)
        == ["Wake Up"])
  }
}

struct ManPageTests {
  static let repository = DocumentedWorkflowTests.repository

  @Test func theCommittedManualPageIsTheGeneratedOne() throws {
    let committed = try String(
      contentsOf: Self.repository.appendingPathComponent("docs/routine.1"), encoding: .utf8)
    let result = Sandbox().run("help", "--man")
    #expect(result.status == 0)
    #expect(
      result.stdout == committed, "docs/routine.1 is stale: routine help --man > docs/routine.1")
  }

  @Test func theManualPageHasEverySectionAndCommand() {
    let page = Sandbox().run("help", "--man").stdout
    for section in [
      "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "EXIT STATUS", "ENVIRONMENT",
      "FILES", "SEE ALSO",
    ] {
      #expect(page.contains(".SH \(section)") || page.contains(".SH \"\(section)\""), "\(section)")
    }
    #expect(page.hasPrefix(".TH ROUTINE 1 "))
    #expect(page.contains(".SS \"routine log EVENT... [\\-\\-at TIME]"))
    #expect(page.contains("\\fB\\-\\-skip\\-invalid\\fR"))
    #expect(!page.contains("__complete") && !page.contains("await-answer"))
    #expect(Sandbox().run("help", "log", "--man").status == 64)
  }

  @Test func roffSpecialsAreEscaped() {
    #expect(ManPage.text(".hidden request") == "\\&.hidden request")
    #expect(ManPage.text("'quoted") == "\\&'quoted")
    #expect(ManPage.text("a \\ b") == "a \\e b")
    #expect(ManPage.text("--at and look-back, -h") == "\\-\\-at and look-back, \\-h")
    #expect(ManPage.text("one\n\n  two") == "one\n.PP\ntwo")
  }

  @Test(
    .enabled(if: installed("groff") != nil, "groff is not installed (apt-get install groff-base)"))
  func groffReadsTheManualPageWithoutAWarning() throws {
    let sandbox = Sandbox()
    let page = sandbox.file("routine.1", sandbox.run("help", "--man").stdout)
    let (status, output) = try PackageConsumerTests.run(
      URL(fileURLWithPath: installed("groff")!), ["-man", "-Tutf8", "-ww", "-z", page],
      in: sandbox.directory, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    #expect(status == 0)
    #expect(output.isEmpty, "\(output)")
  }

  /// The exit statuses are written once, in ``ExitCode``; docs/cli.md's table must say the same.
  @Test func theExitStatusTableOfTheDocsIsTheCodes() throws {
    let docs = try DocumentedWorkflowTests.text(of: "docs/cli.md")
    let section = docs.components(separatedBy: "## Exit status").dropFirst().first ?? ""
    let rows = section.components(separatedBy: "\n").filter { $0.hasPrefix("| ") }.dropFirst(2)
      .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
      .prefix { Int($0.first ?? "") != nil }
    #expect(rows.map { $0[0] } == ExitCode.documented.map { String($0.rawValue) })
    #expect(rows.map { $0[1] } == ExitCode.documented.map(\.meaning))
  }
}

struct InstallStepTests {
  /// The README's install step, after the binary is in place, puts the manual page and the three
  /// scripts where man and each shell look.
  @Test func theInstallStepInstallsTheManualPageAndTheCompletions() throws {
    let readme = try DocumentedWorkflowTests.text(of: "README.md")
    let install = readme.components(separatedBy: "## Install").dropFirst().first ?? ""
    let block = DocumentedWorkflowTests.blocks("sh", in: install).first ?? []
    let lines = block.drop { !$0.contains("~/.local/bin/routine") }.dropFirst()
    #expect(!lines.isEmpty)
    let home = try DocumentedWorkflowTests.home()
    defer { try? FileManager.default.removeItem(at: home) }
    let (status, output) = try DocumentedWorkflowTests.shell(
      "set -e\n" + lines.joined(separator: "\n"),
      environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"],
      in: DocumentedWorkflowTests.repository)
    #expect(status == 0, "\(output)")
    let sandbox = Sandbox()
    for (path, expected) in [
      (".local/share/man/man1/routine.1", sandbox.run("help", "--man").stdout),
      (
        ".local/share/bash-completion/completions/routine",
        sandbox.run("completions", "bash").stdout
      ),
      (".local/share/zsh/site-functions/_routine", sandbox.run("completions", "zsh").stdout),
      (".config/fish/completions/routine.fish", sandbox.run("completions", "fish").stdout),
    ] {
      let installed = try? String(
        contentsOf: home.appendingPathComponent(path), encoding: .utf8)
      #expect(installed == expected, "\(path)")
    }
  }
}
