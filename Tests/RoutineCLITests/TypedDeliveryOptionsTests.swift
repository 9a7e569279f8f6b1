import Foundation
import Testing

@testable import RoutineCLI

/// The options of delivery, history, status, settings, clear, plan and help are typed: the
/// parser refuses a bad value before anything runs, and help and completion list the values.
struct TypedDeliveryOptionsTests {
  static func refusal(_ arguments: [String]) -> UsageError? {
    do {
      _ = try RoutineCLI.parser.parse(arguments)
      return nil
    } catch {
      return error
    }
  }

  @Test func anUnknownSinkIsRefusedAtParseTimeNamingTheSinks() {
    for command in ["deliver", "watch"] {
      #expect(
        Self.refusal([command, "--sink", "pager"])
          == UsageError(
            "--sink: expected stdout, exec or notify-send, found 'pager'", command: command))
    }
    // Refused before a store or a sink exists: nothing is created.
    let sandbox = Sandbox()
    let run = sandbox.run("deliver", "--sink", "pager")
    #expect(run.status == 64)
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    // In any case, as every closed set.
    #expect(Self.refusal(["deliver", "--sink", "STDOUT"]) == nil)
    #expect(SinkOptions.sink.spec.choices == ["stdout", "exec", "notify-send"])
  }

  @Test func settingsRefusesValuesOutsideTheirRangesAtParseTime() {
    #expect(
      Self.refusal(["settings", "--threshold", "2"])
        == UsageError(
          "--threshold: expected a number from 0 up to 1, found '2'", command: "settings"))
    // 1 is no threshold: nothing has a confidence above it.
    #expect(Self.refusal(["settings", "--threshold", "1"]) != nil)
    #expect(Self.refusal(["settings", "--threshold", "nan"]) != nil)
    #expect(Self.refusal(["settings", "--threshold", "0.99"]) == nil)
    #expect(
      Self.refusal(["settings", "--lead", "721"])
        == UsageError(
          "--lead: expected a whole number from 0 to 720, found '721'", command: "settings"))
    #expect(
      Self.refusal(["settings", "--enabled", "maybe"])
        == UsageError("--enabled: expected true or false, found 'maybe'", command: "settings"))
    #expect(
      Self.refusal(["settings", "--locale", "xx_QQ"])
        == UsageError(
          "--locale: expected a locale name like en_US, de_DE or C, or none, found 'xx_QQ'",
          command: "settings"))
    for name in ["lead", "buffer", "window", "weekly", "grace", "snooze"] {
      #expect(Self.refusal(["settings", "--\(name)", "100000"]) != nil, "--\(name)")
      #expect(Self.refusal(["settings", "--\(name)", "ten"]) != nil, "--\(name)")
    }
  }

  @Test func settingsReadsWhatTheTypesAccept() throws {
    let parsed = try RoutineCLI.parser.parse([
      "settings", "--enabled", "OFF", "--threshold", "0.7", "--locale", "en_gb.UTF-8",
    ])
    #expect(try parsed.value(SettingsCommand.enabled) == false)
    #expect(try parsed.value(SettingsCommand.threshold) == 0.7)
    #expect(try parsed.value(SettingsCommand.locale) == .some("en_GB"))
    let none = try RoutineCLI.parser.parse(["settings", "--locale", "None"])
    #expect(try none.value(SettingsCommand.locale) == .some(nil))
    // End to end: the store holds what was typed.
    let sandbox = Sandbox()
    let run = sandbox.run("settings", "--threshold", "0.75", "--snooze", "9", "--json")
    #expect(run.status == 0)
    #expect(run.json["threshold"] as? Double == 0.75)
    #expect(run.json["snoozeMinutes"] as? Int == 9)
  }

  @Test func timeZoneAndLocaleStillCompleteNone() {
    #expect(SettingsCommand.timeZone.spec.valueName == "ZONE|none")
    #expect(SettingsCommand.timeZone.spec.choices == ["none"])
    #expect(SettingsCommand.timeZone.spec.completes == .zone)
    #expect(SettingsCommand.locale.spec.valueName == "NAME|none")
    #expect(SettingsCommand.locale.spec.choices == ["none"])
  }

  @Test func statusFormatIsCheckedAndCompletesAsBefore() {
    #expect(StatusCommand.format.spec.valueName == "text|waybar|polybar|tmux")
    #expect(StatusCommand.format.spec.choices == ["text", "waybar", "polybar", "tmux"])
    #expect(StatusCommand.format.spec.fullHelp == "What to print (default: text).")
    #expect(
      Self.refusal(["status", "--format", "i3"])
        == UsageError(
          "--format: expected text, waybar, polybar or tmux, found 'i3'", command: "status"))
  }

  @Test func clearNamesItsChoiceOnceInTheDeclaration() {
    #expect(ClearCommand.spec.oneOf == ["all", "learned", "delivered"])
    #expect(ClearCommand.spec.usage == "routine clear --all|--learned|--delivered")
    let sandbox = Sandbox()
    let run = sandbox.run("clear", "--learned", "--json")
    #expect(run.status == 0)
    #expect(run.json["cleared"] as? String == "learned")
  }

  @Test func theOverviewListsTheTopicsHelpPrints() throws {
    let sandbox = Sandbox()
    let overview = sandbox.run("help").stdout
    #expect(overview.contains("TOPICS ('routine help TOPIC'):\n  dates "))
    for topic in HelpTopic.all {
      #expect(overview.contains("  \(topic.name) "))
      #expect(sandbox.run("help", topic.name.uppercased()).stdout == topic.text)
    }
    // After the commands, before the global options.
    let topics = try #require(overview.range(of: "TOPICS"))
    #expect(overview.range(of: "COMMANDS:")!.lowerBound < topics.lowerBound)
    #expect(topics.lowerBound < overview.range(of: "GLOBAL OPTIONS")!.lowerBound)
    // A typo of a topic is suggested like a command's.
    #expect(sandbox.run("help", "dats").stderr.contains("did you mean 'dates'?"))
  }

  @Test func helpsArgumentCompletesCommandsAndTopics() throws {
    #expect(HelpCommand.spec.arguments.first?.completes == .command)
    let table = ShellCompletion.Table(commands: RoutineCLI.parser.commands)
    let takes = try #require(table.arguments.first { $0.key == "help:*" }).takes
    let words = takes.split(separator: " ").map(String.init)
    #expect(words.first == "-")
    #expect(words.contains("reminders") && words.contains("dates") && words.contains("agenda"))
    #expect(!words.contains("await-answer"))
    // `__complete commands` is no source of its own: the table holds them.
    #expect(Sandbox().run("__complete", "commands").status == 64)
  }
}
