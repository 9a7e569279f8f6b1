import Dispatch

/// Results written by index from several threads: each index is written by exactly one
/// iteration, so the slots never race.
private final class Slots<T>: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<T?>
  let count: Int

  init(count: Int) {
    self.count = count
    pointer = .allocate(capacity: count)
    pointer.initialize(repeating: nil, count: count)
  }

  deinit {
    pointer.deinitialize(count: count)
    pointer.deallocate()
  }
}

/// `(0..<count).map(transform)`, computed on all cores. Deterministic: the results come back in
/// index order whatever order the work ran in.
func parallelMap<T>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
  guard count > 1 else { return (0..<count).map(transform) }
  let slots = Slots<T>(count: count)
  DispatchQueue.concurrentPerform(iterations: count) { index in
    slots.pointer[index] = transform(index)
  }
  return (0..<count).map { slots.pointer[$0]! }
}
