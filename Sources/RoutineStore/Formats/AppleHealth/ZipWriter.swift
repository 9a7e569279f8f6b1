import CZlib
import Foundation

/// Writes a ZIP archive of one entry, deflated as it streams in (zlib's `deflate`, raw), the
/// way the Health app's `export.zip` holds `apple_health_export/export.xml`: the local header
/// without sizes, a data descriptor after the data, ZIP64 records when the entry or the archive
/// outgrows 4 GiB (or when asked, for tests). The file is replaced atomically by
/// ``FileWriter``.
public final class ZipWriter {
  private let writer: FileWriter
  private let name: [UInt8]
  private let forcesZip64: Bool
  private var stream = z_stream()
  private var crc: UInt = 0
  private var size: UInt64 = 0
  private var compressedSize: UInt64 = 0
  private var offset: UInt64 = 0
  private let output: UnsafeMutableRawBufferPointer
  private var isFinished = false

  /// Starts the archive at `path` with one entry called `entry`.
  public init(path: String, entry: String, level: Int32 = 6, forcesZip64: Bool = false) throws {
    writer = try FileWriter(path: path)
    name = Array(entry.utf8)
    self.forcesZip64 = forcesZip64
    output = .allocate(byteCount: 256 << 10, alignment: 16)
    guard czlib_deflate_init_raw(&stream, level) == Z_OK else {
      output.deallocate()
      throw FileError.writeFailed(path: path, reason: "zlib could not start deflating")
    }
    var header: [UInt8] = []
    header.le32(0x0403_4B50)
    header.le16(45)  // version needed: 4.5, ZIP64
    header.le16(0x0808)  // sizes in a data descriptor; UTF-8 name
    header.le16(8)
    header.le16(0)  // time
    header.le16(0x21)  // date: 1980-01-01
    header.le32(0)
    header.le32(0)
    header.le32(0)
    header.le16(UInt16(name.count))
    header.le16(0)
    header.append(contentsOf: name)
    try emit(header)
  }

  deinit {
    deflateEnd(&stream)
    output.deallocate()
  }

  private func emit(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try writer.write($0) }
    offset += UInt64(bytes.count)
  }

  /// Adds `bytes` to the entry.
  public func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress, !raw.isEmpty else { return }
      crc = CZlib.crc32(crc, base.assumingMemoryBound(to: Bytef.self), UInt32(raw.count))
      size += UInt64(raw.count)
      stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
      stream.avail_in = UInt32(raw.count)
      try pump(Z_NO_FLUSH)
    }
  }

  private func pump(_ flush: Int32) throws {
    repeat {
      stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
      stream.avail_out = UInt32(output.count)
      let status = deflate(&stream, flush)
      guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
        throw FileError.writeFailed(path: writer.path, reason: "zlib failed to deflate (\(status))")
      }
      let count = output.count - Int(stream.avail_out)
      if count > 0 {
        try writer.write(UnsafeRawBufferPointer(rebasing: output[0..<count]))
        offset += UInt64(count)
        compressedSize += UInt64(count)
      }
      if status == Z_STREAM_END { return }
    } while stream.avail_out == 0 || (flush == Z_FINISH)
  }

  /// Ends the entry, writes the directory and puts the archive in place.
  public func finish() throws {
    guard !isFinished else { return }
    isFinished = true
    try pump(Z_FINISH)
    let zip64 =
      forcesZip64 || size >= 0xFFFF_FFFF || compressedSize >= 0xFFFF_FFFF
      || offset >= 0xFFFF_FFFF
    let crc32 = UInt32(truncatingIfNeeded: crc)
    var descriptor: [UInt8] = []
    descriptor.le32(0x0807_4B50)
    descriptor.le32(crc32)
    if zip64 {
      descriptor.le64(compressedSize)
      descriptor.le64(size)
    } else {
      descriptor.le32(UInt32(compressedSize))
      descriptor.le32(UInt32(size))
    }
    try emit(descriptor)
    let directoryOffset = offset
    var entry: [UInt8] = []
    entry.le32(0x0201_4B50)
    entry.le16(0x031E)  // made by: Unix, 3.0
    entry.le16(45)
    entry.le16(0x0808)
    entry.le16(8)
    entry.le16(0)
    entry.le16(0x21)
    entry.le32(crc32)
    entry.le32(zip64 ? 0xFFFF_FFFF : UInt32(compressedSize))
    entry.le32(zip64 ? 0xFFFF_FFFF : UInt32(size))
    entry.le16(UInt16(name.count))
    entry.le16(zip64 ? 28 : 0)
    entry.le16(0)
    entry.le16(0)
    entry.le16(0)
    entry.le32(0o100644 << 16)
    entry.le32(zip64 ? 0xFFFF_FFFF : 0)
    entry.append(contentsOf: name)
    if zip64 {
      entry.le16(0x0001)
      entry.le16(24)
      entry.le64(size)
      entry.le64(compressedSize)
      entry.le64(0)
    }
    try emit(entry)
    let directorySize = offset - directoryOffset
    var end: [UInt8] = []
    if zip64 {
      let recordOffset = offset
      end.le32(0x0606_4B50)
      end.le64(44)
      end.le16(0x031E)
      end.le16(45)
      end.le32(0)
      end.le32(0)
      end.le64(1)
      end.le64(1)
      end.le64(directorySize)
      end.le64(directoryOffset)
      end.le32(0x0706_4B50)
      end.le32(0)
      end.le64(recordOffset)
      end.le32(1)
    }
    end.le32(0x0605_4B50)
    end.le16(0)
    end.le16(0)
    end.le16(zip64 ? 0xFFFF : 1)
    end.le16(zip64 ? 0xFFFF : 1)
    end.le32(zip64 ? 0xFFFF_FFFF : UInt32(directorySize))
    end.le32(zip64 ? 0xFFFF_FFFF : UInt32(directoryOffset))
    end.le16(0)
    try emit(end)
    try writer.finish()
  }
}

extension [UInt8] {
  fileprivate mutating func le16(_ value: UInt16) {
    append(UInt8(value & 0xFF))
    append(UInt8(value >> 8))
  }
  fileprivate mutating func le32(_ value: UInt32) {
    le16(UInt16(value & 0xFFFF))
    le16(UInt16(value >> 16))
  }
  fileprivate mutating func le64(_ value: UInt64) {
    le32(UInt32(value & 0xFFFF_FFFF))
    le32(UInt32(value >> 32))
  }
}
