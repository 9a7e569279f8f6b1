import Foundation
import Testing

@testable import RoutineCore
@testable import RoutineStore

/// Issue 30, boundaries: a ZIP64 extra field holds only the central directory's fields that read
/// 0xFFFFFFFF, in the order size, compressed size, offset. Archives built byte by byte here (not
/// by the project's writer), each with one stored `apple_health_export/export.xml`.
struct Zip64FieldTests {
  /// Which of the directory entry's fields are moved into the ZIP64 extra field.
  struct Moved: CustomStringConvertible, Sendable {
    var size = false
    var compressedSize = false
    var offset = false
    var description: String { "size \(size), compressed \(compressedSize), offset \(offset)" }
  }

  static func le16(_ value: Int, _ into: inout [UInt8]) {
    into += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
  }
  static func le32(_ value: UInt32, _ into: inout [UInt8]) {
    le16(Int(value & 0xFFFF), &into)
    le16(Int(value >> 16), &into)
  }
  static func le64(_ value: UInt64, _ into: inout [UInt8]) {
    le32(UInt32(value & 0xFFFF_FFFF), &into)
    le32(UInt32(value >> 32), &into)
  }

  /// `padding` bytes of another stored entry first, so that the export's offset is not 0.
  static func archive(_ text: String, moving moved: Moved, padding: Int = 100) -> [UInt8] {
    var out: [UInt8] = []
    let data = Array(text.utf8)
    let crc = StoredZip.crc32(data)
    let filler = [UInt8](repeating: 0x20, count: padding)
    let fillerName = Array("apple_health_export/notes.txt".utf8)
    // The filler: a plain local header and data.
    le32(0x0403_4B50, &out)
    le16(20, &out); le16(0, &out); le16(0, &out); le16(0, &out); le16(0x21, &out)
    le32(StoredZip.crc32(filler), &out); le32(UInt32(padding), &out); le32(UInt32(padding), &out)
    le16(fillerName.count, &out); le16(0, &out)
    out += fillerName + filler
    let name = Array("apple_health_export/export.xml".utf8)
    let offset = UInt64(out.count)
    le32(0x0403_4B50, &out)
    le16(45, &out); le16(0, &out); le16(0, &out); le16(0, &out); le16(0x21, &out)
    le32(crc, &out); le32(UInt32(data.count), &out); le32(UInt32(data.count), &out)
    le16(name.count, &out); le16(0, &out)
    out += name + data
    var extra: [UInt8] = []
    if moved.size { le64(UInt64(data.count), &extra) }
    if moved.compressedSize { le64(UInt64(data.count), &extra) }
    if moved.offset { le64(offset, &extra) }
    var field: [UInt8] = []
    if !extra.isEmpty {
      le16(0x0001, &field)
      le16(extra.count, &field)
      field += extra
    }
    // An unrelated extra field first (an extended timestamp), as real archivers write.
    var timestamp: [UInt8] = []
    le16(0x5455, &timestamp); le16(5, &timestamp); timestamp += [1, 0, 0, 0, 0]
    let extras = timestamp + field
    var directory: [UInt8] = []
    for (entryName, size, crcValue, entryOffset, entryExtra, zip) in [
      (fillerName, UInt32(padding), StoredZip.crc32(filler), UInt32(0), [UInt8](), false),
      (
        name, UInt32(data.count), crc, moved.offset ? 0xFFFF_FFFF : UInt32(offset), extras,
        true
      ),
    ] {
      le32(0x0201_4B50, &directory)
      le16(45, &directory); le16(45, &directory); le16(0, &directory); le16(0, &directory)
      le16(0, &directory); le16(0x21, &directory)
      le32(crcValue, &directory)
      le32(zip && moved.compressedSize ? 0xFFFF_FFFF : size, &directory)
      le32(zip && moved.size ? 0xFFFF_FFFF : size, &directory)
      le16(entryName.count, &directory); le16(entryExtra.count, &directory)
      le16(0, &directory); le16(0, &directory); le16(0, &directory); le32(0, &directory)
      le32(entryOffset, &directory)
      directory += entryName + entryExtra
    }
    let directoryOffset = UInt32(out.count)
    out += directory
    le32(0x0605_4B50, &out)
    le16(0, &out); le16(0, &out); le16(2, &out); le16(2, &out)
    le32(UInt32(directory.count), &out); le32(directoryOffset, &out); le16(0, &out)
    return out
  }

  @Test(arguments: [
    Moved(size: true), Moved(compressedSize: true), Moved(size: true, compressedSize: true),
    Moved(offset: true), Moved(size: true, offset: true), Moved(compressedSize: true, offset: true),
    Moved(size: true, compressedSize: true, offset: true),
  ])
  func theFieldsTheExtraHoldsAreReadInTheirOrder(moved: Moved) throws {
    let directory = TemporaryDirectory()
    let path = directory.file(
      "export.zip", bytes: Self.archive(AppleHealthReaderTests.sample, moving: moved))
    var mapping = HealthMapping()
    let reader = AppleHealthReader(
      path: path, skipsInvalid: false, defaultZone: nil, zone: AppleHealthReaderTests.zones)
    let summary = try reader.read(into: &mapping)
    #expect(summary.isArchive)
    #expect(mapping.finish().events.count == 5, "\(moved)")
  }
}
