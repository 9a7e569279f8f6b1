import Foundation
import Testing

@testable import RoutineCLI

/// The JSON of the commands that show definitions and what they plan, read the same way by
/// every test of the reminders you define.
extension Sandbox {
  /// `agenda --json` as one line per item: `at id`, and `skipped: reason` when it is skipped.
  func agenda(_ extra: String...) -> [String] {
    let items = run(["agenda", "--json"] + extra).json["items"] as? [[String: Any]] ?? []
    return items.map { item in
      "\(item["at"] as? String ?? "?") \(item["id"] as? String ?? "?")"
        + ((item["skipped"] as? String).map { " skipped: \($0)" } ?? "")
    }
  }

  /// `pending --json`'s requests.
  func requests() -> [[String: Any]] {
    run("pending", "--json").json["requests"] as? [[String: Any]] ?? []
  }

  /// `reminders --json`'s reminders, by id.
  func reminders() -> [String: [String: Any]] {
    let list = run("reminders", "--json").json["reminders"] as? [[String: Any]] ?? []
    return Dictionary(list.map { ($0["id"] as? String ?? "", $0) }) { first, _ in first }
  }

  /// `history --json`'s entries from 2026-05-01.
  func historyEntries(now: String) -> [[String: Any]] {
    DeliveryTests().history(self, now: now)
  }
}

/// `routine reminders` and its subcommands end to end, in-process, with a fixed clock in
/// Europe/Berlin (2026-05-04 is a Monday): docs/reminders.md and docs/cli.md.
struct DefinitionsTests {
  let delivery = DeliveryTests()

  /// A JSON object's members as text, for comparing a whole object at once.
  static func fields(_ value: Any?) -> [String: String] {
    (value as? [String: Any])?.mapValues { "\($0)" } ?? [:]
  }

  /// What an export holds, an import reads back: a habit reminder whose habit lost its window
  /// is disabled by 'habits edit' (it cannot fire), and comes back disabled.
  @Test func anExportWithASilencedHabitReminderImportsBack() throws {
    let sandbox = delivery.sandbox()
    #expect(
      sandbox.run("habits", "add", "Stretch", "--days", "mon,wed,fri", "--window", "12:00-13:00")
        .status == 0)
    #expect(sandbox.run("reminders", "add", "--habit", "Stretch").status == 0)
    let edited = sandbox.run("habits", "edit", "Stretch", "--window", "none")
    #expect(edited.status == 0)
    #expect(
      edited.stderr.contains("reminder-1 is disabled: the habit 'Stretch' has no time window"))
    #expect(sandbox.reminders()["reminder-1"]?["enabled"] as? Bool == false)
    let file = URL(fileURLWithPath: sandbox.storePath).deletingLastPathComponent()
      .appendingPathComponent("r.json").path
    #expect(sandbox.run("reminders", "export", "--output", file).status == 0)
    let other = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Europe/Berlin")
    let imported = other.run("reminders", "import", file)
    #expect(imported.status == 0, "\(imported.stderr)")
    let original = try #require(sandbox.reminders()["reminder-1"])
    let copy = try #require(other.reminders()["reminder-1"])
    #expect(Self.fields(copy) == Self.fields(original))
    // Enabled, on the command line or in a file, it is still refused: it would do nothing.
    #expect(other.run("reminders", "add", "--habit", "Stretch").status == 65)
    #expect(other.run("reminders", "enable", "reminder-1").status == 65)
  }

  @Test(arguments: [
    (#""repeat": "monthly", "day": 3"#, "monthly"),
    (#""repeat": "once", "date": "2026-05-01""#, "once"),
  ])
  func anImportedActivityReminderRepeatsOnItsDaysAsReminderAddRequires(
    schedule: String, repetition: String
  ) {
    // `reminders add` refuses these; a file must too (it was fired every day).
    let sandbox = Sandbox(now: "2026-04-27T04:00:00+02:00")
    let file = sandbox.file(
      "r.json",
      #"{"reminders": [{"id": "reminder-1", "type": "activity", "activity": "Workout", "schedule": {"#
        + schedule + #", "at": "18:00"}}]}"#)
    let result = sandbox.run("reminders", "import", file)
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: '\(file)': reminders[0].schedule.repeat: an activity reminder repeats on its days (\"daily\" or \"weekly\" with \"days\"), not \"\(repetition)\"\n"
    )
    // Nothing was added.
    #expect(sandbox.reminders().isEmpty)
    #expect(
      sandbox.run("reminders", "add", "--activity", "Workout", "--repeat", repetition).status == 64)
  }

  // MARK: Add, list, show

  @Test func anActivityReminderTakesEveryOptionAndPrintsItsIDAsJSON() throws {
    let sandbox = delivery.sandbox()
    let added = sandbox.run(
      "reminders", "add", "--activity", "workout", "--at", "12:00", "--days", "mon,wed",
      "--lookback", "3", "--title", "Lunch walk", "--message", "Go outside", "--json")
    #expect(added.status == 0)
    #expect(Self.fields(added.json) == ["id": "reminder-1"])
    // The first reminder of a store that never delivered says how delivery is set up.
    #expect(added.stderr.hasPrefix("note: nothing has delivered reminders from this store yet"))
    let row = try #require(sandbox.reminders()["reminder-1"])
    #expect(row["type"] as? String == "activity")
    #expect(row["enabled"] as? Bool == true)
    #expect(row["activity"] as? String == "Workout")
    #expect(row["preset"] as? String == "workout")
    #expect(row["title"] as? String == "Lunch walk")
    #expect(row["message"] as? String == "Go outside")
    #expect(row["lookbackHours"] as? Int == 3)
    #expect(
      Self.fields(row["schedule"]) == ["repeat": "weekly", "at": "12:00", "days": "mon,wed"])
    #expect(row["summary"] as? String == "mon,wed 12:00 (look-back 3 h)")
    #expect(row["repeating"] as? Bool == true)
    #expect(row["nextFire"] as? String == "2026-05-04T12:00:00+02:00")
    #expect(row["cancelled"] as? Int == 0)
    // One request per day it is on, `<id>-weekday-<1..7>` with 1 for Sunday.
    let requests = sandbox.requests()
    #expect(
      requests.map { $0["id"] as? String } == ["reminder-1-weekday-2", "reminder-1-weekday-4"])
    for request in requests {
      #expect(request["title"] as? String == "Lunch walk")
      #expect(request["body"] as? String == "Go outside")
      #expect(request["category"] as? String == "workout")
      #expect((request["metadata"] as? [String: Any])?["lookBack"] as? String == "3h")
    }
    #expect(
      sandbox.agenda("--to", "2026-05-12") == [
        "2026-05-04T12:00:00+02:00 reminder-1-weekday-2",
        "2026-05-06T12:00:00+02:00 reminder-1-weekday-4",
        "2026-05-11T12:00:00+02:00 reminder-1-weekday-2",
      ])
  }

  @Test func theActivitiesComeWithTheirDocumentedDefaults() {
    let sandbox = delivery.sandbox()
    let expected = [
      ("mindfulness", "Added reminder-1: mindfulness, daily 20:00 (look-back 12 h).\n"),
      ("workout", "Added reminder-2: workout, daily 18:00 (look-back 12 h).\n"),
      ("noalc", "Added reminder-3: noalc, daily 09:00 (look-back 24 h).\n"),
      ("Reading", "Added reminder-4: Reading, daily 09:00 (look-back 12 h).\n"),
    ]
    for (activity, line) in expected {
      let added = sandbox.run("reminders", "add", "--activity", activity)
      #expect(added.status == 0)
      #expect(added.stdout == line)
    }
    // Only the first reminder gets the note about delivery.
    #expect(sandbox.run("reminders", "add", "--activity", "yoga").stderr.isEmpty)
    // Every day off disables it, with a warning.
    let none = sandbox.run("reminders", "add", "--activity", "workout", "--days", "none")
    #expect(none.status == 0)
    #expect(none.stdout.hasSuffix("(disabled).\n"))
    #expect(
      none.stderr
        == "warning: no day of the week is on, so the reminder is disabled; turn days on with --days\n"
    )
    #expect(sandbox.reminders()["reminder-6"]?["enabled"] as? Bool == false)
  }

  @Test(arguments: ["Reading", "workout", "mindfulness"])
  func aWindowFiresAtItsStartAndShowsTheWindowInTheText(activity: String) throws {
    // docs/reminders.md: "--window 08:00-08:30: the original's "trigger time window": the
    // reminder fires at the start and shows the window in its text."
    let sandbox = delivery.sandbox()
    let added = sandbox.run("reminders", "add", "--activity", activity, "--window", "08:00-08:30")
    #expect(added.status == 0)
    #expect(added.stdout.hasSuffix(", daily 08:00-08:30 (look-back 12 h).\n"))
    let request = try #require(sandbox.requests().first)
    #expect(request["nextFire"] as? String == "2026-05-04T08:00:00+02:00")
    let text = "\(request["title"] as? String ?? "") \(request["body"] as? String ?? "")"
    #expect(text.contains("08:00") && text.contains("08:30"), "\(text)")
    #expect(
      Self.fields(sandbox.reminders()["reminder-1"]?["schedule"]) == [
        "repeat": "weekly", "at": "08:00", "windowEnd": "08:30", "days": "daily",
      ])
  }

  @Test func textRemindersFireOnceDailyWeeklyOrMonthly() {
    let sandbox = delivery.sandbox()
    let adds: [([String], String)] = [
      (
        ["--text", "Call the dentist", "--at", "2026-05-07 09:00"],
        "Added reminder-1: \"Call the dentist\", once 2026-05-07 09:00.\n"
      ),
      (["--text", "Water", "--at", "08:00"], "Added reminder-2: \"Water\", daily 08:00.\n"),
      (
        ["--text", "Plants", "--days", "mon,thu", "--at", "08:30"],
        "Added reminder-3: \"Plants\", mon,thu 08:30.\n"
      ),
      (
        ["--text", "Pay the rent", "--day", "31", "--at", "09:00"],
        "Added reminder-4: \"Pay the rent\", monthly on the 31st 09:00.\n"
      ),
    ]
    for (options, line) in adds {
      let added = sandbox.run(["reminders", "add"] + options)
      #expect(added.status == 0)
      #expect(added.stdout == line)
    }
    let list = sandbox.run("reminders")
    #expect(list.status == 0)
    #expect(
      list.stdout == """
          reminder-1  "Call the dentist"  once 2026-05-07 09:00      one-time   next Thu 2026-05-07 09:00
          reminder-2  "Water"             daily 08:00                repeating  next Mon 2026-05-04 08:00
          reminder-3  "Plants"            mon,thu 08:30              repeating  next Mon 2026-05-04 08:30
          reminder-4  "Pay the rent"      monthly on the 31st 09:00  repeating  next Sun 2026-05-31 09:00

        """)
    let rows = sandbox.reminders()
    #expect(rows["reminder-1"]?["repeating"] as? Bool == false)
    #expect(
      Self.fields(rows["reminder-1"]?["schedule"]) == [
        "repeat": "once", "at": "09:00", "date": "2026-05-07",
      ])
    #expect(
      Self.fields(rows["reminder-3"]?["schedule"]) == [
        "repeat": "weekly", "at": "08:30", "days": "mon,thu",
      ])
    #expect(
      Self.fields(rows["reminder-4"]?["schedule"]) == [
        "repeat": "monthly", "at": "09:00", "day": "31",
      ])
    #expect(
      sandbox.agenda("--to", "2026-05-08") == [
        "2026-05-04T08:00:00+02:00 reminder-2", "2026-05-04T08:30:00+02:00 reminder-3",
        "2026-05-05T08:00:00+02:00 reminder-2", "2026-05-06T08:00:00+02:00 reminder-2",
        "2026-05-07T08:00:00+02:00 reminder-2", "2026-05-07T08:30:00+02:00 reminder-3",
        "2026-05-07T09:00:00+02:00 reminder-1",
      ])
    // The one-time reminder fires once: after its firing, nothing more.
    #expect(
      sandbox.run("reminders", "--now", "2026-05-07T10:00:00+02:00").stdout.contains(
        "one-time   no further firing"))
  }

  @Test(arguments: [
    (
      ["--text", "A", "--activity", "workout"],
      "choose one of --activity, --text, --habit and --task, not --activity and --text"
    ),
    ([String](), "say what it reminds of: --activity, --text, --habit or --task"),
    (["--text", "A", "--repeat", "monthly"], "--repeat monthly needs --day N"),
    (
      ["--text", "A", "--repeat", "once", "--at", "09:00"],
      "--repeat once needs a date in --at ('2026-05-01 09:00')"
    ),
    (
      ["--activity", "workout", "--lookback", "5"],
      "--lookback: expected 1, 3, 6, 12, 24 or 48 hours, found '5'"
    ),
    (
      ["--activity", "workout", "--day", "3"],
      "--day does not apply to activity reminders: use --days"
    ),
    (
      ["--text", "A", "--at", "7 o'clock"],
      "--at: expected \(TimeArgument.expectedForms), found '7 o'clock'"
    ),
    (
      ["--activity", "workout", "--at", "fri 9am"],
      "--at: expected HH:MM, a time of day on the minute (09:00, 9am, 7:30 pm, noon), found 'fri 9am'"
    ),
    (
      ["--text", "A", "--at", "fri"],
      "--at: expected a time with the date, like '2026-05-01 09:00' or 'fri 9am', found 'fri'"
    ),
    (
      ["--text", "A", "--day", "32"], "--day: expected a day of the month from 1 to 31, found '32'"
    ),
    (["--text", "A", "--style", "loud"], "--style: expected notification or alarm, found 'loud'"),
    // --repeat against the other options: refused, never one of them silently dropped.
    (
      ["--text", "A", "--at", "09:00", "--repeat", "weekly"],
      "--repeat weekly: which days? give --days (mon,wed or weekdays); every day is --repeat daily"
    ),
    (
      ["--text", "A", "--days", "mon", "--repeat", "daily"],
      "--repeat daily: --days mon says weekly; leave out one of them"
    ),
    (
      ["--activity", "workout", "--days", "mon", "--repeat", "daily"],
      "--repeat daily: --days mon says weekly; leave out one of them"
    ),
    (
      ["--text", "A", "--day", "3", "--repeat", "weekly"],
      "--repeat weekly: --day says monthly; leave out one of them"
    ),
    (
      ["--text", "A", "--days", "mon", "--day", "3", "--repeat", "monthly"],
      "--repeat monthly: --days says weekly; a monthly reminder takes --day N"
    ),
    (
      ["--text", "A", "--at", "2026-05-09 09:00", "--days", "mon", "--repeat", "once"],
      "--repeat once: a one-time reminder takes a date in --at, not --days or --day"
    ),
  ])
  func aWrongDefinitionIsAUsageErrorThatAddsNothing(options: [String], message: String) {
    let sandbox = delivery.sandbox()
    let result = sandbox.run(["reminders", "add"] + options)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("error: \(message)\nusage: routine reminders add "))
    #expect(sandbox.reminders().isEmpty)
  }

  /// A --repeat the other options agree with is taken, as before.
  @Test(arguments: [
    (["--text", "A", "--days", "mon", "--at", "09:00", "--repeat", "weekly"], "\"A\", mon 09:00."),
    (
      ["--text", "A", "--days", "daily", "--at", "09:00", "--repeat", "daily"],
      "\"A\", daily 09:00."
    ),
    (["--text", "A", "--day", "3", "--repeat", "monthly"], "\"A\", monthly on the 3rd 09:00."),
    (["--activity", "workout", "--repeat", "weekly"], "workout"),
  ])
  func aRepeatTheOtherOptionsAgreeWithIsTaken(options: [String], added: String) {
    let sandbox = delivery.sandbox()
    let result = sandbox.run(["reminders", "add"] + options)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Added reminder-1: "), "\(result.stdout)")
    #expect(result.stdout.contains(added), "\(result.stdout)")
  }

  @Test func showGivesTheDefinitionItsRequestsAndItsNextFirings() throws {
    let sandbox = delivery.sandbox()
    _ = sandbox.run(
      "reminders", "add", "--activity", "workout", "--at", "12:00", "--days", "mon,wed",
      "--lookback", "3", "--title", "Lunch walk", "--message", "Go outside")
    let shown = sandbox.run("reminders", "show", "reminder-1")
    #expect(shown.status == 0)
    #expect(
      shown.stdout == """
        reminder-1: workout "Lunch walk"
          kind        activity (workout)
          schedule    mon,wed 12:00 (look-back 3 h)
          repeats     yes
          style       notification
          enabled     yes
          title       Lunch walk
          message     Go outside
          actions     start, snooze, dismiss, open
          requests    reminder-1-weekday-2, reminder-1-weekday-4
          next        Mon 2026-05-04 12:00
          next        Wed 2026-05-06 12:00
          next        Mon 2026-05-11 12:00

        """)
    let json = sandbox.run("reminders", "show", "reminder-1", "--json").json
    #expect(json["id"] as? String == "reminder-1")
    #expect((json["requests"] as? [[String: Any]])?.count == 2)
    let upcoming = try #require(json["upcoming"] as? [[String: Any]])
    #expect(
      upcoming.map { $0["at"] as? String } == [
        "2026-05-04T12:00:00+02:00", "2026-05-06T12:00:00+02:00", "2026-05-11T12:00:00+02:00",
      ])
    #expect((json["cancellations"] as? [Any])?.isEmpty == true)
    let unknown = sandbox.run("reminders", "show", "reminder-9")
    #expect(unknown.status == 65)
    #expect(
      unknown.stderr == "error: there is no reminder 'reminder-9'; did you mean 'reminder-1'?\n")
  }

  // MARK: Edit

  @Test func editingAnActivityReminderChangesEachFieldAndItsRequestsFollow() throws {
    let sandbox = delivery.sandbox()
    _ = sandbox.run(
      "reminders", "add", "--activity", "workout", "--at", "12:00", "--days", "mon,wed",
      "--lookback", "3")
    func request() -> [String: Any] { sandbox.requests().first ?? [:] }
    func metadata() -> [String: Any] { request()["metadata"] as? [String: Any] ?? [:] }

    let at = sandbox.run("reminders", "edit", "reminder-1", "--at", "13:15")
    #expect(at.status == 0)
    #expect(at.stdout == "Changed reminder-1: mon,wed 13:15 (look-back 3 h).\n")
    #expect(request()["nextFire"] as? String == "2026-05-04T13:15:00+02:00")

    #expect(sandbox.run("reminders", "edit", "reminder-1", "--days", "tue").status == 0)
    #expect(sandbox.requests().map { $0["id"] as? String } == ["reminder-1-weekday-3"])
    #expect(request()["nextFire"] as? String == "2026-05-05T13:15:00+02:00")

    #expect(sandbox.run("reminders", "edit", "reminder-1", "--lookback", "6").status == 0)
    #expect(metadata()["lookBack"] as? String == "6h")

    #expect(
      sandbox.run("reminders", "edit", "reminder-1", "--title", "Walk", "--message", "Out").status
        == 0)
    #expect(request()["title"] as? String == "Walk")
    #expect(request()["body"] as? String == "Out")

    #expect(sandbox.run("reminders", "edit", "reminder-1", "--style", "alarm").status == 0)
    #expect(metadata()["alarm"] as? Bool == true)
    #expect(sandbox.run("reminders").stdout.contains("workout \"Walk\" (alarm)"))

    let window = sandbox.run("reminders", "edit", "reminder-1", "--window", "17:00-17:30")
    #expect(window.stdout == "Changed reminder-1: tue 17:00-17:30 (look-back 6 h).\n")
    #expect(
      sandbox.agenda("--to", "2026-05-06") == ["2026-05-05T17:00:00+02:00 reminder-1-weekday-3"])

    #expect(sandbox.run("reminders", "edit", "reminder-1", "--activity", "Reading").status == 0)
    #expect(metadata()["event"] as? String == "Reading")
    #expect(request()["category"] as? String == "activity_reminder")
    let row = try #require(sandbox.reminders()["reminder-1"])
    #expect(row["activity"] as? String == "Reading")
    #expect(row["preset"] == nil)
    // What was not given stayed.
    #expect(row["title"] as? String == "Walk")
    #expect(row["summary"] as? String == "tue 17:00-17:30 (look-back 6 h)")
  }

  @Test func editingATextReminderChangesItsTextDateAndRepeat() {
    let sandbox = delivery.sandbox()
    _ = sandbox.run("reminders", "add", "--text", "Call the dentist", "--at", "2026-05-07 09:00")
    _ = sandbox.run("reminders", "add", "--text", "Water", "--at", "08:00")
    _ = sandbox.run("reminders", "add", "--text", "Rent", "--day", "31", "--at", "09:00")

    #expect(sandbox.run("reminders", "edit", "reminder-1", "--text", "Call the vet").status == 0)
    let moved = sandbox.run("reminders", "edit", "reminder-1", "--at", "2026-05-08 10:30")
    #expect(moved.stdout == "Changed reminder-1: once 2026-05-08 10:30.\n")
    let weekly = sandbox.run("reminders", "edit", "reminder-2", "--days", "sat")
    #expect(weekly.stdout == "Changed reminder-2: sat 08:00.\n")
    let monthly = sandbox.run("reminders", "edit", "reminder-3", "--day", "15")
    #expect(monthly.stdout == "Changed reminder-3: monthly on the 15th 09:00.\n")
    #expect(
      sandbox.agenda("--to", "2026-05-16") == [
        "2026-05-08T10:30:00+02:00 reminder-1", "2026-05-09T08:00:00+02:00 reminder-2",
        "2026-05-15T09:00:00+02:00 reminder-3",
      ])
    #expect(sandbox.run("agenda", "--to", "2026-05-09").stdout.contains("Call the vet: "))
    // --repeat says it outright: back to every day.
    #expect(sandbox.run("reminders", "edit", "reminder-2", "--repeat", "daily").status == 0)
    #expect(sandbox.agenda("--to", "2026-05-06").filter { $0.hasSuffix("reminder-2") }.count == 2)
    // A text reminder's text is its message; another kind's option does not apply.
    let message = sandbox.run("reminders", "edit", "reminder-2", "--message", "x")
    #expect(message.status == 64)
    let kind = sandbox.run("reminders", "edit", "reminder-2", "--activity", "workout")
    #expect(kind.status == 64)
    #expect(kind.stderr.contains("--activity does not apply"))
    let unknown = sandbox.run("reminders", "edit", "reminder-7", "--at", "10:00")
    #expect(unknown.status == 65)
    #expect(unknown.stderr.hasPrefix("error: there is no reminder 'reminder-7'"))
  }

  // MARK: Remove, disable, enable

  @Test func removeAsksOnATerminalNeedsYesWithoutOneAndIsForGood() throws {
    let sandbox = delivery.sandbox()
    _ = sandbox.run("reminders", "add", "--text", "Water", "--at", "08:00")
    sandbox.interactiveAnswers = ["n"]
    let declined = sandbox.run("reminders", "remove", "reminder-1")
    #expect(declined.status == 0)
    #expect(declined.stderr == "Remove reminder-1 (\"Water\")? [y/N] ")
    #expect(declined.stdout == "Nothing removed.\n")
    #expect(sandbox.reminders().count == 1)

    sandbox.interactiveAnswers = nil
    let script = sandbox.run("reminders", "remove", "reminder-1")
    #expect(script.status == 64)
    #expect(
      script.stderr.hasPrefix(
        "error: Remove reminder-1 (\"Water\")? Standard input is not a terminal: add --yes to confirm"
      ))
    #expect(sandbox.reminders().count == 1)

    sandbox.interactiveAnswers = ["y"]
    let removed = sandbox.run("reminders", "remove", "reminder-1")
    #expect(removed.stdout == "Removed reminder-1.\n")
    sandbox.interactiveAnswers = nil
    #expect(sandbox.reminders().isEmpty)
    #expect(sandbox.requests().isEmpty)
    #expect(sandbox.agenda().isEmpty)
    // Gone for good: every command says so, and a new reminder gets a new id.
    for command in [["show"], ["edit", "--at", "09:00"], ["enable"], ["remove", "--yes"]] {
      let again = sandbox.run(["reminders", command[0], "reminder-1"] + command.dropFirst())
      #expect(again.status == 65, "\(command)")
      #expect(again.stderr == "error: the reminder 'reminder-1' was removed\n", "\(command)")
    }
    let next = sandbox.run("reminders", "add", "--text", "Tea", "--at", "16:00", "--json")
    #expect(next.json["id"] as? String != "reminder-1")
  }

  @Test func removeWithYesNeedsNoTerminal() {
    let sandbox = delivery.sandbox()
    _ = sandbox.run("reminders", "add", "--activity", "workout")
    let removed = sandbox.run("reminders", "remove", "reminder-1", "--yes")
    #expect(removed.status == 0)
    #expect(removed.stdout == "Removed reminder-1.\n")
    #expect(
      sandbox.run("reminders").stdout == "No reminders yet: 'routine reminders add' defines one.\n")
  }

  @Test func disableKeepsTheDefinitionAndEnableBringsItsFiringsBack() throws {
    let sandbox = delivery.sandbox()
    _ = sandbox.run("reminders", "add", "--text", "Plants", "--days", "mon,thu", "--at", "08:30")
    _ = sandbox.run("reminders", "add", "--text", "Water", "--at", "08:00")
    let off = sandbox.run("reminders", "disable", "reminder-1")
    #expect(off.status == 0)
    #expect(off.stdout == "reminder-1 is off.\n")
    #expect(sandbox.reminders()["reminder-1"]?["enabled"] as? Bool == false)
    #expect(
      sandbox.run("reminders").stdout.contains(
        "  reminder-1  \"Plants\"  mon,thu 08:30  repeating  disabled\n"))
    #expect(!sandbox.requests().contains { $0["id"] as? String == "reminder-1" })
    #expect(!sandbox.agenda().contains { $0.hasSuffix("reminder-1") })
    #expect(
      sandbox.run("reminders", "show", "reminder-1").stdout.contains(
        "  next        none: disabled\n"))
    // The exported definition says so too.
    #expect(sandbox.run("reminders", "export").stdout.contains("\"enabled\": false"))

    let on = sandbox.run("reminders", "enable", "reminder-1")
    #expect(on.stdout == "reminder-1 is on.\n")
    #expect(
      sandbox.agenda("--to", "2026-05-05").filter { $0.hasSuffix("reminder-1") } == [
        "2026-05-04T08:30:00+02:00 reminder-1"
      ])
    let unknown = sandbox.run("reminders", "disable", "reminder-8")
    #expect(unknown.status == 65)
  }

  // MARK: Export and import

  /// A store with one definition of every kind: an activity alarm, a disabled one-time text
  /// reminder, a habit with a reminder before its window, a task with a reminder a day before.
  func definitions() -> Sandbox {
    let sandbox = delivery.sandbox(now: "2026-05-06T12:00:00+02:00")
    for command in [
      [
        "reminders", "add", "--activity", "workout", "--at", "12:00", "--days", "mon,wed",
        "--lookback", "3", "--title", "Lunch walk", "--style", "alarm",
      ],
      ["reminders", "add", "--text", "Call", "--at", "2026-05-07 09:00"],
      ["reminders", "disable", "reminder-2"],
      ["habits", "add", "Journal", "--days", "weekdays", "--window", "21:00-22:00"],
      ["reminders", "add", "--habit", "Journal", "--before-window", "15"],
      ["tasks", "add", "Taxes", "--due", "2026-05-08 17:00"],
      ["reminders", "add", "--task", "Taxes", "--before", "1d"],
    ] {
      #expect(sandbox.run(command).status == 0, "\(command)")
    }
    return sandbox
  }

  @Test func anExportImportedIntoANewStoreGivesTheSameDefinitionsOnceOnly() throws {
    let sandbox = definitions()
    let path = sandbox.directory.appendingPathComponent("definitions.json").path
    let export = sandbox.run("reminders", "export", "--output", path)
    #expect(export.status == 0)
    #expect(export.stdout.isEmpty)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written == sandbox.run("reminders", "export").stdout)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])
    #expect(document["format"] as? String == "routine-definitions")
    #expect(document["version"] as? Int == 1)
    #expect((document["habits"] as? [Any])?.count == 1)
    #expect((document["tasks"] as? [Any])?.count == 1)
    #expect((document["reminders"] as? [Any])?.count == 4)

    let other = sandbox.directory.appendingPathComponent("other.db").path
    let first = sandbox.run("--store", other, "reminders", "import", path)
    #expect(first.status == 0)
    #expect(first.stdout == "'\(path)': 6 definitions added, 0 already present.\n")
    #expect(sandbox.run("--store", other, "reminders", "export").stdout == written)
    #expect(
      sandbox.run("--store", other, "reminders").stdout == sandbox.run("reminders").stdout)
    #expect(
      sandbox.run("--store", other, "agenda", "--json").stdout
        == sandbox.run("agenda", "--json").stdout)

    let second = sandbox.run("--store", other, "reminders", "import", path)
    #expect(second.status == 0)
    #expect(second.stdout == "'\(path)': 0 definitions added, 6 already present.\n")
    #expect(sandbox.run("--store", other, "reminders", "export").stdout == written)
  }

  @Test(arguments: [
    (
      #"{"reminders": [{"id": "reminder-20", "type": "general", "message": "ok", "schedule": {"repeat": "daily", "at": "09:00"}}, {"type": "general", "message": "x", "schedule": {"repeat": "daily", "at": "25:00"}}]}"#,
      "reminders[1].schedule.at: expected HH:MM, found '25:00'"
    ),
    (
      #"{"reminders": [{"type": "general", "message": "x"}]}"#,
      "reminders[0].schedule: this reminder needs a schedule (a time, and its days)"
    ),
    (
      #"{"reminders": [{"type": "activity", "activity": "Reading", "lookbackHours": 5, "schedule": {"repeat": "weekly", "at": "09:00"}}]}"#,
      "reminders[0].lookbackHours: expected a look-back of 1, 3, 6, 12, 24 or 48 hours, found 5"
    ),
    (
      #"{"reminders": [{"type": "general", "enabled": 1, "message": "x", "schedule": {"repeat": "daily", "at": "09:00"}}]}"#,
      "reminders[0].enabled: expected true or false, found a number"
    ),
    (
      #"{"reminders": [{"type": "alert", "message": "x"}]}"#,
      "reminders[0].type: expected activity, general, habit or task, found 'alert'"
    ),
    (
      #"{"habits": [{"id": "habit-7", "name": "Stretch"}, {"name": "Late", "window": "22:00-21:00"}]}"#,
      "habits[1].window: expected the start before the end, found '22:00-21:00'"
    ),
    (
      #"{"tasks": [{"name": "Taxes", "due": "2026-05-08 17:00"}]}"#,
      "tasks[0].due: expected an ISO 8601 timestamp with a UTC offset"
    ),
  ])
  func anImportWithABadFieldNamesItExits65AndWritesNothing(document: String, message: String)
    throws
  {
    let sandbox = delivery.sandbox()
    _ = sandbox.run("reminders", "add", "--text", "Water", "--at", "08:00")
    let before = sandbox.run("reminders", "export").stdout
    let path = sandbox.file("bad.json", document)
    let result = sandbox.run("reminders", "import", path)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("error: '\(path)': \(message)"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(sandbox.run("reminders", "export").stdout == before)
  }

  @Test func anImportThatLinksToNoHabitNamesTheFieldAndWritesNothing() throws {
    let sandbox = delivery.sandbox()
    let path = sandbox.file(
      "links.json",
      #"{"habits": [{"id": "habit-5", "name": "Stretch"}], "reminders": [{"type": "habit", "link": "habit-99"}]}"#
    )
    let result = sandbox.run("reminders", "import", path)
    #expect(result.status == 65)
    #expect((sandbox.run("habits", "--json").json["habits"] as? [Any])?.isEmpty == true)
    // docs/formats.md: the import "names the first bad one" (reminders[2].schedule.at).
    #expect(result.stderr.hasPrefix("error: '\(path)': reminders[0].link"), "\(result.stderr)")
  }

  @Test func anImportRefusesAHabitReminderThatAddWouldRefuse() throws {
    // `reminders add --habit Floss --before-window 10` is refused for a habit without a window
    // (docs/reminders.md); the same definition read from a file must not slip in and then
    // never fire.
    let sandbox = delivery.sandbox()
    let path = sandbox.file(
      "habit.json",
      #"{"habits": [{"id": "habit-1", "name": "Floss"}], "reminders": [{"id": "reminder-1", "type": "habit", "link": "habit-1", "habitTiming": "beforeWindow 10"}]}"#
    )
    let result = sandbox.run("reminders", "import", path)
    #expect(result.status == 65, "\(result.stdout)")
    #expect(result.stderr.contains("has no time window"), "\(result.stderr)")
    #expect(sandbox.reminders().isEmpty)
  }

  @Test func anImportPrintsJSONWhenAskedTo() throws {
    let sandbox = definitions()
    let path = sandbox.file("definitions.json", sandbox.run("reminders", "export").stdout)
    let other = sandbox.directory.appendingPathComponent("other.db").path
    let result = sandbox.run("--store", other, "reminders", "import", path, "--json")
    #expect(result.status == 0)
    // docs/formats.md: {"added", "present", "refused"}.
    let added = try #require(result.json["added"] as? Int, "\(result.stdout)")
    #expect(added > 0)
    #expect(result.json["present"] as? [String] == [])
    #expect(result.json["refused"] as? [String] == [])
    let again = sandbox.run("--store", other, "reminders", "import", path, "--json")
    #expect(again.json["added"] as? Int == 0)
    #expect((again.json["present"] as? [String])?.count == added)
  }

  /// Ids are numbered per store: a `reminder-1` of another store that is another reminder is
  /// not taken for this one silently (docs/reminders.md).
  @Test func anImportSaysWhichPresentIDsNameOtherDefinitionsHere() throws {
    let sandbox = definitions()
    let path = sandbox.file("definitions.json", sandbox.run("reminders", "export").stdout)
    let other = sandbox.directory.appendingPathComponent("other.db").path
    #expect(
      sandbox.run("--store", other, "reminders", "add", "--text", "Water", "--at", "08:00").status
        == 0)
    let result = sandbox.run("--store", other, "reminders", "import", path, "--json")
    #expect(result.status == 0)
    #expect(result.json["differing"] as? [String] == ["reminder-1"])
    #expect(result.json["present"] as? [String] == ["reminder-1"])
    // Left as it is: the store's own reminder-1 is still the text.
    let shown = sandbox.run("--store", other, "reminders", "show", "reminder-1", "--json")
    #expect(shown.json["message"] as? String == "Water")
    // The same file again: nothing else differs (what was added is now the file's).
    let again = sandbox.run("--store", other, "reminders", "import", path)
    #expect(again.stdout.contains("(reminder-1 differs here and was left as it is)"))
  }

  /// Definitions written by hand, without ids: importing the file again adds nothing
  /// (docs/reminders.md); a changed one is a new definition.
  @Test func definitionsWithoutIDsAreAddedOnceHoweverOftenTheFileIsImported() throws {
    let sandbox = Sandbox()
    let definitions = #"""
      {"habits": [{"name": "Floss", "repeat": "daily", "window": "21:00-22:00"}],
       "tasks": [{"name": "Taxes", "due": "2026-12-01T09:00:00+01:00"}],
       "reminders": [
         {"type": "general", "message": "Water", "schedule": {"repeat": "daily", "at": "10:00"}},
         {"type": "general", "message": "Water", "schedule": {"repeat": "daily", "at": "10:00"}},
         {"type": "habit", "link": "Floss", "habitTiming": "windowStart"},
         {"type": "task", "link": "Taxes", "minutesBefore": 60}]}
      """#
    let path = sandbox.file("by-hand.json", definitions)
    let first = sandbox.run("reminders", "import", path)
    #expect(first.status == 0, "\(first.stderr)")
    // The same reminder twice in one file is one reminder.
    #expect(first.stdout == "'\(path)': 5 definitions added, 1 already present.\n")
    let again = sandbox.run("reminders", "import", path, "--json")
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.json["added"] as? Int == 0)
    #expect(
      again.json["present"] as? [String]
        == ["habit-1", "task-1", "reminder-1", "reminder-1", "reminder-2", "reminder-3"])
    #expect(again.json["differing"] as? [String] == [])
    #expect(sandbox.reminders().keys.sorted() == ["reminder-1", "reminder-2", "reminder-3"])
    #expect(sandbox.run("tasks", "--json").stdout.components(separatedBy: "Taxes").count == 2)
    // A field changed: another reminder.
    let changed = sandbox.file(
      "changed.json",
      #"{"reminders": [{"type": "general", "message": "Water", "schedule": {"repeat": "daily", "at": "11:00"}}]}"#
    )
    #expect(
      sandbox.run("reminders", "import", changed).stdout
        == "'\(changed)': 1 definition added, 0 already present.\n")
  }

  /// A time already past is taken (a task can be late) but never silently: it will not fire.
  @Test func aTimeThatHasPassedIsTakenWithAWarning() {
    let sandbox = delivery.sandbox(now: "2026-05-05T07:00:00+02:00")
    let once = sandbox.run("reminders", "add", "--text", "Pills", "--at", "2026-04-01 09:00")
    #expect(once.status == 0)
    #expect(
      once.stderr.contains(
        "warning: its time has passed, so it will not fire ('routine reminders edit' gives it another)"
      ))
    let task = sandbox.run("tasks", "add", "Taxes", "--due", "yesterday 17:00")
    #expect(task.status == 0)
    #expect(
      task.stderr.contains(
        "warning: Mon 2026-05-04 17:00 has passed, so its reminders will not fire"))
    // A time still to come is no warning.
    let later = sandbox.run("reminders", "add", "--text", "Later", "--at", "2026-05-06 09:00")
    #expect(!later.stderr.contains("warning"))
    let none = sandbox.run("reminders", "add", "--activity", "Reading", "--days", "none")
    #expect(none.stdout.contains("Reading, no days, 09:00 (look-back 12 h) (disabled)."))
    #expect(sandbox.run("reminders", "show", "reminder-3").stdout.contains("  requests    none\n"))
  }

  @Test func listIsTheBareCommand() {
    let sandbox = definitions()
    for noun in ["reminders", "habits", "tasks"] {
      let bare = sandbox.run(noun)
      #expect(bare.status == 0)
      #expect(!bare.stdout.isEmpty)
      #expect(sandbox.run(noun, "list").stdout == bare.stdout, "\(noun)")
      #expect(sandbox.run(noun, "list", "--json").stdout == sandbox.run(noun, "--json").stdout)
    }
  }

  @Test func aRemovedIDIsNeverBroughtBackByAnImport() throws {
    let sandbox = definitions()
    let path = sandbox.file("definitions.json", sandbox.run("reminders", "export").stdout)
    #expect(sandbox.run("reminders", "remove", "reminder-1", "--yes").status == 0)
    #expect(
      sandbox.run("habits", "remove", "Journal", "--yes").stdout
        == "Removed habit-1 and reminder-3.\n")
    let result = sandbox.run("reminders", "import", path)
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "'\(path)': 0 definitions added, 3 already present, 3 removed before and left out (habit-1, reminder-1, reminder-3).\n"
    )
    #expect(sandbox.reminders().keys.sorted() == ["reminder-2", "reminder-4"])
    #expect(sandbox.run("habits").stdout.hasPrefix("No habits yet"))
    let shown = sandbox.run("reminders", "show", "reminder-1")
    #expect(shown.status == 65)
    #expect(shown.stderr == "error: the reminder 'reminder-1' was removed\n")
  }

  // MARK: Cancellations (reverse smart reminders)

  /// Monday 10:05: a workout reminder on Mondays at 18:00 (look-back 12 h) and a lunch walk on
  /// Mondays and Tuesdays at 12:00 (1 h); a workout logged at 10:00.
  func cancelled() -> Sandbox {
    let sandbox = delivery.sandbox(now: "2026-05-04T10:05:00+02:00")
    _ = sandbox.run("reminders", "add", "--activity", "workout", "--days", "mon", "--at", "18:00")
    _ = sandbox.run(
      "reminders", "add", "--activity", "workout", "--days", "mon,tue", "--at", "12:00",
      "--lookback", "1", "--title", "Lunch")
    let logged = sandbox.run("log", "Workout", "--at", "10:00")
    #expect(
      logged.stdout == """
        Logged Workout at Mon 2026-05-04 10:00 (+02:00).
        Skipped reminder-1-weekday-2 at Mon 2026-05-04 18:00: Workout logged at 10:00.

        """)
    return sandbox
  }

  static let skipped = "skipped: Workout logged at 10:00"

  @Test func aLoggedWorkoutCancelsTheNextFiringWhoseLookBackHoldsItAndNoOther() throws {
    let sandbox = cancelled()
    #expect(
      sandbox.agenda("--to", "2026-05-12") == [
        "2026-05-04T12:00:00+02:00 reminder-2-weekday-2",
        "2026-05-04T18:00:00+02:00 reminder-1-weekday-2 \(Self.skipped)",
        "2026-05-05T12:00:00+02:00 reminder-2-weekday-3",
        "2026-05-11T12:00:00+02:00 reminder-2-weekday-2",
        "2026-05-11T18:00:00+02:00 reminder-1-weekday-2",
      ])
    #expect(
      sandbox.run("agenda", "--to", "2026-05-05").stdout.contains(
        "Mon 2026-05-04 18:00 +02:00  Workout: Time to move: your workout is waiting. (skipped: Workout logged at 10:00)\n"
      ))
    let list = sandbox.run("reminders").stdout
    #expect(
      list.contains(
        "next Mon 2026-05-04 18:00 (skipped: Workout logged at 10:00), 1 firing cancelled\n"))
    let rows = sandbox.reminders()
    #expect(rows["reminder-1"]?["cancelled"] as? Int == 1)
    #expect(rows["reminder-1"]?["nextSkipped"] as? String == "Workout logged at 10:00")
    #expect(rows["reminder-2"]?["cancelled"] as? Int == 0)
    let pending = sandbox.requests().first { $0["id"] as? String == "reminder-1-weekday-2" }
    #expect(pending?["nextSkipped"] as? String == "Workout logged at 10:00")
    #expect(
      sandbox.run("history").stdout
        == "Mon 2026-05-04 18:00  will skip        reminder-1-weekday-2  Workout (Workout logged at 10:00)\n"
    )
    let entry = try #require(sandbox.historyEntries(now: "2026-05-04T10:05:00+02:00").first)
    #expect(entry["type"] as? String == "cancellation")
    #expect(entry["occurrence"] as? String == "2026-05-04T18:00:00+02:00")
    #expect(entry["restored"] as? Bool == false)
    let show = sandbox.run("reminders", "show", "reminder-1", "--json").json
    #expect((show["cancellations"] as? [[String: Any]])?.count == 1)
    // A re-plan keeps it.
    #expect(sandbox.run("plan").status == 0)
    #expect(sandbox.reminders()["reminder-1"]?["cancelled"] as? Int == 1)
    // At fire time nothing is delivered, and history says why; next Monday fires.
    #expect(delivery.deliver(sandbox, at: "2026-05-04T18:00:05+02:00").stdout.isEmpty)
    let outcome = sandbox.historyEntries(now: "2026-05-04T18:01:00+02:00").first {
      $0["id"] as? String == "reminder-1-weekday-2" && $0["type"] as? String == "delivery"
    }
    #expect(outcome?["outcome"] as? String == "cancelled")
    let nextWeek = delivery.notifications(
      delivery.deliver(sandbox, at: "2026-05-11T18:00:05+02:00"))
    #expect(nextWeek.map { $0["id"] as? String } == ["reminder-1-weekday-2"])
  }

  @Test func restoreBringsTheCancelledFiringBackWhateverTheLogSays() throws {
    let sandbox = cancelled()
    let restored = sandbox.run("reminders", "restore", "reminder-1")
    #expect(restored.status == 0)
    #expect(restored.stdout == "Restored 1 firing of reminder-1.\n")
    #expect(
      sandbox.agenda("--to", "2026-05-05").contains(
        "2026-05-04T18:00:00+02:00 reminder-1-weekday-2"))
    #expect(sandbox.reminders()["reminder-1"]?["cancelled"] as? Int == 0)
    #expect(
      sandbox.run("history").stdout
        == "Mon 2026-05-04 18:00  restored         reminder-1-weekday-2  Workout (restored after Workout logged at 10:00)\n"
    )
    #expect(
      sandbox.run("reminders", "restore", "reminder-1").stdout
        == "reminder-1 has no cancelled firing ahead; nothing changed.\n")
    let fired = delivery.notifications(delivery.deliver(sandbox, at: "2026-05-04T18:00:05+02:00"))
    #expect(fired.map { $0["occurrence"] as? String } == ["2026-05-04T18:00:00+02:00"])
    #expect(sandbox.run("reminders", "restore", "reminder-5").status == 65)
  }

  @Test func restoreWithARequestRestoresThatDayOnly() {
    let sandbox = delivery.sandbox(now: "2026-05-04T10:05:00+02:00")
    _ = sandbox.run(
      "reminders", "add", "--activity", "workout", "--days", "mon,tue", "--at", "18:00")
    // Only Monday's window (06:00-18:00) holds 10:00: Tuesday's request has nothing to restore.
    _ = sandbox.run("log", "Workout", "--at", "10:00")
    #expect(sandbox.reminders()["reminder-1"]?["cancelled"] as? Int == 1)
    let other = sandbox.run(
      "reminders", "restore", "reminder-1", "--request", "reminder-1-weekday-3")
    #expect(other.stdout == "reminder-1 has no cancelled firing ahead; nothing changed.\n")
    let day = sandbox.run(
      "reminders", "restore", "reminder-1", "--request", "reminder-1-weekday-2")
    #expect(day.stdout == "Restored 1 firing of reminder-1.\n")
  }

  @Test func anEditDropsTheCancellationButTheForwardCheckStillSkipsAFiringThatKeptItsTime()
    throws
  {
    let sandbox = cancelled()
    let edited = sandbox.run("reminders", "edit", "reminder-1", "--title", "Gym")
    #expect(edited.status == 0)
    let row = try #require(sandbox.reminders()["reminder-1"])
    #expect(row["cancelled"] as? Int == 0)
    #expect(row["nextSkipped"] as? String == "Workout logged at 10:00")
    #expect(
      sandbox.agenda("--to", "2026-05-05").contains(
        "2026-05-04T18:00:00+02:00 reminder-1-weekday-2 \(Self.skipped)"))
    #expect(
      !sandbox.historyEntries(now: "2026-05-04T10:05:00+02:00").contains {
        $0["type"] as? String == "cancellation"
      })
    #expect(
      sandbox.run("reminders", "restore", "reminder-1").stdout
        == "reminder-1 has no cancelled firing ahead; nothing changed.\n")
    // The next logged activity cancels anew.
    let again = sandbox.run("log", "Workout", "--at", "10:04")
    #expect(
      again.stdout.contains(
        "Skipped reminder-1-weekday-2 at Mon 2026-05-04 18:00: Workout logged at 10:04."))
    #expect(sandbox.reminders()["reminder-1"]?["cancelled"] as? Int == 1)
  }

  @Test func anEditThatMovesTheFiringOutOfTheLookBackLetsItFire() {
    let sandbox = cancelled()
    #expect(
      sandbox.run("reminders", "edit", "reminder-1", "--at", "20:00", "--lookback", "1").status
        == 0)
    #expect(
      sandbox.agenda("--to", "2026-05-05").contains(
        "2026-05-04T20:00:00+02:00 reminder-1-weekday-2"))
    let fired = delivery.notifications(delivery.deliver(sandbox, at: "2026-05-04T20:00:05+02:00"))
    #expect(fired.map { $0["id"] as? String } == ["reminder-1-weekday-2"])
  }

  @Test func aDisabledReminderHasNoFiringsAndEnabledAgainTheForwardCheckDecides() throws {
    let sandbox = cancelled()
    #expect(sandbox.run("reminders", "disable", "reminder-1").status == 0)
    #expect(!sandbox.agenda("--to", "2026-05-12").contains { $0.contains("reminder-1-") })
    #expect(sandbox.run("reminders").stdout.contains("repeating  disabled\n"))
    #expect(sandbox.run("reminders", "enable", "reminder-1").status == 0)
    let row = try #require(sandbox.reminders()["reminder-1"])
    #expect(row["cancelled"] as? Int == 0)
    #expect(row["nextSkipped"] as? String == "Workout logged at 10:00")
    #expect(delivery.deliver(sandbox, at: "2026-05-04T18:00:05+02:00").stdout.isEmpty)
    let outcome = sandbox.historyEntries(now: "2026-05-04T18:01:00+02:00").first {
      $0["id"] as? String == "reminder-1-weekday-2"
    }
    #expect(outcome?["outcome"] as? String == "suppressed")
    #expect(
      sandbox.agenda("--from", "2026-05-11", "--to", "2026-05-12").contains(
        "2026-05-11T18:00:00+02:00 reminder-1-weekday-2"))
  }

  @Test func aRemovedReminderTakesItsCancellationsWithIt() {
    let sandbox = cancelled()
    #expect(sandbox.run("reminders", "remove", "reminder-1", "--yes").status == 0)
    #expect(sandbox.historyEntries(now: "2026-05-04T10:05:00+02:00").isEmpty)
    #expect(sandbox.run("history").stdout.hasPrefix("Nothing in that range"))
    #expect(
      sandbox.agenda("--to", "2026-05-05") == ["2026-05-04T12:00:00+02:00 reminder-2-weekday-2"])
    #expect(delivery.deliver(sandbox, at: "2026-05-04T18:00:05+02:00").stdout.isEmpty)
    #expect(sandbox.run("reminders", "restore", "reminder-1").status == 65)
  }

  // MARK: Doctor

  @Test func doctorOnAFreshStoreSaysWhereItIsWhichZoneAndWhatCanDeliver() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Europe/Berlin")
    // No notify-send and no crontab on this PATH, no D-Bus session: the same on every machine.
    sandbox.variables["PATH"] = sandbox.directory.path
    let text = sandbox.run("doctor")
    #expect(text.status == 0)
    #expect(text.stdout.hasPrefix("routine \(RoutineCLI.version)\n"))
    #expect(
      text.stdout.contains(
        "store             ~/store/routine.db: not created yet ('routine log' or 'routine reminders add' creates it)\n"
      ))
    #expect(
      text.stdout.contains(
        "time zone         Europe/Berlin (from $TZ); cron has no $TZ: fix it with 'routine settings --time-zone Europe/Berlin'\n"
      ))
    #expect(text.stdout.contains("sink stdout       can deliver (JSON lines)\n"))
    #expect(text.stdout.contains("sink notify-send  warning: "))
    #expect(text.stdout.hasSuffix("0 problems, 2 warnings.\n"))
    // It only reads.
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))

    let json = sandbox.run("doctor", "--json")
    #expect(json.status == 0)
    #expect(json.json["ok"] as? Bool == true)
    let checks = try #require(json.json["checks"] as? [[String: String]])
    let byArea = Dictionary(checks.map { ($0["area"] ?? "", $0) }) { first, _ in first }
    #expect(byArea["store"]?["level"] == "info")
    #expect(byArea["time zone"]?["level"] == "ok")
    #expect(byArea["sink stdout"]?["level"] == "ok")
    #expect(byArea["sink exec"]?["level"] == "ok")
    #expect(byArea["sink notify-send"]?["level"] == "warning")
    #expect(byArea["schedule"]?["level"] == "warning")
    #expect(
      Set(checks.compactMap { $0["level"] }).isSubset(of: ["ok", "info", "warning", "problem"]))

    // With a store and a zone in its settings: healthy, and the zone's source says so.
    #expect(sandbox.run("settings", "--time-zone", "Asia/Kolkata").status == 0)
    let made = sandbox.run("doctor")
    #expect(made.status == 0)
    #expect(
      made.stdout.contains(
        "store             ~/store/routine.db: healthy; 0 events, 0 reminders, 0 pending requests\n"
      ))
    #expect(made.stdout.contains("time zone         Asia/Kolkata (from the store's settings)\n"))
  }

  @Test func doctorExits1WhenTheZoneIsUnknown() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Mars/Olympus")
    sandbox.variables["PATH"] = sandbox.directory.path
    let result = sandbox.run("doctor", "--json")
    #expect(result.status == 1)
    #expect(result.json["ok"] as? Bool == false)
    let checks = try #require(result.json["checks"] as? [[String: String]])
    let zone = try #require(checks.first { $0["area"] == "time zone" })
    #expect(zone["level"] == "problem")
    #expect(zone["text"]?.hasPrefix("TZ: unknown time zone 'Mars/Olympus'") == true)
  }
}
