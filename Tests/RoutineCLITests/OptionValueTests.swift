import Foundation
import Testing

@testable import RoutineCLI

/// Typed option values: one declaration reads, checks, explains and lists an option's values.
struct OptionValueTests {
  enum Colour: String, CaseIterable, Sendable {
    case red, green
    case lightBlue = "light-blue"
  }

  static let colour = Option("colour", .oneOf(Colour.allCases), "A colour.")
  static let hours = Option(
    "hours", .integer("HOURS", oneOf: [1, 3, 6], unit: "hours"), "How far back.")
  static let count = Option("count", .integer(in: 1...10), "How many.")
  static let when = Option("when", .time(), "When.")

  static let parser = ArgumentParser(commands: [
    CommandSpec(
      name: "paint", summary: "Paints.",
      options: [colour.spec, hours.spec, count.spec, when.spec])
  ])

  @Test func aClosedSetIsReadInAnyCaseAndListsItsValues() throws {
    let parsed = try Self.parser.parse(["paint", "--colour", "Light-Blue", "--hours", "3"])
    #expect(try parsed.value(Self.colour) == .lightBlue)
    #expect(try parsed.value(Self.hours) == 3)
    #expect(try parsed.value(Self.count) == nil)
    #expect(Self.colour.spec.valueName == "red|green|light-blue")
    #expect(Self.colour.spec.choices == ["red", "green", "light-blue"])
    #expect(Self.hours.spec.choices == ["1", "3", "6"])
    #expect(Self.count.spec.choices.isEmpty)
  }

  @Test func theParserRefusesAValueOutsideTheDeclarationSayingWhatItExpects() {
    #expect(
      throws: UsageError(
        "--colour: expected red, green or light-blue, found 'blue'", command: "paint")
    ) {
      try Self.parser.parse(["paint", "--colour", "blue"])
    }
    #expect(throws: UsageError("--hours: expected 1, 3 or 6 hours, found '2'", command: "paint")) {
      try Self.parser.parse(["paint", "--hours=2"])
    }
    #expect(
      throws: UsageError(
        "--count: expected a whole number from 1 to 10, found '11'", command: "paint")
    ) {
      try Self.parser.parse(["paint", "--count", "11"])
    }
    // A mistyped word gets the nearest choice; a number gets the list alone.
    #expect(
      throws: UsageError(
        "--colour: expected red, green or light-blue, found 'gren'; did you mean 'green'?",
        command: "paint")
    ) {
      try Self.parser.parse(["paint", "--colour", "gren"])
    }
    // A 15-digit number is out of range, not a crash.
    #expect(throws: UsageError.self) {
      try Self.parser.parse(["paint", "--count", "999999999999999999999"])
    }
  }

  @Test func helpAndTheManualNameChoicesThePlaceholderHides() {
    // `HOURS` hides them, so help adds them; `red|green|light-blue` shows them already.
    #expect(Self.hours.spec.fullHelp == "How far back. Choices: 1, 3, 6.")
    #expect(Self.colour.spec.fullHelp == "A colour.")
    let help = HelpFormatter.help(for: Self.parser.commands[0])
    #expect(help.contains("--hours HOURS"))
    #expect(help.contains("Choices: 1, 3, 6."))
    let manual = ManPage.option(Self.hours.spec).joined(separator: "\n")
    #expect(manual.contains("Choices: 1, 3, 6."))
  }

  @Test func aTimeIsAPhraseTheParserRefusesUnquotedAndTheCommandReads() throws {
    #expect(Self.when.spec.isTimePhrase)
    #expect(Self.when.spec.check == nil)
    #expect(throws: UsageError.self) { try Self.parser.parse(["paint", "--when", "fri", "12:00"]) }
    let parsed = try Self.parser.parse(["paint", "--when", "fri 12:00"])
    #expect(try parsed.value(Self.when) == "fri 12:00")
  }

  /// Across every command: each value an option lists is one its declaration accepts, and its
  /// help, its completion and the manual page all offer the same list.
  @Test func everyListedChoiceIsAcceptedAndOfferedEverywhere() throws {
    let commands = RoutineCLI.parser.commands.flatMap(\.allCommands)
    let script = try #require(
      ShellCompletion.script(for: "bash", commands: RoutineCLI.parser.commands))
    var checked = 0
    for command in commands {
      let help = HelpFormatter.help(for: command)
      for option in command.options where !option.choices.isEmpty {
        checked += 1
        if let check = option.check {
          for choice in option.choices {
            #expect(check.accepts(choice), "\(command.name) --\(option.name) \(choice)")
          }
          #expect(!check.accepts("no-such-value"), "\(command.name) --\(option.name)")
        }
        let takes = ShellCompletion.takes(option.completes, option.choices)
        #expect(script.contains("'\(command.name):--\(option.name)') REPLY='\(takes)'"))
        for choice in option.choices {
          #expect(help.contains(choice), "help of \(command.name) names \(choice)")
        }
      }
    }
    #expect(checked >= 8)
  }
}
