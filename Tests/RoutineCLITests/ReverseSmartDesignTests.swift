import Foundation
import Testing

/// The reverse-smart reminder design's manual testing checklist (its six tests and its edge
/// cases, ../shared/seeds), run through the built binary, one process per step as a person and
/// cron would run them: Europe/Berlin, 2026-05-04 is a Monday.
@Suite(.serialized)
struct ReverseSmartDesignTests {
  static let monday = "2026-05-04"
  static let tuesday = "2026-05-05"
  static let wednesday = "2026-05-06"

  /// A store with `reminders` added on Monday at 07:00 (each an `reminders add` argument list).
  func sandbox(_ reminders: [String]...) throws -> Sandbox {
    let sandbox = Sandbox(now: "\(Self.monday)T07:00:00+02:00", zone: "Europe/Berlin")
    try routine(sandbox, at: "\(Self.monday)T07:00", "settings", "--time-zone", "Europe/Berlin")
    for reminder in reminders {
      try routine(sandbox, at: "\(Self.monday)T07:00", ["reminders", "add"] + reminder)
    }
    return sandbox
  }

  /// Runs the binary at local time `at` (`2026-05-04T10:00`, or with seconds); it must succeed.
  @discardableResult
  func routine(_ sandbox: Sandbox, at: String, _ arguments: String...) throws -> Invocation {
    try routine(sandbox, at: at, arguments)
  }

  @discardableResult
  func routine(_ sandbox: Sandbox, at: String, _ arguments: [String]) throws -> Invocation {
    let seconds = at.filter { $0 == ":" }.count == 1 ? ":00" : ""
    let result = try sandbox.runBinary(arguments + ["--now", "\(at)\(seconds)+02:00"])
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    return result
  }

  /// The firings from `at` to a week later, `id time` with ` skipped` when one will be skipped.
  func agenda(_ sandbox: Sandbox, at: String) throws -> [String] {
    let json = try routine(sandbox, at: at, "agenda", "--json").json
    return (json["items"] as? [[String: Any]] ?? []).map { item in
      let at = (item["at"] as? String ?? "?").prefix(16)
      return "\(item["id"] as? String ?? "?") \(at)" + (item["skipped"] is String ? " skipped" : "")
    }
  }

  /// What `deliver` at `at` delivered: request ids.
  func delivered(_ sandbox: Sandbox, at: String) throws -> [String] {
    try routine(sandbox, at: at, "deliver").stdout.split(separator: "\n").compactMap {
      let object = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      return object?["id"] as? String
    }
  }

  /// The outcome history records for the firing of `id` at `occurrence` (`2026-05-04T18:00`).
  func outcome(_ sandbox: Sandbox, _ id: String, _ occurrence: String, now: String) throws
    -> String?
  {
    let json = try routine(sandbox, at: now, "history", "--json", "--from", Self.monday).json
    return (json["entries"] as? [[String: Any]] ?? []).first {
      $0["type"] as? String == "delivery" && $0["id"] as? String == id
        && ($0["occurrence"] as? String)?.hasPrefix(occurrence) == true
    }?["outcome"] as? String
  }

  // MARK: The six tests

  @Test func test1BasicCancel() throws {
    let sandbox = try sandbox(["--activity", "mindfulness", "--at", "18:00", "--days", "mon"])
    try routine(sandbox, at: "\(Self.monday)T10:15", "log", "Meditation", "--at", "10:00")
    #expect(
      try agenda(sandbox, at: "\(Self.monday)T10:20").first
        == "reminder-1-weekday-2 2026-05-04T18:00 skipped")
    #expect(try delivered(sandbox, at: "\(Self.monday)T18:00:30").isEmpty)
    #expect(
      try outcome(sandbox, "reminder-1-weekday-2", "2026-05-04T18:00", now: "\(Self.monday)T18:05")
        == "cancelled")
  }

  @Test func test2OutsideTheLookBackWindow() throws {
    let sandbox = try sandbox([
      "--activity", "workout", "--at", "12:00", "--lookback", "1", "--days", "mon",
    ])
    try routine(sandbox, at: "\(Self.monday)T10:00", "log", "Workout")
    #expect(
      try agenda(sandbox, at: "\(Self.monday)T10:05").first
        == "reminder-1-weekday-2 2026-05-04T12:00")
    #expect(try delivered(sandbox, at: "\(Self.monday)T12:00:30") == ["reminder-1-weekday-2"])
  }

  @Test func test3TwoRemindersOfOneActivity() throws {
    let sandbox = try sandbox(
      ["--activity", "workout", "--at", "12:00", "--lookback", "1", "--days", "mon"],
      ["--activity", "workout", "--at", "18:00", "--lookback", "12", "--days", "mon"])
    try routine(sandbox, at: "\(Self.monday)T10:00", "log", "Workout")
    #expect(
      try agenda(sandbox, at: "\(Self.monday)T10:05").prefix(2) == [
        "reminder-1-weekday-2 2026-05-04T12:00", "reminder-2-weekday-2 2026-05-04T18:00 skipped",
      ])
    #expect(try delivered(sandbox, at: "\(Self.monday)T12:00:30") == ["reminder-1-weekday-2"])
    #expect(try delivered(sandbox, at: "\(Self.monday)T18:00:30").isEmpty)
  }

  @Test func test4TheNextDayStartsAfresh() throws {
    let sandbox = try sandbox(["--activity", "mindfulness", "--at", "18:00"])
    try routine(sandbox, at: "\(Self.monday)T10:00", "log", "Meditation")
    #expect(
      try agenda(sandbox, at: "\(Self.monday)T10:05").prefix(2) == [
        "reminder-1-weekday-2 2026-05-04T18:00 skipped", "reminder-1-weekday-3 2026-05-05T18:00",
      ])
    // Tuesday morning, a new run: Monday's cancellation has expired, Tuesday's firing stands.
    #expect(
      try agenda(sandbox, at: "\(Self.tuesday)T08:00").first
        == "reminder-1-weekday-3 2026-05-05T18:00")
    let listed = try routine(sandbox, at: "\(Self.tuesday)T08:00", "reminders", "--json").json
    #expect((listed["reminders"] as? [[String: Any]])?.first?["cancelled"] as? Int == 0)
    #expect(try delivered(sandbox, at: "\(Self.tuesday)T18:00:30") == ["reminder-1-weekday-3"])
  }

  @Test func test5ACancellationOutlivesTheProcessAndARePlan() throws {
    let sandbox = try sandbox(["--activity", "mindfulness", "--at", "18:00", "--days", "mon"])
    try routine(sandbox, at: "\(Self.monday)T10:00", "log", "Meditation")
    // Every later step is another process; a plan in between rewrites the learned requests.
    try routine(sandbox, at: "\(Self.monday)T11:00", "plan")
    #expect(
      try agenda(sandbox, at: "\(Self.monday)T12:00").first
        == "reminder-1-weekday-2 2026-05-04T18:00 skipped")
    #expect(try delivered(sandbox, at: "\(Self.monday)T18:00:30").isEmpty)
  }

  @Test func test6OnlyThatWeekdaysFiringIsCancelled() throws {
    let sandbox = try sandbox(["--activity", "mindfulness", "--at", "18:00", "--days", "mon,wed"])
    try routine(sandbox, at: "\(Self.monday)T10:00", "log", "Meditation")
    #expect(
      try agenda(sandbox, at: "\(Self.monday)T10:05").prefix(2) == [
        "reminder-1-weekday-2 2026-05-04T18:00 skipped", "reminder-1-weekday-4 2026-05-06T18:00",
      ])
    #expect(try delivered(sandbox, at: "\(Self.monday)T18:00:30").isEmpty)
    #expect(try delivered(sandbox, at: "\(Self.wednesday)T18:00:30") == ["reminder-1-weekday-4"])
  }

  // MARK: Edge cases

  @Test func anActivityAfterTheFiringIsTooLateToCancelIt() throws {
    let sandbox = try sandbox(["--activity", "mindfulness", "--at", "18:00"])
    #expect(try delivered(sandbox, at: "\(Self.monday)T18:00:30") == ["reminder-1-weekday-2"])
    try routine(sandbox, at: "\(Self.monday)T19:00", "log", "Meditation")
    // Tuesday's 12 hours before 18:00 start at 06:00: Monday evening is not in them.
    #expect(
      try agenda(sandbox, at: "\(Self.monday)T19:05").first
        == "reminder-1-weekday-3 2026-05-05T18:00")
  }

  @Test func anActivityExactlyAtTheFiringCountsForIt() throws {
    let sandbox = try sandbox(["--activity", "mindfulness", "--at", "18:00"])
    try routine(sandbox, at: "\(Self.monday)T18:00", "log", "Meditation")
    // The firing is now, not ahead: nothing to cancel, but the forward check at delivery counts
    // the activity (its look-back includes its end) and the firing is suppressed.
    #expect(try delivered(sandbox, at: "\(Self.monday)T18:00:30").isEmpty)
    #expect(
      try outcome(sandbox, "reminder-1-weekday-2", "2026-05-04T18:00", now: "\(Self.monday)T18:05")
        == "suppressed")
  }

  @Test func severalActivitiesInADayCancelTheFiringOnce() throws {
    let sandbox = try sandbox(["--activity", "mindfulness", "--at", "18:00"])
    try routine(sandbox, at: "\(Self.monday)T08:00", "log", "Meditation")
    try routine(sandbox, at: "\(Self.monday)T10:00", "log", "Meditation")
    let json = try routine(sandbox, at: "\(Self.monday)T10:05", "history", "--json").json
    let cancellations = (json["entries"] as? [[String: Any]] ?? []).filter {
      $0["type"] as? String == "cancellation"
    }
    #expect(cancellations.count == 1)
    #expect(try delivered(sandbox, at: "\(Self.monday)T18:00:30").isEmpty)
  }

  @Test func anEditWhileCancelledIsDecidedAgainAtTheFiring() throws {
    let kept = try sandbox(["--activity", "mindfulness", "--at", "18:00"])
    try routine(kept, at: "\(Self.monday)T10:00", "log", "Meditation")
    // A new title keeps the firing and its look-back: the meditation still counts.
    try routine(
      kept, at: "\(Self.monday)T11:00", "reminders", "edit", "reminder-1", "--title", "Om")
    #expect(try delivered(kept, at: "\(Self.monday)T18:00:30").isEmpty)
    #expect(
      try outcome(kept, "reminder-1-weekday-2", "2026-05-04T18:00", now: "\(Self.monday)T18:05")
        == "suppressed")
    // A look-back of one hour no longer reaches 10:00: it fires.
    let shortened = try sandbox(["--activity", "mindfulness", "--at", "18:00"])
    try routine(shortened, at: "\(Self.monday)T10:00", "log", "Meditation")
    try routine(
      shortened, at: "\(Self.monday)T11:00", "reminders", "edit", "reminder-1", "--lookback", "1")
    #expect(try delivered(shortened, at: "\(Self.monday)T18:00:30") == ["reminder-1-weekday-2"])
  }

  @Test func disabledAndEnabledAgainWhileCancelledItStillCountsTheActivity() throws {
    let sandbox = try sandbox(["--activity", "mindfulness", "--at", "18:00"])
    try routine(sandbox, at: "\(Self.monday)T10:00", "log", "Meditation")
    try routine(sandbox, at: "\(Self.monday)T11:00", "reminders", "disable", "reminder-1")
    #expect(try agenda(sandbox, at: "\(Self.monday)T11:05").isEmpty)
    try routine(sandbox, at: "\(Self.monday)T12:00", "reminders", "enable", "reminder-1")
    #expect(
      try agenda(sandbox, at: "\(Self.monday)T12:05").first
        == "reminder-1-weekday-2 2026-05-04T18:00 skipped")
    #expect(try delivered(sandbox, at: "\(Self.monday)T18:00:30").isEmpty)
  }

  @Test func aReminderRemovedWhileCancelledTakesItsCancellationsWithIt() throws {
    let sandbox = try sandbox(["--activity", "mindfulness", "--at", "18:00"])
    try routine(sandbox, at: "\(Self.monday)T10:00", "log", "Meditation")
    try routine(sandbox, at: "\(Self.monday)T11:00", "reminders", "remove", "reminder-1", "--yes")
    let json = try routine(sandbox, at: "\(Self.monday)T11:05", "history", "--json").json
    #expect(
      (json["entries"] as? [[String: Any]] ?? []).filter {
        $0["type"] as? String == "cancellation"
      }.isEmpty)
    #expect(try agenda(sandbox, at: "\(Self.monday)T11:05").isEmpty)
    #expect(try delivered(sandbox, at: "\(Self.monday)T18:00:30").isEmpty)
  }
}
