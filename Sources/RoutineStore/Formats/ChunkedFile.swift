import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file, or a byte range of it, in large chunks into one buffer, so that a parser can
/// look at complete records without loading the whole file: memory stays at the chunk size
/// whatever the file size. A record longer than the buffer is an error
/// (``ChunkedFile/RecordTooLong``), not a reason to grow: a file without line breaks
/// (`/dev/zero`) must not take all memory.
///
/// Reads regular files with `pread` (so that a parallel read can split them), and anything else
/// (standard input as `-`, a pipe, a device) sequentially.
///
/// Owned by one thread at a time (a parallel read gives each half its own).
final class ChunkedFile: @unchecked Sendable {
  /// The buffer's size, and so the longest record: 1 MiB.
  static let chunkSize = 1 << 20

  /// A record does not fit in the buffer.
  struct RecordTooLong: Error {}

  private let descriptor: Int32
  let path: String
  private(set) var buffer: UnsafeMutableRawBufferPointer
  /// Bytes `start..<end` of the buffer are unread by the parser.
  var start = 0
  private(set) var end = 0
  private(set) var isAtEnd = false
  /// The file offset of the next byte to read.
  private var offset: Int64 = 0
  /// Where reading stops (the file size, or the end of a part).
  private var limit: Int64 = .max
  /// The file's size in bytes (0 when it is not a regular file).
  let size: Int64
  /// Whether the file can be read at any offset (a regular file).
  let isSeekable: Bool

  /// Opens an input file (`-`: standard input) for reading, with its status: refuses the store
  /// itself (reading it outside SQLite would drop the store's locks) and a directory.
  static func openInput(_ path: String) throws(FileError) -> (descriptor: Int32, status: stat) {
    try EventStore.refuseOpenStore(path)
    let descriptor = path == "-" ? dup(0) : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw .cannotOpen(path: path, reason: reason)
    }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw .cannotOpen(path: path, reason: "it is a directory")
    }
    return (descriptor, status)
  }

  /// Opens `path` for reading; `-` is standard input.
  init(path: String) throws(FileError) {
    let (descriptor, status) = try ChunkedFile.openInput(path)
    self.descriptor = descriptor
    self.path = path
    isSeekable = (status.st_mode & S_IFMT) == S_IFREG
    size = isSeekable ? Int64(status.st_size) : 0
    buffer = .allocate(byteCount: ChunkedFile.chunkSize, alignment: 16)
  }

  /// Restricts reading to the bytes `range` of the file (discarding anything buffered).
  func restrict(to range: Range<Int64>) {
    offset = range.lowerBound
    limit = range.upperBound
    start = 0
    end = 0
    isAtEnd = false
  }

  /// Lets reading continue to the end of the file after a ``restrict(to:)``.
  func extendToEnd() {
    limit = .max
    isAtEnd = false
  }

  /// The file offset of the first unread byte.
  var unreadOffset: Int64 { offset - Int64(end - start) }

  deinit {
    close(descriptor)
    buffer.deallocate()
  }

  /// The unread bytes.
  var unread: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[start..<end]) }

  /// Reads more bytes after the unread ones, moving them to the front. Returns `false` at the end
  /// of the file; throws ``RecordTooLong`` when the unread bytes already fill the buffer (one
  /// record longer than ``chunkSize``).
  func fill() throws -> Bool {
    if isAtEnd { return false }
    if start > 0 {
      let count = end - start
      if count > 0 {
        buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: count)
      }
      start = 0
      end = count
    }
    if end == buffer.count { throw RecordTooLong() }
    while true {
      let wanted = Int(min(Int64(buffer.count - end), limit - offset))
      guard wanted > 0 else {
        isAtEnd = true
        return false
      }
      let count =
        isSeekable
        ? pread(descriptor, buffer.baseAddress! + end, wanted, off_t(offset))
        : read(descriptor, buffer.baseAddress! + end, wanted)
      if count < 0 {
        if errno == EINTR { continue }
        throw FileError.readFailed(path: path, reason: String(cString: strerror(errno)))
      }
      if count == 0 {
        isAtEnd = true
        return false
      }
      end += count
      offset += Int64(count)
      return true
    }
  }
}

extension UnsafeRawBufferPointer {
  /// The line that starts at `offset` in this window of a file, without its `\n` (or `\r\n`),
  /// and the offset after it; `nil` at the end of the window, or when the line is incomplete
  /// and more of the file is to come (`atEnd` false: the caller reads more first). At the end
  /// of the file a last line without `\n` is a line.
  @inline(__always)
  func line(from offset: Int, atEnd: Bool) -> (content: UnsafeRawBufferPointer, next: Int)? {
    guard offset < count else { return nil }
    let rest = UnsafeRawBufferPointer(rebasing: self[offset...])
    var length = rest.firstIndex(of: 0x0A)
    if length == nil {
      guard atEnd else { return nil }
      length = rest.count
    }
    var content = UnsafeRawBufferPointer(rebasing: rest[..<length!])
    if content.last == 0x0D { content = UnsafeRawBufferPointer(rebasing: content.dropLast()) }
    return (content, offset + Swift.min(length! + 1, rest.count))
  }
}
