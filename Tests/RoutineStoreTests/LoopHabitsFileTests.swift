import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

/// Loop Habit Tracker's CSV export, read into days done without a time, and the store's table
/// of such days.
struct LoopHabitsFileTests {
  let directory = TemporaryDirectory()

  static let checkmarks = """
    Date,Meditate,Gym,
    2026-03-08,2,1,
    2026-03-07,2,0,
    2026-03-06,0,2,
    2026-03-05,2,3,
    2026-03-04,2,-3,
    2026-03-03,-1,-1,

    """

  func date(_ text: String) -> LocalDate { LoopHabitsFile.parseDate(text)! }

  @Test func onlyTwoIsADayDoneAndLoopsTrailingCommaNamesNoHabit() throws {
    let path = directory.file("Checkmarks.csv", Self.checkmarks)
    let file = try LoopHabitsFile.readCheckmarks(path)
    #expect(file.habits.map(\.name) == ["Meditate", "Gym"])
    #expect(file.days == 6)
    #expect(
      file.marks.map { "\($0.kind.name) \($0.date)" } == [
        "Meditate 2026-03-08", "Meditate 2026-03-07", "Gym 2026-03-06", "Meditate 2026-03-05",
        "Meditate 2026-03-04",
      ])
    // 1 (not due by the frequency), 0, 3 and -3 (skipped) and -1 (unknown) are not done.
    #expect(file.notDone == 7)
  }

  @Test func aDateBeforeTheFirstIsLeftOutAndCounted() throws {
    let path = directory.file("Checkmarks.csv", Self.checkmarks)
    let file = try LoopHabitsFile.readCheckmarks(path, from: date("2026-03-06"))
    #expect(file.marks.count == 3)
    #expect(file.beforeFirstDate == 2)
  }

  @Test(arguments: [
    (
      "Date,Gym\n2026-03-04,7\n", 2,
      "column 'Gym': expected a Loop checkmark (2 done; 0 not done, 1 not due, -1 unknown, 3 skipped), found '7'"
    ),
    (
      "Date,Gym\r\n2026-03-04,2\r\n04/03/2026,2\r\n", 3,
      "expected a date such as 2026-03-04, found '04/03/2026'"
    ),
    ("Date,Gym\n2026-03-04,2,2\n", 2, "expected 2 columns (Date and the habits), found 3"),
    (
      "Day,Gym\n2026-03-04,2\n", 1,
      "expected Loop Habit Tracker's Checkmarks.csv header 'Date,' and the habits' names, found 'Day,Gym'"
    ),
  ])
  func aBadRowIsNamedByLineAndColumn(text: String, line: Int, message: String) throws {
    let path = directory.file("bad.csv", text)
    #expect(throws: FormatError(file: path, line: line, message: message)) {
      try LoopHabitsFile.readCheckmarks(path)
    }
  }

  @Test func skippingInvalidRowsKeepsTheOthers() throws {
    let path = directory.file("bad.csv", "Date,Gym\n2026-03-04,7\n2026-03-05,2\n")
    let file = try LoopHabitsFile.readCheckmarks(path, skipsInvalid: true)
    #expect(file.marks == [DayMark(kind: EventKind("Gym")!, date: date("2026-03-05"))])
    #expect(file.skipped.map(\.line) == [2])
  }

  @Test func bothFilesAreRecognisedAndOtherCSVIsNot() {
    #expect(LoopHabitsFile.detect(directory.file("a.csv", Self.checkmarks)) == .checkmarks)
    let habits =
      "Position,Name,Question,Description,NumRepetitions,Interval,Color\n001,Gym,,,3,7,#039BE5\n"
    #expect(LoopHabitsFile.detect(directory.file("b.csv", habits)) == .habits)
    // A date column with other numbers, times or names is another app's.
    #expect(LoopHabitsFile.detect(directory.file("c.csv", "Date,Steps\n2026-03-04,8000\n")) == nil)
    #expect(
      LoopHabitsFile.detect(directory.file("d.csv", "Date,Time,Activity\n2026-03-04,07:00,Tea\n"))
        == nil)
    #expect(LoopHabitsFile.detect(directory.file("e.csv", "Date,Gym\n")) == nil)
    #expect(LoopHabitsFile.detect(directory.file("f.csv", "timestamp,event\n")) == nil)
  }

  @Test func habitsAreReadWithTheirFrequencyAndQuotedFields() throws {
    let path = directory.file(
      "Habits.csv",
      "Position,Name,Question,Description,NumRepetitions,Interval,Color\n"
        + "001,Meditate,Did you?,\"Ten minutes,\nbefore breakfast\",1,1,#FF8F00\n"
        + "002,\"Gym, weights\",,,3,7,#039BE5\n")
    let rows = try LoopHabitsFile.readHabits(path)
    #expect(
      rows == [
        .init(line: 2, name: EventKind("Meditate")!, repetitions: 1, interval: 1),
        .init(line: 4, name: EventKind("Gym, weights")!, repetitions: 3, interval: 7),
      ])
  }

  @Test func marksAreAddedOnceAndReadByKindAndDate() throws {
    let store = try EventStore(path: directory.path("routine.db"))
    let gym = EventKind("Gym")!
    let marks = [
      DayMark(kind: gym, date: date("2026-03-04")), DayMark(kind: gym, date: date("2026-03-06")),
    ]
    #expect(try store.addDayMarks(marks, source: "loop") == .init(added: 2, alreadyPresent: 0))
    #expect(try store.addDayMarks(marks, source: "loop") == .init(added: 0, alreadyPresent: 2))
    let read = try store.markedDays(
      ofKeys: [gym.key, "other"], from: date("2026-03-05"), through: date("2026-03-31"))
    #expect(read == [gym.key: [date("2026-03-06")]])
    // Marks are no events: nothing that reads a time of day sees them.
    #expect(try store.count() == 0)
  }

  @Test func renamingAKindMovesItsMarks() throws {
    let store = try EventStore(path: directory.path("routine.db"))
    let gym = EventKind("Gym")!
    _ = try store.insert(
      Event(kind: gym, timestamp: Timestamp(iso8601: "2026-03-05T18:00:00+01:00")!, source: .cli))
    _ = try store.addDayMarks([DayMark(kind: gym, date: date("2026-03-04"))], source: "loop")
    _ = try store.renameKind(gym, to: EventKind("Workout")!)
    let read = try store.markedDays(
      ofKeys: [gym.key, EventKind("Workout")!.key], from: date("2026-03-01"),
      through: date("2026-03-31"))
    #expect(read == [EventKind("Workout")!.key: [date("2026-03-04")]])
  }

  @Test func aStoreOfTheVersionBeforeGainsTheTableAndKeepsItsEvents() throws {
    let path = directory.path("old.db")
    do {
      let store = try EventStore(path: path)
      _ = try store.insert(
        Event(
          kind: EventKind("Tea")!, timestamp: Timestamp(iso8601: "2026-03-05T08:00:00+01:00")!,
          source: .cli))
      // As a store written before day marks existed.
      try store.connection.execute(
        "DROP TABLE day_marks; DELETE FROM migrations WHERE name = '0008-day-marks'")
    }
    let store = try EventStore(path: path)
    #expect(try store.migrations().contains("0008-day-marks"))
    #expect(try store.count() == 1)
    let added = try store.addDayMarks(
      [DayMark(kind: EventKind("Tea")!, date: date("2026-03-04"))], source: "loop")
    #expect(added.added == 1)
  }
}
