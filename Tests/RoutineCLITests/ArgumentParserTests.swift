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
    (["log", "Wake", "--at"], "option '--at' needs a value (TIME|HH:MM)"),
    (["log", "Wake", "--colour"], "unknown option '--colour'; see 'routine help log'"),
    (["log"], "missing EVENT"),
    (["events", "extra"], "unexpected argument 'extra'"),
    (["log", "Wake", "--at", "1", "--at", "2"], "option '--at' given more than once"),
    (["log", "Wake", "--json=yes"], "option '--json' takes no value"),
    (["--days", "3", "log", "Wake"], "unknown option '--days'"),
    (["import", "f.csv", "--tz", "UTC"], "option '--tz' does not apply to 'import'"),
    (["log", "-x"], "unknown option '-x'"),
  ])
  func badCommandLinesSayWhatIsWrong(arguments: [String], message: String) {
    #expect(throws: UsageError.self) { try parser.parse(arguments) }
    do {
      _ = try parser.parse(arguments)
    } catch {
      #expect(error.message == message)
    }
  }

  @Test func helpNeedsNoOtherArguments() throws {
    #expect(try parser.parse(["log", "-h"]).flag("help"))
    #expect(try parser.parse(["import", "--help"]).flag("help"))
  }
}

struct HelpTests {
  @Test func everyCommandsHelpComesFromItsDeclaration() {
    let sandbox = Sandbox()
    for spec in RoutineCLI.parser.commands {
      let help = sandbox.run("help", spec.name)
      #expect(help.status == 0)
      #expect(help.stdout.hasPrefix("USAGE: \(spec.usage)\n"))
      for option in spec.options {
        #expect(help.stdout.contains("--\(option.name)"), "\(spec.name) --\(option.name)")
      }
      for argument in spec.arguments { #expect(help.stdout.contains(argument.name)) }
      #expect(sandbox.run(spec.name, "--help").stdout == help.stdout)
    }
  }

  @Test func theOverviewListsEveryCommand() {
    let overview = Sandbox().run("--help")
    #expect(overview.status == 0)
    for spec in RoutineCLI.parser.commands { #expect(overview.stdout.contains("  \(spec.name) ")) }
    let bare = Sandbox().run()
    #expect(bare.status == 64)
    #expect(bare.stdout.isEmpty && bare.stderr == overview.stdout)
  }

  @Test func theUsageLineListsArgumentsAndOptions() {
    #expect(
      LogCommand.spec.usage
        == "routine log EVENT... [--at TIME|HH:MM] [--value N] [--note TEXT]")
    #expect(
      ImportCommand.spec.usage == "routine import FILE... [--format csv|jsonl] [--skip-invalid]")
  }
}

struct DocumentationTests {
  @Test func theCLIReferenceShowsEachCommandsCurrentHelp() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/cli.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let sandbox = Sandbox()
    for spec in RoutineCLI.parser.commands {
      let help = sandbox.run("help", spec.name).stdout
      #expect(text.contains("```\n" + help + "```"), "docs/cli.md is out of date for \(spec.name)")
    }
  }
}
