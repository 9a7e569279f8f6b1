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
}
