import Foundation
import Testing

@testable import RoutineCLI

struct ArgumentParserTests {
  let parser = RoutineCLI.parser

  @Test func globalOptionsMayComeBeforeOrAfterTheCommand() throws {
    let before = try parser.parse(["--store", "/s.db", "--json", "log", "Wake", "Up", "--at=07:05"])
    let after = try parser.parse(["log", "Wake", "Up", "--at", "07:05", "--json", "--store=/s.db"])
    #expect(before == after)
    #expect(before.command == "log")
    #expect(before.arguments == ["Wake", "Up"])
    #expect(before.value("at") == "07:05")
    #expect(before.flag("json"))
  }

  @Test func repeatableOptionsCollectEveryValue() throws {
    let parsed = try parser.parse(["analyze", "--log", "a.csv", "--log=b.csv"])
    #expect(parsed.values("log") == ["a.csv", "b.csv"])
  }

  @Test func aDoubleDashEndsOptionsAndNegativeNumbersAreValues() throws {
    let parsed = try parser.parse(["log", "--value", "-2", "--", "--strange name"])
    #expect(parsed.value("value") == "-2")
    #expect(parsed.arguments == ["--strange name"])
  }

  @Test(arguments: [
    (["frobnicate"], "unknown command 'frobnicate'; see 'routine help'"),
    (["log", "Wake", "--at"], "option '--at' needs a value (TIME)"),
    (["log", "Wake", "--colour"], "unknown option '--colour'; see 'routine help log'"),
    (["log"], "missing EVENT"),
    (["events", "extra"], "unknown subcommand 'events extra'; see 'routine help events'"),
    (["kinds", "rename", "a"], "missing NEW"),
    (["kinds", "rename", "a", "b", "c"], "unexpected argument 'c'"),
    (["log", "Wake", "--at", "1", "--at", "2"], "option '--at' given more than once"),
    (["log", "Wake", "--json=yes"], "option '--json' takes no value"),
    (["--days", "3", "log", "Wake"], "unknown option '--days'; see 'routine help'"),
    (["log", "Wake", "--vlaue", "3"], "unknown option '--vlaue'; did you mean '--value'?"),
    (["analyze", "--day", "3"], "unknown option '--day'; did you mean '--days'?"),
    (["log", "-x"], "unknown option '-x'; see 'routine help log'"),
    (["plan", "--dry"], "unknown option '--dry'; did you mean '--dry-run'?"),
    (["log", "-json"], "unknown option '-json'; options start with two dashes: '--json'"),
    (["anlyze"], "unknown command 'anlyze'; did you mean 'analyze'?"),
    (["evnets"], "unknown command 'evnets'; did you mean 'events'?"),
    (["events", "delet"], "unknown subcommand 'events delet'; did you mean 'events delete'?"),
    (["clear"], "choose one of --all, --learned or --delivered"),
    (
      ["clear", "--all", "--learned"],
      "choose only one of --all, --learned or --delivered, not --all and --learned"
    ),
    (
      ["events", "delete", "--days", "2"],
      "unknown option '--days'; see 'routine help events delete'"
    ),
    (
      ["events", "--from", "today", "delete", "--yes", "--dry"],
      "unknown option '--dry'; see 'routine help events delete'"
    ),
  ])
  func badCommandLinesSayWhatIsWrong(arguments: [String], message: String) {
    #expect(throws: UsageError.self) { try parser.parse(arguments) }
    do {
      _ = try parser.parse(arguments)
    } catch {
      #expect(error.message == message)
    }
  }

  @Test(arguments: [
    ["import", "f.csv", "--tz", "UTC"], ["backtest", "--now", "2026-04-27T06:00Z"],
    ["clear", "--all", "--tz", "UTC"], ["sample", "--store", "x.db"],
    ["help", "--now", "2026-04-27T06:00Z"],
    ["--tz", "Europe/Berlin", "kinds", "--now", "2026-04-27T06:00Z"],
  ])
  func globalOptionsAreAcceptedByEveryCommand(arguments: [String]) throws {
    // So that `alias routine='routine --tz Europe/Berlin'` works whatever the command.
    let parsed = try parser.parse(arguments)
    #expect(parsed.command != nil)
  }

  @Test(arguments: [
    (
      ["log", "Coffee", "--note", "--json"],
      "option '--note' needs a value (TEXT), found the option '--json'; write --note=VALUE for a value that starts with '-'"
    ),
    (
      ["analyze", "--days", "--store", "x.db"],
      "option '--days' needs a value (N), found the option '--store'; write --days=VALUE for a value that starts with '-'"
    ),
    (
      ["log", "Coffee", "--note", "-h"],
      "option '--note' needs a value (TEXT), found the option '-h'; write --note=VALUE for a value that starts with '-'"
    ),
  ])
  func anOptionThatNeedsAValueDoesNotSwallowTheNextOption(arguments: [String], message: String) {
    #expect(throws: UsageError(message, command: arguments[0])) { try parser.parse(arguments) }
  }

  @Test func valuesThatStartWithADashAreAttachedOrAreNumbersOrStandardInput() throws {
    let attached = try parser.parse(["log", "Coffee", "--note=--json", "--value", "-1.5"])
    #expect(attached.value("note") == "--json")
    #expect(attached.value("value") == "-1.5")
    #expect(try parser.parse(["analyze", "--log", "-"]).values("log") == ["-"])
    #expect(try parser.parse(["import", "-"]).arguments == ["-"])
  }

  @Test func subcommandsAndAliasesResolveToTheirFullNames() throws {
    #expect(try parser.parse(["events", "delete", "--last", "2"]).command == "events delete")
    #expect(try parser.parse(["kinds", "rename", "a", "b"]).arguments == ["a", "b"])
    #expect(try parser.parse(["kinds"]).command == "kinds")
    #expect(try parser.parse(["analyse", "--days", "3"]).command == "analyze")
    #expect(try parser.parse(["--version"]).flag("version"))
  }

  @Test func longHelpLinesWrapAtAHundredColumnsUnderTheirColumn() {
    let text = HelpFormatter.wrapped(
      "USAGE: " + Array(repeating: "[--option VALUE]", count: 8).joined(separator: " "), indent: 7)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.count <= 100 })
    #expect(lines[1].hasPrefix("       [--option VALUE]"))
    // Nothing is lost or reordered.
    #expect(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).count == 17)
    #expect(HelpFormatter.lines(of: "short text", width: 100) == ["short text"])
    #expect(HelpFormatter.lines(of: String(repeating: "x", count: 120), width: 100).count == 1)
  }

  @Test func helpNeedsNoOtherArguments() throws {
    #expect(try parser.parse(["log", "-h"]).flag("help"))
    #expect(try parser.parse(["import", "--help"]).flag("help"))
  }
}

struct HelpTests {
  static let allCommands = RoutineCLI.parser.commands.flatMap(\.allCommands)

  @Test func everyCommandsHelpComesFromItsDeclaration() {
    let sandbox = Sandbox()
    for spec in Self.allCommands {
      let words = spec.name.split(separator: " ").map(String.init)
      let help = sandbox.run(["help"] + words)
      #expect(help.status == 0)
      // The usage line, wrapped at 100 columns like every line of help.
      #expect(
        help.stdout.hasPrefix(HelpFormatter.wrapped("USAGE: \(spec.usage)", indent: 7) + "\n"))
      #expect(help.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(spec.name)")
      for option in spec.options {
        #expect(help.stdout.contains("--\(option.name)"), "\(spec.name) --\(option.name)")
      }
      for argument in spec.arguments { #expect(help.stdout.contains(argument.name)) }
      for sub in spec.subcommands { #expect(help.stdout.contains("  \(sub.word) ")) }
      #expect(sandbox.run(words + ["--help"]).stdout == help.stdout)
    }
  }

  @Test func aCommandsHelpRewordsTheGlobalsItUsesDifferently() {
    let help = Sandbox().run("sample", "--help").stdout
    #expect(
      help.contains(
        "--tz ZONE  The persona's IANA time zone (default Europe/Berlin, whatever $TZ says)."))
    #expect(!help.contains("--tz ZONE  The user's"))
  }

  @Test func theVersionIsPrintedWithAnyCommand() {
    let result = Sandbox().run("log", "--version")
    #expect(result.status == 0)
    #expect(result.stdout == "routine \(RoutineCLI.version)\n")
    #expect(Sandbox().run("--version").stdout == result.stdout)
  }

  @Test func theOverviewListsEveryCommand() {
    let overview = Sandbox().run("--help")
    #expect(overview.status == 0)
    for spec in Self.allCommands where !spec.isHidden {
      #expect(overview.stdout.contains("  \(spec.name) "))
    }
    #expect(!overview.stdout.contains("await-answer"))
    let bare = Sandbox().run()
    #expect(bare.status == 64)
    #expect(bare.stdout.isEmpty && bare.stderr == overview.stdout)
  }

  @Test func theUsageLineListsArgumentsAndOptions() {
    #expect(LogCommand.spec.usage == "routine log EVENT... [--at TIME] [--value N] [--note TEXT]")
    #expect(
      ImportCommand.spec.usage
        == "routine import FILE... [--format csv|jsonl|apple-health|sleep-as-android|fitbit|garmin|"
        + "health-auto-export|daylio|loop] [--skip-invalid] "
        + "[--assume-zone ZONE] [--columns MAP] [--date-order dmy|mdy] [--date-format PATTERN] "
        + "[--thousands SEP] [--skip-lines N] [--from DATE]")
    #expect(ClearCommand.spec.usage == "routine clear --all|--learned|--delivered")
    #expect(KindsRenameCommand.spec.usage == "routine kinds rename OLD NEW [--yes]")
  }
}

struct DocumentationTests {
  @Test func theCLIReferenceShowsEachCommandsCurrentHelp() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/cli.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let sandbox = Sandbox()
    // Hidden commands are routine's own plumbing (docs/delivery.md names them).
    for spec in HelpTests.allCommands where !spec.isHidden {
      let help = sandbox.run(["help"] + spec.name.split(separator: " ").map(String.init)).stdout
      #expect(text.contains("```\n" + help + "```"), "docs/cli.md is out of date for \(spec.name)")
    }
  }
}
