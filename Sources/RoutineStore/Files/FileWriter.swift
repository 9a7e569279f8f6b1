#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file the way a careful user expects:
///
/// - a regular file (or a new one) is replaced atomically: the text goes to a temporary file
///   beside it, is flushed to disk, and is renamed over the target only when complete, so an
///   interrupted or failed run leaves the old file as it was; the old file's permissions are
///   kept;
/// - a symbolic link is written through: its target is replaced, the link stays;
/// - a name of one of the process's own descriptors (`/dev/stdout`, `/dev/fd/1`,
///   `/proc/self/fd/1`) is that descriptor, written as it is (appending if the shell appends);
/// - anything else (a named pipe, a device) is written to directly.
///
/// A new file gets the mode it is asked for, under the umask: 0666 (any file's) by default,
/// 0600 for the user's own data (a definitions export holds what the store, 0600, holds).
///
/// Every failed write (a full disk) is an error, never dropped.
public final class FileWriter {
  /// The path as the user named it (for messages).
  public let path: String
  private let descriptor: Int32
  /// The file the text is renamed onto, and the temporary file it is written to, for an atomic
  /// replace; `nil` when writing directly.
  private let replacement: (target: String, temporary: String)?
  private var isFinished = false

  /// Opens `path` for writing; a new file is created with `newFileMode` (under the umask), a
  /// replaced one keeps its own mode.
  public init(path: String, newFileMode: mode_t = 0o666) throws(FileError) {
    self.path = path
    let (target, descriptorName) = FileWriter.follow(path)
    if let descriptorName {
      // `/dev/stdout`, `/dev/fd/2`, `/proc/self/fd/1`: the process's own open file. Writing to
      // a copy of the descriptor keeps what the shell set up (`>> log` appends); opening the
      // file anew would truncate it or, replaced atomically, lose what it held.
      let descriptor = dup(descriptorName)
      guard descriptor >= 0 else {
        throw .writeFailed(path: path, reason: FileSystem.errorText())
      }
      self.descriptor = descriptor
      replacement = nil
      return
    }
    // Links followed as far as they go still name a link: a loop, never to be replaced by a file.
    if FileSystem.exists(target), FileSystem.kind(of: target) == .missing {
      throw .writeFailed(path: path, reason: "too many levels of symbolic links")
    }
    switch FileSystem.kind(of: target) {
    case .directory:
      throw .writeFailed(path: path, reason: "it is a directory")
    case .other:
      let descriptor = open(target, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw .writeFailed(path: path, reason: FileSystem.errorText())
      }
      self.descriptor = descriptor
      replacement = nil
    case .missing, .regularFile:
      // A run killed while writing this file left its temporary copy (an export holds what the
      // store holds); its process is gone, so nobody else will remove it.
      FileSystem.removeStaleTemporaries(of: target, tag: "tmp")
      let temporary = FileSystem.hiddenSibling(of: target, suffix: "tmp-\(getpid())")
      // `newFileMode` under the umask; an existing file's own mode replaces it below.
      let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, newFileMode)
      guard descriptor >= 0 else {
        throw .writeFailed(path: path, reason: FileSystem.errorText())
      }
      var existing = stat()
      if stat(target, &existing) == 0 { fchmod(descriptor, existing.st_mode & 0o7777) }
      self.descriptor = descriptor
      replacement = (target, temporary)
    }
  }

  /// Follows `path`'s symbolic links to what they finally name, stopping early at a name of one
  /// of the process's descriptors (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`), whose number
  /// is then returned.
  static func follow(_ path: String) -> (target: String, descriptor: Int32?) {
    var current = path
    for _ in 0..<40 {
      if let descriptor = descriptorNumber(current) { return (current, descriptor) }
      var buffer = [CChar](repeating: 0, count: 4097)
      let count = readlink(current, &buffer, 4096)
      guard count > 0 else { return (current, nil) }
      let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if link.hasPrefix("/") {
        current = link
      } else {
        current = FileSystem.path(link, in: FileSystem.parent(of: current))
      }
    }
    return (current, nil)
  }

  /// The descriptor a path names: `/dev/stdout` is 1, `/dev/stderr` 2, `/dev/fd/N` and
  /// `/proc/self/fd/N` (or this process's own number instead of `self`) are N.
  static func descriptorNumber(_ path: String) -> Int32? {
    switch path {
    case "/dev/stdin": return 0
    case "/dev/stdout": return 1
    case "/dev/stderr": return 2
    default: break
    }
    for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"]
    where path.hasPrefix(prefix) {
      return Int32(path.dropFirst(prefix.count))
    }
    return nil
  }

  deinit {
    close(descriptor)
    if !isFinished, let replacement { unlink(replacement.temporary) }
  }

  /// Writes `text` as UTF-8, completely, or throws.
  public func write(_ text: String) throws(FileError) {
    var text = text
    let code = text.withUTF8 { bytes in
      writeAll(UnsafeRawBufferPointer(bytes))
    }
    if code != 0 { throw .writeFailed(path: path, reason: FileSystem.errorText(code)) }
  }

  /// Writes `bytes` completely, or throws: for output built as bytes (an export).
  public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    let code = writeAll(bytes)
    if code != 0 { throw .writeFailed(path: path, reason: FileSystem.errorText(code)) }
  }

  /// Writes every byte; returns 0, or the `errno` of the failure.
  private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return 0
  }

  /// Completes the file: for an atomic replace, flushes it to disk and renames it into place.
  public func finish() throws(FileError) {
    guard let replacement else {
      isFinished = true
      return
    }
    guard fsync(descriptor) == 0 else {
      throw .writeFailed(path: path, reason: FileSystem.errorText())
    }
    guard rename(replacement.temporary, replacement.target) == 0 else {
      throw .writeFailed(path: path, reason: FileSystem.errorText())
    }
    isFinished = true
  }
}

/// `write(2)`, callable from a type that has a `write` method of its own.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
