import Foundation
import RoutineCore
import Testing

/// `routine import` of Loop Habit Tracker's Habits.csv and Checkmarks.csv: habits created once,
/// days done counted for habits and for nothing that learns a time of day.
struct LoopImportTests {
  static let habits = """
    Position,Name,Question,Description,NumRepetitions,Interval,Color
    001,Meditate,Did you meditate today?,"Ten minutes, before breakfast",1,1,#FF8F00
    002,Gym,Did you go to the gym?,,3,7,#039BE5

    """
  static let checkmarks = """
    Date,Meditate,Gym,
    2026-03-08,2,1,
    2026-03-07,2,0,
    2026-03-06,0,2,
    2026-03-05,2,3,
    2026-03-04,2,2,
    2026-03-03,-1,-1,

    """

  func sandbox() -> Sandbox { Sandbox(now: "2026-03-08T20:00:00+01:00") }

  /// Strength (3 places) and streak of each habit, by name.
  func scores(_ sandbox: Sandbox) -> [String: String] {
    let list = sandbox.run("habits", "--json").json["habits"] as? [[String: Any]] ?? []
    var result: [String: String] = [:]
    for habit in list {
      result[habit["name"] as? String ?? ""] =
        "\(habit["strength"] as? Double ?? -1) \(habit["streak"] as? Int ?? -1)"
    }
    return result
  }

  /// What HabitScore makes of `done` days among the 91 up to 2026-03-08 (today).
  func expected(_ done: Set<String>) -> String {
    let today = LocalDate(year: 2026, month: 3, day: 8)!
    let days = (0...90).reversed().map { today.adding(days: -$0) }
    let score = HabitScore.score(days.map { done.contains("\($0)") }, lastIsToday: true)
    return "\((score.strength * 1000).rounded() / 1000) \(score.streak)"
  }

  @Test func bothFilesAreRecognisedAndOnlyDaysDoneCount() {
    let sandbox = sandbox()
    let habits = sandbox.file("Habits.csv", Self.habits)
    let checkmarks = sandbox.file("Checkmarks.csv", Self.checkmarks)
    let first = sandbox.run("import", habits)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      first.stdout == """
        '\(habits)': Loop habits: 2 read, 2 added (habit-1 Meditate, habit-2 Gym), 0 already present.
        Gym is 3 times in 7 days in Loop: added as a daily habit (give it days: 'routine habits edit habit-2 --days mon,wed,fri').

        """)
    let second = sandbox.run("import", checkmarks)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(
      second.stdout
        == "'\(checkmarks)': Loop checkmarks of 2 habits over 6 days: 6 days done read, 6 added, 0 already present.\n"
    )
    // Gym's 1 on the 8th (not due by its frequency) is no day done: its streak is 0, not 1.
    #expect(
      scores(sandbox) == [
        "Meditate": expected(["2026-03-04", "2026-03-05", "2026-03-07", "2026-03-08"]),
        "Gym": expected(["2026-03-04", "2026-03-06"]),
      ])
    #expect(scores(sandbox)["Meditate"]?.hasSuffix(" 2") == true)
    #expect(scores(sandbox)["Gym"]?.hasSuffix(" 0") == true)
  }

  @Test func importedTwiceNothingIsAddedAndExistingHabitsStayAsTheyAre() {
    let sandbox = sandbox()
    _ = sandbox.run("habits", "add", "Gym", "--days", "mon,thu", "--window", "18:00-20:00")
    let habits = sandbox.file("Habits.csv", Self.habits)
    let checkmarks = sandbox.file("Checkmarks.csv", Self.checkmarks)
    let first = sandbox.run("import", habits, checkmarks)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      first.stdout.contains(
        "2 read, 1 added (habit-2 Meditate), 1 already present (Gym, left as they are)."))
    let again = sandbox.run("import", habits, checkmarks)
    #expect(
      again.stdout == """
        '\(habits)': Loop habits: 2 read, 0 added, 2 already present (Meditate, Gym, left as they are).
        '\(checkmarks)': Loop checkmarks of 2 habits over 6 days: 6 days done read, 0 added, 6 already present.

        """)
    let list = sandbox.run("habits").stdout
    #expect(list.contains("weekly mon,thu, 18:00-20:00"), "\(list)")
  }

  /// A kind with days done and no events can be renamed (Loop's "Meditate" to routine's
  /// "Meditation"), and a rename says the days it moved.
  @Test func aKindOfDaysDoneAloneIsRenamedAndARenameSaysTheDaysItMoves() {
    let sandbox = sandbox()
    #expect(sandbox.run("import", sandbox.file("Checkmarks.csv", Self.checkmarks)).status == 0)
    let renamed = sandbox.run("kinds", "rename", "Meditate", "Meditation", "--yes")
    #expect(renamed.status == 0, "\(renamed.stderr)")
    #expect(renamed.stdout == "Renamed 'Meditate' to 'Meditation' (4 days done).\n")
    #expect(sandbox.run("habits", "add", "Meditation").status == 0)
    #expect(
      scores(sandbox)["Meditation"]
        == expected(["2026-03-08", "2026-03-07", "2026-03-05", "2026-03-04"]))
    // With events too: both are said.
    #expect(sandbox.run("log", "Gym", "--at", "2026-03-02 18:00").status == 0)
    let both = sandbox.run("kinds", "rename", "Gym", "Workout", "--yes")
    #expect(both.stdout == "Renamed 'Gym' to 'Workout' (1 event, 2 days done).\n", "\(both.stdout)")
    // Undone, the days are back under their name.
    #expect(sandbox.run("undo").status == 0)
    #expect(
      sandbox.run("kinds", "rename", "Gym", "Workout", "--yes").stdout.contains("2 days done"))
  }

  /// A kind known only from Loop's days done is a kind a typo can be near, and logging it by its
  /// exact name is no typo.
  @Test func aTypoOfAKindOfDaysDoneIsNamed() {
    let sandbox = sandbox()
    #expect(sandbox.run("import", sandbox.file("Checkmarks.csv", Self.checkmarks)).status == 0)
    let typo = sandbox.run("log", "Meditat")
    #expect(typo.status == 0)
    #expect(typo.stderr.contains("'Meditat' is a new kind, near 'Meditate'"), "\(typo.stderr)")
    #expect(sandbox.run("log", "Meditate").stderr.isEmpty)
  }

  @Test func daysDoneTeachNoTimeOfDay() {
    let sandbox = sandbox()
    let checkmarks = sandbox.file("Checkmarks.csv", Self.checkmarks)
    let result = sandbox.run("import", checkmarks)
    #expect(result.status == 0)
    // Without habits yet, the output says how to make the days count.
    #expect(
      result.stdout.contains(
        "No habit named Meditate and Gym yet: their days count once they are habits (import Loop's Habits.csv, or 'routine habits add NAME')."
      ))
    _ = sandbox.run("habits", "add", "Meditate")
    let one = sandbox.run("import", sandbox.file("Gym.csv", "Date,Meditate,Gym\n2026-03-04,2,2\n"))
    #expect(
      one.stdout.hasSuffix(
        "No habit named Gym yet: its days count once it is one (import Loop's Habits.csv, or 'routine habits add Gym').\n"
      ), "\(one.stdout)")
    // No events: the analyzer, the learner and the outlier checks read events only.
    #expect(sandbox.run("events", "--json").json["events"] as? [Any] != nil)
    #expect((sandbox.run("events", "--json").json["events"] as? [Any])?.isEmpty == true)
    #expect(sandbox.run("kinds").stdout.contains("Meditate") == false)
  }

  @Test func formatLoopForcesItAndABadCheckmarkChangesNothing() {
    let sandbox = sandbox()
    let text = sandbox.file("loop.txt", "Date,Gym\n2026-03-04,2\n2026-03-05,5\n")
    let result = sandbox.run("import", text, "--format", "loop")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: '\(text)' line 3: column 'Gym': expected a Loop checkmark (2 done; 0 not done, 1 not due, -1 unknown, 3 skipped), found '5'\n"
    )
    let good = sandbox.file("good.txt", "Date,Gym\n2026-03-04,2\n")
    let forced = sandbox.run("import", good, "--format", "loop", "--json")
    #expect(forced.status == 0, "\(forced.stderr)")
    let report = (forced.json["files"] as? [[String: Any]])?.first
    #expect(report?["format"] as? String == "loop")
    #expect(report?["added"] as? Int == 1)
    // The same shape read through --columns is another app's counts, not Loop's checkmarks.
    let counts = sandbox.run(
      "import", good, "--format", "csv", "--columns", "timestamp=Date,event='Push-ups',value=Gym",
      "--date-format", "yyyy-MM-dd", "--assume-zone", "Europe/Berlin")
    #expect(counts.status == 0, "\(counts.stderr)")
    #expect(counts.stdout.contains("1 event read, 1 added"), "\(counts.stdout)")
    let unforced = sandbox.file("counts.csv", "Date,Count\n2026-03-05,2\n")
    let read = sandbox.run(
      "import", unforced, "--columns", "timestamp=Date,event='Push-ups',value=Count",
      "--date-format", "yyyy-MM-dd", "--assume-zone", "Europe/Berlin")
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stdout.contains("1 event read, 1 added"), "\(read.stdout)")
    // --columns reads another app's CSV: with a Loop file it would be ignored, so it is refused.
    let mixed = sandbox.run(
      "import", good, "--format", "loop", "--columns", "timestamp=Date,event=Gym")
    #expect(mixed.status == 64)
  }
}
