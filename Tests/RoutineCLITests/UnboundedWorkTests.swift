import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// Issue 17, item 3.7 (unbounded work) and item 4.10 (the agenda's 7 days): ranges are bounded
/// and say their limit, long lists are written as they are read, listing is linear in the
/// definitions, and what the commands print is what it was.
struct UnboundedWorkTests {
  // MARK: Output

  @Test(arguments: [0, 1, 3])
  func aListWrittenAnElementAtATimeIsTheWholeListSerialized(count: Int) {
    let elements: [JSON] = (0..<count).map { index in
      .object([
        ("id", .string("r-\(index)")), ("nested", .object([("list", .array([.integer(index)]))])),
        ("empty", .array([])), ("quote", .string("\"\n")),
      ])
    }
    let output = Output()
    var list = JSONListWriter(output, key: "items")
    for element in elements { list.append(element) }
    list.finish()
    #expect(output.text == JSON.object([("items", .array(elements))]).serialized() + "\n")
  }

  // MARK: Kinds

  /// Counts, first and last (with the offset each was logged with) are what they were before
  /// the index: a kind whose events are all deleted is not listed.
  @Test func kindsListEachKindWithItsCountAndSpanAsBefore() {
    let sandbox = Sandbox()
    let log = sandbox.file(
      "log.csv",
      """
      timestamp,event,value,note
      2026-03-28T08:00:00+01:00,Coffee,,
      2026-03-30T07:30:00+02:00,coffee,2,
      2026-03-30T07:30:00+02:00,Coffee,3,
      2026-04-01T09:00:00+02:00,Tea,,
      2025-12-31T23:30:00-05:00,Wake up,,
      2026-01-01T06:00:00+09:00,Wake Up,,
      2026-02-01T06:00:00+01:00,Juice,,

      """)
    #expect(sandbox.run("import", log).status == 0)
    #expect(sandbox.run("events", "delete", "--event", "Juice", "--yes").status == 0)
    #expect(
      sandbox.run("kinds").stdout
        == """
          Coffee   3 events  2026-03-28 to 2026-03-30
          Tea      1 event   2026-04-01 to 2026-04-01
          Wake up  2 events  2026-01-01 to 2025-12-31

        """)
    #expect(
      sandbox.run("kinds", "--json").stdout
        == """
        {
          "kinds": [
            {
              "event": "Coffee",
              "count": 3,
              "first": "2026-03-28T08:00:00+01:00",
              "last": "2026-03-30T07:30:00+02:00"
            },
            {
              "event": "Tea",
              "count": 1,
              "first": "2026-04-01T09:00:00+02:00",
              "last": "2026-04-01T09:00:00+02:00"
            },
            {
              "event": "Wake up",
              "count": 2,
              "first": "2026-01-01T06:00:00+09:00",
              "last": "2025-12-31T23:30:00-05:00"
            }
          ]
        }

        """)
  }
}
