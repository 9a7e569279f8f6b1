import Testing

@testable import RoutineCore

/// The typo rule (docs/cli.md, "A typo is named").
struct NearNameTests {
  @Test(arguments: [
    ("Coffe", "Coffee", 1), ("cofee", "Coffee", 1), ("Cofefe", "Coffee", 1),
    ("Wkae Up", "Wake Up", 1), ("Meditaiton", "Meditation", 1), ("Medtiaton", "Meditation", 2),
    ("abc", "abc", 0), ("", "abc", 3), ("kitten", "sitting", 3),
  ])
  func distanceCountsATranspositionAsOneEdit(a: String, b: String, expected: Int) {
    #expect(NearName.distance(Array(a.lowercased()), Array(b.lowercased()), limit: 5) == expected)
  }

  @Test func distanceStopsAtItsLimit() {
    #expect(NearName.distance(Array("abcdefgh"), Array("zyxwvuts"), limit: 2) == 3)
    #expect(NearName.distance(Array("a"), Array("abcdef"), limit: 2) == 3)
  }

  @Test func allowedEditsGrowWithTheName() {
    #expect(NearName.allowedEdits(for: "Tea") == 0)
    #expect(NearName.allowedEdits(for: "Gymm") == 1)
    #expect(NearName.allowedEdits(for: "Wake Up") == 1)
    #expect(NearName.allowedEdits(for: "Bed Timee") == 2)
  }

  @Test func aNewNameNearAStoredOneIsNamed() {
    let kinds = ["Coffee", "Wake Up", "Meditation", "Tea"]
    #expect(NearName.nearest(to: "Coffe", among: kinds) == "Coffee")
    #expect(NearName.nearest(to: "Wkae Up", among: kinds) == "Wake Up")
    #expect(NearName.nearest(to: "Medtiaton", among: kinds) == "Meditation")
    // Three characters or fewer: never a typo (Tee, Pee and Tea are all real).
    #expect(NearName.nearest(to: "Tee", among: kinds) == nil)
    // Two edits away from a name of 7 characters or fewer: another name.
    #expect(NearName.nearest(to: "Cofe", among: kinds) == nil)
    #expect(NearName.nearest(to: "Running", among: kinds) == nil)
  }

  @Test func aStoredNameIsNotATypoOfAnother() {
    #expect(NearName.nearest(to: "coffee", among: ["Coffee", "Coffe"]) == nil)
    #expect(NearName.nearest(to: "Coffe", among: ["Coffee", "Coffe"]) == nil)
  }

  @Test func namesThatDifferOnlyInDigitsAreDistinct() {
    #expect(NearName.nearest(to: "Habit 002", among: ["Habit 001"]) == nil)
    #expect(NearName.nearest(to: "Run 5k", among: ["Run 3k"]) == nil)
    #expect(NearName.nearest(to: "Habit 01", among: ["Habitt 01"]) == "Habitt 01")
  }

  @Test func theNearestWinsAndTiesGoToTheFirst() {
    #expect(NearName.nearest(to: "Readng", among: ["Reading", "Read"]) == "Reading")
    #expect(NearName.nearest(to: "Gymx", among: ["Gyms", "Gymy"]) == "Gyms")
  }

  @Test func anUnofferedActionNearAnOfferedOneIsNamed() {
    let error = ActionError(
      action: "snoze", requestID: "reminder-1-weekday-2", valid: ["done", "snooze", "open"])
    #expect(error.near == "snooze")
    #expect(
      error.description
        == "'reminder-1-weekday-2' offers done, snooze and open, not 'snoze'; did you mean 'snooze'?"
    )
    let far = ActionError(action: "later", requestID: "r", valid: ["done", "snooze", "open"])
    #expect(far.near == nil)
    #expect(far.description == "'r' offers done, snooze and open, not 'later'")
  }
}
