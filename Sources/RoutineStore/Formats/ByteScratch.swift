/// Reusable memory for unescaped field text, owned by the parse loop that declares it (call
/// ``deallocate()`` when done). A struct over raw memory, not a class: the hot loop passes it
/// `inout` without any reference counting. A buffer it returns stays valid until its next
/// mutation.
struct ByteScratch {
  private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
  private var count = 0

  /// Frees the memory.
  func deallocate() { storage.deallocate() }

  /// Starts a new text, forgetting the previous one.
  mutating func reset() { count = 0 }

  /// Appends one byte.
  mutating func append(_ byte: UInt8) {
    if count == storage.count {
      let larger = UnsafeMutableRawBufferPointer.allocate(
        byteCount: storage.count * 2, alignment: 1)
      larger.copyMemory(from: UnsafeRawBufferPointer(storage))
      storage.deallocate()
      storage = larger
    }
    storage[count] = byte
    count += 1
  }

  /// The text built since the last reset.
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }
}
