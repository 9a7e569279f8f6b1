import CZlib
import Foundation

/// Streams one entry of a ZIP archive: inflates it (raw deflate, zlib's `inflate`) or copies it
/// (stored), and checks its CRC-32 and size at the end. Memory is two fixed buffers, whatever
/// the entry expands to: a deflate bomb is read at the speed of zlib, never held.
final class ZipEntryReader: ByteSource {
  private let archive: ZipArchive
  private let entry: ZipArchive.Entry
  private var offset: Int64
  private var remaining: UInt64
  private var produced: UInt64 = 0
  private var crc: UInt = 0
  private var stream = z_stream()
  private var isInflating = false
  private var isFinished = false
  private let input: UnsafeMutableRawBufferPointer
  private static let inputSize = 256 << 10

  /// The name used in messages: `'export.zip' (apple_health_export/export.xml)`.
  var file: String { archive.file.path }

  init(archive: ZipArchive, entry: ZipArchive.Entry) throws {
    self.archive = archive
    self.entry = entry
    guard entry.method == 0 || entry.method == 8 else {
      throw ArchiveError(
        file: archive.file.path,
        message:
          "expected '\(entry.name)' stored or deflated, found compression method \(entry.method)"
      )
    }
    guard entry.flags & 1 == 0 else {
      throw ArchiveError(
        file: archive.file.path, message: "expected '\(entry.name)' unencrypted, found it encrypted"
      )
    }
    offset = try archive.dataOffset(of: entry)
    remaining = entry.compressedSize
    input = .allocate(byteCount: Self.inputSize, alignment: 16)
    if entry.method == 8 {
      guard czlib_inflate_init_raw(&stream) == Z_OK else {
        input.deallocate()
        throw ArchiveError(file: archive.file.path, message: "zlib could not start inflating")
      }
      isInflating = true
    }
  }

  deinit {
    if isInflating { inflateEnd(&stream) }
    input.deallocate()
  }

  private func damaged(_ what: String) -> ArchiveError {
    ArchiveError(
      file: archive.file.path,
      message: "'\(entry.name)' is damaged: \(what); download or copy the export again")
  }

  /// Reads up to `count` compressed bytes into the input buffer.
  private func readInput() throws -> Int {
    let wanted = Int(min(UInt64(Self.inputSize), remaining))
    guard wanted > 0 else { return 0 }
    let got = try archive.file.read(
      into: UnsafeMutableRawBufferPointer(rebasing: input[0..<wanted]), at: offset)
    offset += Int64(got)
    remaining -= UInt64(got)
    if got < wanted, remaining > 0 {
      throw damaged("the archive ends \(remaining) bytes early (cut short?)")
    }
    return got
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    if isFinished { return 0 }
    var count = 0
    if entry.method == 0 {
      let wanted = Int(min(UInt64(buffer.count), remaining))
      if wanted > 0 {
        count = try archive.file.read(
          into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
        offset += Int64(count)
        remaining -= UInt64(count)
        if count < wanted {
          throw damaged("the archive ends \(remaining) bytes early (cut short?)")
        }
      }
      if remaining == 0 { isFinished = true }
    } else {
      stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
      stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
      while stream.avail_out > 0 {
        if stream.avail_in == 0 {
          let got = try readInput()
          stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
          stream.avail_in = UInt32(got)
        }
        let status = inflate(&stream, Z_NO_FLUSH)
        if status == Z_STREAM_END {
          isFinished = true
          break
        }
        if status == Z_BUF_ERROR, stream.avail_in == 0, remaining == 0 {
          throw damaged("its compressed data ends too early (cut short?)")
        }
        guard status == Z_OK || status == Z_BUF_ERROR else {
          let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
          throw damaged("inflating it failed (\(reason))")
        }
      }
      count = buffer.count - Int(stream.avail_out)
    }
    produced += UInt64(count)
    if count > 0 {
      crc = CZlib.crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), UInt32(count))
    }
    if produced > entry.size {
      throw damaged("it holds more than the \(entry.size) bytes its directory entry gives")
    }
    if isFinished {
      guard produced == entry.size else {
        throw damaged("it holds \(produced) bytes, its directory entry says \(entry.size)")
      }
      guard UInt32(truncatingIfNeeded: crc) == entry.crc else {
        throw damaged("its CRC-32 does not match")
      }
    }
    return count
  }
}
