import Foundation

/// The directory of a ZIP archive, read from its end (the end of central directory record,
/// ZIP64 when the archive needs it), and its entries read by streaming (``ZipEntryReader``).
///
/// Handles what iOS writes: deflated (method 8) or stored (0) entries, data descriptors (sizes
/// come from the central directory, never from the local header), ZIP64 sizes and offsets (an
/// entry over 4 GiB). The archive must be a regular file: its directory is at the end.
final class ZipArchive {
  /// One entry of the central directory.
  struct Entry: Equatable {
    var name: String
    var method: UInt16
    var flags: UInt16
    var crc: UInt32
    var compressedSize: UInt64
    var size: UInt64
    var localHeaderOffset: UInt64
  }

  let file: FileByteSource
  let entries: [Entry]

  /// The most entries read from a directory (real exports hold a few thousand routes).
  static let maximumEntries = 1_000_000

  /// Reads the directory of the archive `file`.
  init(file: FileByteSource) throws {
    self.file = file
    entries = try Self.readDirectory(file)
  }

  private static func damaged(_ file: FileByteSource, _ message: String) -> ArchiveError {
    ArchiveError(file: file.path, message: message)
  }

  private static func readDirectory(_ file: FileByteSource) throws -> [Entry] {
    guard file.isRegularFile else {
      throw damaged(
        file, "expected a ZIP archive in a file, found one on a pipe; save it to a file first")
    }
    let size = file.size()
    // The end record is 22 bytes, followed by a comment of up to 65,535.
    let tailLength = Int(min(size, 22 + 65_535))
    var tail = [UInt8](repeating: 0, count: tailLength)
    let read = try tail.withUnsafeMutableBytes {
      try file.read(into: $0, at: size - Int64(tailLength))
    }
    guard read == tailLength, tailLength >= 22,
      let endIndex = (0...(tailLength - 22)).reversed().first(where: {
        tail.u32($0) == 0x0605_4B50
      })
    else {
      throw damaged(
        file, "expected a ZIP archive, found no end of its directory; is it cut short?")
    }
    var count = UInt64(tail.u16(endIndex + 10))
    var directorySize = UInt64(tail.u32(endIndex + 12))
    var directoryOffset = UInt64(tail.u32(endIndex + 16))
    // ZIP64: a locator just before the end record points at the ZIP64 end record.
    let endOffset = size - Int64(tailLength) + Int64(endIndex)
    if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF,
      endOffset >= 20
    {
      var locator = [UInt8](repeating: 0, count: 20)
      _ = try locator.withUnsafeMutableBytes { try file.read(into: $0, at: endOffset - 20) }
      if locator.u32(0) == 0x0706_4B50 {
        let recordOffset = locator.u64(8)
        var record = [UInt8](repeating: 0, count: 56)
        let got = try record.withUnsafeMutableBytes {
          try file.read(into: $0, at: Int64(clamping: recordOffset))
        }
        guard got == 56, record.u32(0) == 0x0606_4B50 else {
          throw damaged(file, "expected a ZIP64 end of directory record, found damaged data")
        }
        count = record.u64(32)
        directorySize = record.u64(40)
        directoryOffset = record.u64(48)
      }
    }
    guard directoryOffset + directorySize <= UInt64(size), directorySize <= 1 << 30,
      count <= UInt64(maximumEntries)
    else {
      throw damaged(
        file, "expected a ZIP directory inside the file, found one past its end; is it cut short?")
    }
    var directory = [UInt8](repeating: 0, count: Int(directorySize))
    let got = try directory.withUnsafeMutableBytes {
      try file.read(into: $0, at: Int64(directoryOffset))
    }
    guard got == directory.count else {
      throw damaged(file, "expected a ZIP directory, found the end of the file")
    }
    var entries: [Entry] = []
    var index = 0
    for _ in 0..<count {
      guard index + 46 <= directory.count, directory.u32(index) == 0x0201_4B50 else {
        throw damaged(file, "expected a ZIP directory entry, found damaged data")
      }
      let nameLength = Int(directory.u16(index + 28))
      let extraLength = Int(directory.u16(index + 30))
      let commentLength = Int(directory.u16(index + 32))
      let next = index + 46 + nameLength + extraLength + commentLength
      guard next <= directory.count else {
        throw damaged(file, "expected a ZIP directory entry, found damaged data")
      }
      var entry = Entry(
        name: String(decoding: directory[(index + 46)..<(index + 46 + nameLength)], as: UTF8.self),
        method: directory.u16(index + 10), flags: directory.u16(index + 8),
        crc: directory.u32(index + 16), compressedSize: UInt64(directory.u32(index + 20)),
        size: UInt64(directory.u32(index + 24)),
        localHeaderOffset: UInt64(directory.u32(index + 42)))
      // The ZIP64 extra field holds, in this order, those of the three that are 0xFFFFFFFF.
      var extra = index + 46 + nameLength
      let extraEnd = extra + extraLength
      while extra + 4 <= extraEnd {
        let id = directory.u16(extra)
        let length = Int(directory.u16(extra + 2))
        var field = extra + 4
        if id == 0x0001 {
          let fieldEnd = min(field + length, extraEnd)
          if entry.size == 0xFFFF_FFFF, field + 8 <= fieldEnd {
            entry.size = directory.u64(field)
            field += 8
          }
          if entry.compressedSize == 0xFFFF_FFFF, field + 8 <= fieldEnd {
            entry.compressedSize = directory.u64(field)
            field += 8
          }
          if entry.localHeaderOffset == 0xFFFF_FFFF, field + 8 <= fieldEnd {
            entry.localHeaderOffset = directory.u64(field)
          }
        }
        extra += 4 + length
      }
      entries.append(entry)
      index = next
    }
    return entries
  }

  /// The Health exports in the archive: `apple_health_export/export.xml` when there is one,
  /// else every entry named `export.xml` in any folder (never `export_cda.xml`); entries of one
  /// name as often as the archive holds them. More than one is for the caller to refuse: which
  /// of two exports a person meant is theirs to say.
  func healthExports() -> [Entry] {
    // Every entry of that name: an archive can hold one name twice (appended to, or made by
    // hand), and reading the first would silently import what may be the older one.
    let exact = entries.filter { $0.name == "apple_health_export/export.xml" }
    if !exact.isEmpty { return exact }
    return entries.filter { $0.name == "export.xml" || $0.name.hasSuffix("/export.xml") }
  }

  /// Where the entry's data starts (after its local header).
  func dataOffset(of entry: Entry) throws -> Int64 {
    var header = [UInt8](repeating: 0, count: 30)
    let got = try header.withUnsafeMutableBytes {
      try file.read(into: $0, at: Int64(clamping: entry.localHeaderOffset))
    }
    guard got == 30, header.u32(0) == 0x0403_4B50 else {
      throw Self.damaged(
        file, "expected the local header of '\(entry.name)', found damaged data")
    }
    return Int64(clamping: entry.localHeaderOffset) + 30 + Int64(header.u16(26))
      + Int64(header.u16(28))
  }
}

extension [UInt8] {
  fileprivate func u16(_ index: Int) -> UInt16 {
    UInt16(self[index]) | UInt16(self[index + 1]) << 8
  }
  fileprivate func u32(_ index: Int) -> UInt32 {
    UInt32(u16(index)) | UInt32(u16(index + 2)) << 16
  }
  fileprivate func u64(_ index: Int) -> UInt64 {
    UInt64(u32(index)) | UInt64(u32(index + 4)) << 32
  }
}
