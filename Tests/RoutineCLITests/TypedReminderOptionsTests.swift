import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// The options of `reminders`, `habits` and `tasks` are typed: their declarations check values
/// before the command runs, and the lists of choices come from the model, not from help texts.
struct TypedReminderOptionsTests {
  /// "1, 3, 6, 12, 24 or 48", from the model.
  static let lookBackChoices = listed(Reminder.lookBackChoices.map(String.init))

  @Test func aLookBackOutsideTheModelsChoicesIsRefusedAtParseTime() {
    let sandbox = Sandbox()
    let refused = sandbox.run(
      "reminders", "add", "--activity", "Water", "--at", "07:00", "--lookback", "2")
    #expect(refused.status == 64)
    #expect(
      refused.stderr.hasPrefix(
        "error: --lookback: expected \(Self.lookBackChoices) hours, found '2'"))
    // Before any reminder is looked up: an unknown one is no reason to hide the bad value.
    let edit = sandbox.run("reminders", "edit", "reminder-99", "--lookback", "2")
    #expect(edit.status == 64, "\(edit.stderr)")
    #expect(edit.stderr.contains("--lookback: expected \(Self.lookBackChoices) hours"))
    // Every choice the model has is taken.
    for hours in Reminder.lookBackChoices {
      let added = sandbox.run(
        "reminders", "add", "--activity", "Water", "--at", "07:00", "--lookback", "\(hours)")
      #expect(added.status == 0, "\(hours): \(added.stderr)")
    }
  }

  @Test func helpAndTheManualListTheLookBackChoicesOnce() {
    // Help wraps its lines: compare the words.
    let help = Sandbox().run("help", "reminders", "add").stdout
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let choices = Reminder.lookBackChoices.map(String.init).joined(separator: ", ")
    #expect(help.contains("--lookback HOURS"))
    #expect(help.contains("Choices: \(choices)."))
    #expect(!help.contains("(1, 3, 6, 12, 24 or 48)"))
    #expect(ReminderOptions.lookback.spec.choices == Reminder.lookBackChoices.map(String.init))
    let manual = Sandbox().run("help", "--man").stdout
    #expect(manual.contains("Choices: \(choices)."))
  }

  @Test func bashCompletesTheLookBackChoices() throws {
    guard ["/bin/bash", "/usr/bin/bash"].contains(where: FileManager.default.isExecutableFile)
    else { return }
    let (sandbox, script, environment) = try ShellCompletionTests.prepared("bash")
    let offered = try ShellCompletionTests.candidates(
      "bash", ["routine", "reminders", "add", "--lookback", ""], script: script, in: sandbox,
      environment: environment)
    #expect(offered == Reminder.lookBackChoices.map(String.init))
    let repeats = try ShellCompletionTests.candidates(
      "bash", ["routine", "habits", "add", "Read", "--repeat", ""], script: script, in: sandbox,
      environment: environment)
    #expect(repeats == ["daily", "weekly", "monthly"])
  }

  /// Each bad value is refused by the parser, before the unknown reminder, habit or task.
  @Test(arguments: [
    (
      ["reminders", "edit", "reminder-99", "--repeat", "yearly"],
      "--repeat: expected once, daily, weekly or monthly, found 'yearly'"
    ),
    (
      ["reminders", "edit", "reminder-99", "--style", "loud"],
      "--style: expected notification or alarm, found 'loud'"
    ),
    (
      ["reminders", "edit", "reminder-99", "--day", "32"],
      "--day: expected a day of the month from 1 to 31, found '32'"
    ),
    (
      ["reminders", "edit", "reminder-99", "--before-window", "721"],
      "--before-window: expected minutes from 1 to 720, found '721'"
    ),
    (
      ["reminders", "edit", "reminder-99", "--before", "1y"],
      "--before: expected a duration like 1h, 1d, 90m or 0, found '1y'"
    ),
    (
      ["reminders", "edit", "reminder-99", "--days", "funday"],
      "--days: expected mon,tue,..., mon-fri, weekdays, weekends, daily or none, found 'funday'"
    ),
    (
      ["reminders", "edit", "reminder-99", "--window", "09:00-08:00"],
      "--window: expected HH:MM-HH:MM with the start before the end, found '09:00-08:00'"
    ),
    (
      ["habits", "edit", "Nope", "--repeat", "once"],
      "--repeat: expected daily, weekly or monthly, found 'once'"
    ),
    (
      ["habits", "edit", "Nope", "--days", "none"],
      "--days: expected mon,tue,..., mon-fri, weekdays, weekends or daily, found 'none'"
    ),
    (
      ["habits", "edit", "Nope", "--window", "8-9"],
      "--window: expected HH:MM-HH:MM with the start before the end, or none, found '8-9'"
    ),
  ])
  func aBadValueIsRefusedBeforeTheCommandRuns(arguments: [String], message: String) {
    let refused = Sandbox().run(arguments)
    #expect(refused.status == 64, "\(refused.stderr)")
    #expect(refused.stderr.hasPrefix("error: \(message)"), "\(refused.stderr)")
  }

  @Test func aHabitsWindowMayBeNone() {
    let sandbox = Sandbox()
    #expect(sandbox.run("habits", "add", "Read", "--window", "21:00-22:00").status == 0)
    let edited = sandbox.run("habits", "edit", "Read", "--window", "NONE", "--json")
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.json["window"] == nil)
  }

  @Test func aDueTimeOfSeveralWordsMustBeQuoted() {
    let sandbox = Sandbox()
    // Unquoted, "5pm" would have become part of the task's name.
    let unquoted = sandbox.run("tasks", "add", "Taxes", "--due", "fri", "5pm")
    #expect(unquoted.status == 64)
    #expect(unquoted.stderr.contains("a time of several words is one value, in quotes"))
    #expect(sandbox.run("tasks", "add", "Taxes", "--due", "fri 5pm").status == 0)
  }

  /// The import's messages name the same choices as the options.
  @Test func importAndOptionsExpectTheSame() {
    #expect(ReminderOptions.repeat.type.expected == "once, daily, weekly or monthly")
    #expect(HabitOptions.repeat.type.expected == "daily, weekly or monthly")
    #expect(ReminderOptions.style.type.expected == "notification or alarm")
  }
}
