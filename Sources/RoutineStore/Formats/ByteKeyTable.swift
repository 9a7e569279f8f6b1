/// A small hash table from raw byte strings to values, looked up without allocating or counting
/// references: the hot loops map each record's event-name bytes to a kind, millions of times,
/// among few distinct names. It owns raw memory (keys end to end in one arena) so that a lookup
/// touches no reference-counted storage.
final class ByteKeyTable<Value> {
  private struct Entry {
    var hash: UInt64
    /// The first and last eight bytes (zero-padded when shorter): for keys of at most 16 bytes,
    /// equal words and length mean equal keys, without a call to memcmp.
    var head: UInt64
    var tail: UInt64
    var offset: Int
    var count: Int
    var value: Value
  }

  private var slots: UnsafeMutableBufferPointer<Int32>
  private var entries: UnsafeMutableBufferPointer<Entry>
  private var entryCount = 0
  private var arena: UnsafeMutableRawBufferPointer
  private var arenaCount = 0

  init() {
    slots = .allocate(capacity: 256)
    slots.initialize(repeating: -1)
    entries = .allocate(capacity: 128)
    arena = .allocate(byteCount: 4096, alignment: 1)
  }

  deinit {
    slots.deallocate()
    entries.baseAddress!.deinitialize(count: entryCount)
    entries.deallocate()
    arena.deallocate()
  }

  /// The value stored for `key`, if any.
  func value(for key: UnsafeRawBufferPointer) -> Value? {
    let (head, tail) = ByteKeyTable.words(key)
    let hash = ByteKeyTable.hash(key, head: head, tail: tail)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let index = Int(slots[slot])
      guard index >= 0 else { return nil }
      let entry = entries[index]
      if entry.hash == hash, entry.count == key.count, entry.head == head, entry.tail == tail,
        key.count <= 16
          || memcmp(arena.baseAddress! + entry.offset, key.baseAddress!, key.count) == 0
      {
        return entry.value
      }
      slot = (slot + 1) & mask
    }
  }

  /// Stores `value` for `key` (which must not be present yet).
  func insert(_ value: Value, for key: UnsafeRawBufferPointer) {
    if entryCount == entries.count {
      let larger = UnsafeMutableBufferPointer<Entry>.allocate(capacity: entries.count * 2)
      larger.baseAddress!.moveInitialize(from: entries.baseAddress!, count: entryCount)
      entries.deallocate()
      entries = larger
    }
    while arenaCount + key.count > arena.count {
      let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: arena.count * 2, alignment: 1)
      larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: arena[0..<arenaCount]))
      arena.deallocate()
      arena = larger
    }
    if (entryCount + 1) * 2 > slots.count { grow() }
    let (head, tail) = ByteKeyTable.words(key)
    let hash = ByteKeyTable.hash(key, head: head, tail: tail)
    (entries.baseAddress! + entryCount).initialize(
      to: Entry(
        hash: hash, head: head, tail: tail, offset: arenaCount, count: key.count, value: value))
    if key.count > 0 {
      (arena.baseAddress! + arenaCount).copyMemory(from: key.baseAddress!, byteCount: key.count)
    }
    arenaCount += key.count
    place(entryCount, hash: hash)
    entryCount += 1
  }

  private func place(_ index: Int, hash: UInt64) {
    var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
    while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
    slots[slot] = Int32(index)
  }

  private func grow() {
    let capacity = slots.count * 2
    slots.deallocate()
    slots = .allocate(capacity: capacity)
    slots.initialize(repeating: -1)
    for index in 0..<entryCount { place(index, hash: entries[index].hash) }
  }

  /// The first and last eight bytes of `key` as words (little-endian, zero-padded).
  @inline(__always)
  static func words(_ key: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    let count = key.count
    if count >= 8 {
      return (
        key.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
        key.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      )
    }
    var word: UInt64 = 0
    for index in 0..<count { word |= UInt64(key[index]) << (8 * UInt64(index)) }
    return (word, word)
  }

  /// Hashes every byte of `key`: its first and last words (already loaded), its length, and for
  /// keys over 16 bytes each word in between. Names that share their ends ("collide-00000001-
  /// tail-xx") must not share a slot, or each lookup walks a chain as long as the table.
  /// MurmurHash3's 64-bit finalizer folds the high bits down before each multiplication: names
  /// such as "Habit 017" and "Habit 018" differ only in their last (most significant) bytes,
  /// and the slot is taken from the low bits.
  @inline(__always)
  static func hash(_ key: UnsafeRawBufferPointer, head: UInt64, tail: UInt64) -> UInt64 {
    let count = key.count
    var hash = head ^ (tail << 29 | tail >> 35) ^ (UInt64(truncatingIfNeeded: count) << 57)
    if count > 16 {
      var offset = 8
      while offset < count - 8 {
        let word = key.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 29
        offset += 8
      }
    }
    hash ^= hash >> 33
    hash = hash &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 33
    hash = hash &* 0xC4CE_B9FE_1A85_EC53
    hash ^= hash >> 33
    return hash
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
