#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file-system operations routine needs, on POSIX calls: Foundation's path helpers crash
/// on one-character paths on Linux, and its file creation cannot set a mode atomically.
public enum FileSystem {
  /// What is at a path.
  public enum Kind: Equatable, Sendable {
    /// Nothing (or a dangling symbolic link).
    case missing
    /// A regular file (after following symbolic links).
    case regularFile
    /// A directory.
    case directory
    /// Anything else: a device, a pipe, a socket.
    case other
  }

  /// What `path` names, following symbolic links.
  public static func kind(of path: String) -> Kind {
    var status = stat()
    guard stat(path, &status) == 0 else { return .missing }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return .regularFile
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  /// Whether anything is at `path`, a dangling symbolic link included.
  public static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// The size in bytes of what `path` names (following symbolic links), or `nil`.
  public static func size(of path: String) -> Int64? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int64(status.st_size)
  }

  /// The directory part of `path`: `""` for a bare file name, `/` for a file at the root.
  public static func parent(of path: String) -> String {
    var text = Substring(path)
    while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
    guard let slash = text.lastIndex(of: "/") else { return "" }
    let parent = text[..<slash]
    return parent.isEmpty ? "/" : String(parent)
  }

  /// `name` in `directory` (as `parent(of:)` gives it: `""` is the current directory).
  public static func path(_ name: String, in directory: String) -> String {
    directory.isEmpty ? name : directory == "/" ? "/" + name : directory + "/" + name
  }

  /// The hidden name beside `path` that a file is built under before it takes `path`'s place:
  /// `dir/.name.suffix`.
  public static func hiddenSibling(of path: String, suffix: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    return FileSystem.path(".\(name).\(suffix)", in: parent(of: path))
  }

  /// The error message of `errno`.
  public static func errorText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
  }

  /// Creates `directory` and any missing parents with `mode` (only the ones created get it).
  /// Throws the `strerror` text on failure.
  public static func createDirectories(_ directory: String, mode: mode_t) throws(FileSystemFailure)
  {
    guard !directory.isEmpty, kind(of: directory) != .directory else { return }
    let parent = parent(of: directory)
    if !parent.isEmpty, parent != directory { try createDirectories(parent, mode: mode) }
    if mkdir(directory, mode) != 0, errno != EEXIST {
      throw FileSystemFailure(path: directory, reason: errorText())
    }
    if kind(of: directory) != .directory {
      throw FileSystemFailure(path: directory, reason: "it exists and is not a directory")
    }
  }

  /// The bytes of `path` (`-` is standard input), read through to the end, or `nil` when there
  /// are more than `limit`: memory stays bounded whatever is given (a pipe without end,
  /// `/dev/zero`), and pipes and devices read like files.
  public static func contents(of path: String, limit: Int) throws(FileError) -> [UInt8]? {
    let descriptor = path == "-" ? dup(0) : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: errorText()) }
    defer { close(descriptor) }
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw .cannotOpen(path: path, reason: "it is a directory")
    }
    var bytes: [UInt8] = []
    // A regular file's size is known: one allocation of it, not doublings up to twice as much.
    if status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 {
      bytes.reserveCapacity(min(Int(status.st_size), limit) + 1)
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .readFailed(path: path, reason: errorText())
      }
      if count == 0 { return bytes }
      guard bytes.count + count <= limit else { return nil }
      bytes += chunk[..<count]
    }
  }

  /// Creates the empty file `path` with `mode` unless something is already there; returns
  /// whether it created it.
  @discardableResult
  public static func createFile(_ path: String, mode: mode_t) throws(FileSystemFailure) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      if errno == EEXIST { return false }
      throw FileSystemFailure(path: path, reason: errorText())
    }
    close(descriptor)
    return true
  }
}

/// A file-system call that failed: which path, and the system's reason.
public struct FileSystemFailure: Error, Sendable {
  /// The path the call was about.
  public var path: String
  /// The `strerror` text.
  public var reason: String
}
