/// The rows of one query, read one at a time as they are asked for: a year of history is
/// printed without being held in memory, and several ordered cursors can be merged (`routine
/// history` merges deliveries, answers and cancellations by time).
///
/// Use it inside one ``EventStore/read(_:)`` so that every cursor reads the same snapshot; the
/// statement is finalized when the cursor goes.
public final class StoreCursor<Element> {
  private let store: EventStore
  private let statement: Statement
  private let decode: (Statement) -> Element
  private var isDone = false

  init(store: EventStore, statement: Statement, decode: @escaping (Statement) -> Element) {
    self.store = store
    self.statement = statement
    self.decode = decode
  }

  /// The next row, or `nil` after the last.
  public func next() throws -> Element? {
    guard !isDone else { return nil }
    let hasRow = try store.withDatabase { try statement.step() }
    guard hasRow else {
      isDone = true
      return nil
    }
    return decode(statement)
  }
}
