import Foundation

/// Runs one piece of work per person on a bounded set of threads and hands the results back on
/// the calling thread in person order, each as soon as it and every one before it are done.
///
/// At most `workers` people are worked on at once, and at most `ahead` finished results wait for
/// an earlier, slower person: memory holds one person's work per thread plus that many results
/// (their printed text), never the whole cohort's.
final class CohortPool<Outcome: Sendable>: @unchecked Sendable {
  private let count: Int
  private let ahead: Int
  private let work: @Sendable (Int) -> Outcome
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var next = 0
  private var delivered = 0
  private var running = 0
  private var results: [Int: Outcome] = [:]

  private init(count: Int, ahead: Int, work: @escaping @Sendable (Int) -> Outcome) {
    self.count = count
    self.ahead = ahead
    self.work = work
  }

  /// Runs `work` for each index below `count` on `workers` threads and calls `deliver` with
  /// each result in index order, on this thread; when `deliver` returns `false` (the output
  /// cannot be written), no more work starts. `idle` runs before waiting for a result that is
  /// not ready (to flush what was printed so far).
  static func run(
    count: Int, workers: Int, ahead: Int, work: @escaping @Sendable (Int) -> Outcome,
    idle: () -> Void, deliver: (Int, Outcome) -> Bool
  ) {
    guard count > 0 else { return }
    let pool = CohortPool(count: count, ahead: max(ahead, workers), work: work)
    let threads = max(1, min(workers, count))
    pool.running = threads
    for _ in 0..<threads {
      let thread = Thread { pool.workLoop() }
      // The analysis recurses little, but a worker must not have less stack than the main
      // thread that runs `analyze --log`.
      thread.stackSize = 8 << 20
      thread.start()
    }
    for index in 0..<count {
      pool.condition.lock()
      if pool.results[index] == nil {
        pool.condition.unlock()
        idle()
        pool.condition.lock()
        while pool.results[index] == nil { pool.condition.wait() }
      }
      let outcome = pool.results.removeValue(forKey: index)!
      pool.delivered = index + 1
      pool.condition.broadcast()
      pool.condition.unlock()
      guard deliver(index, outcome) else {
        pool.condition.lock()
        pool.next = count
        pool.condition.unlock()
        break
      }
    }
    pool.condition.lock()
    while pool.running > 0 { pool.condition.wait() }
    pool.results.removeAll()
    pool.condition.unlock()
  }

  private func workLoop() {
    while true {
      condition.lock()
      while next < count, next >= delivered + ahead { condition.wait() }
      guard next < count else {
        running -= 1
        condition.broadcast()
        condition.unlock()
        return
      }
      let index = next
      next += 1
      condition.unlock()
      let outcome = work(index)
      condition.lock()
      results[index] = outcome
      condition.broadcast()
      condition.unlock()
    }
  }
}
