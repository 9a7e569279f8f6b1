import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file, or a byte range of it, in large chunks into one growable buffer, so that a
/// parser can look at complete records without loading the whole file: memory stays at the chunk
/// size whatever the file size.
///
/// Owned by one thread at a time (a parallel read gives each half its own).
final class ChunkedFile: @unchecked Sendable {
  static let chunkSize = 1 << 20

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
  /// The file's size in bytes.
  let size: Int64

  /// Opens `path` for reading.
  init(path: String) throws(FileError) {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw .cannotOpen(path: path, reason: "it is a directory")
    }
    self.descriptor = descriptor
    self.path = path
    size = Int64(status.st_size)
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

  /// Reads more bytes after the unread ones, moving them to the front (and growing the buffer when
  /// a single record fills it). Returns `false` at the end of the file.
  func fill() throws(FileError) -> Bool {
    if isAtEnd { return false }
    if start > 0 {
      let count = end - start
      if count > 0 {
        buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: count)
      }
      start = 0
      end = count
    }
    if end == buffer.count {
      let larger = UnsafeMutableRawBufferPointer.allocate(
        byteCount: buffer.count * 2, alignment: 16)
      larger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
      buffer.deallocate()
      buffer = larger
    }
    while true {
      let wanted = Int(min(Int64(buffer.count - end), limit - offset))
      guard wanted > 0 else {
        isAtEnd = true
        return false
      }
      let count = pread(descriptor, buffer.baseAddress! + end, wanted, off_t(offset))
      if count < 0 {
        if errno == EINTR { continue }
        throw .readFailed(path: path, reason: String(cString: strerror(errno)))
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
