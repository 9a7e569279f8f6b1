import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stream of bytes read in pieces: a file, standard input, or an entry of a ZIP archive
/// being inflated.
protocol ByteSource: AnyObject {
  /// Fills the front of `buffer`; returns how many bytes, 0 at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A file (or standard input, `-`) read sequentially.
final class FileByteSource: ByteSource {
  let path: String
  let descriptor: Int32
  /// Whether it is a regular file (which a ZIP archive must be: its directory is at the end).
  let isRegularFile: Bool

  /// Opens `path` for reading; refuses the store itself, as every import does.
  init(path: String) throws(FileError) {
    let (descriptor, status) = try ChunkedFile.openInput(path)
    self.path = path
    self.descriptor = descriptor
    isRegularFile = (status.st_mode & S_IFMT) == S_IFREG
  }

  deinit { close(descriptor) }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    while true {
      let count = systemRead(descriptor, buffer.baseAddress!, buffer.count)
      if count >= 0 { return count }
      if errno == EINTR { continue }
      throw FileError.readFailed(path: path, reason: String(cString: strerror(errno)))
    }
  }

  /// Reads exactly `buffer.count` bytes at `offset` (or fewer at the end of the file).
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
    var done = 0
    while done < buffer.count {
      let count = pread(
        descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + Int64(done)))
      if count < 0 {
        if errno == EINTR { continue }
        throw FileError.readFailed(path: path, reason: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      done += count
    }
    return done
  }

  /// The file's size in bytes.
  func size() -> Int64 {
    var status = stat()
    return fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
  }
}

/// `read(2)`, callable from a type that has a `read` method of its own.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int
{
  read(descriptor, bytes, count)
}
