#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
#if os(Linux)
  import CSystem
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
    /// Anything else: a device, a pipe, a socket, or a file of the kernel's (`/proc/self/mem`,
    /// which `stat` calls regular).
    case other
  }

  /// What `path` names, following symbolic links.
  public static func kind(of path: String) -> Kind {
    var status = stat()
    guard stat(path, &status) == 0 else { return .missing }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return kernelFileSystem(of: path) == nil ? .regularFile : .other
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  /// What `path` names when it is no regular file (``Kind/other``), for messages: "a character
  /// device", "a file of the kernel's proc file system".
  public static func describe(_ path: String) -> String {
    var status = stat()
    guard stat(path, &status) == 0 else { return "missing" }
    switch status.st_mode & S_IFMT {
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFIFO: return "a named pipe"
    case S_IFSOCK: return "a socket"
    case S_IFDIR: return "a directory"
    default:
      return kernelFileSystem(of: path).map { "a file of the kernel's \($0) file system" }
        ?? "a regular file"
    }
  }

  /// The name of the kernel's file system `path` lies on (`proc`, `sysfs`, ...), whose files
  /// `stat` calls regular but which hold no data of their own: they show the kernel's state.
  static func kernelFileSystem(of path: String) -> String? {
    #if os(Linux)
      var status = statfs()
      guard statfs(path, &status) == 0 else { return nil }
      // The magic numbers of linux/magic.h.
      switch UInt32(truncatingIfNeeded: status.f_type) {
      case 0x9FA0: return "proc"
      case 0x6265_6572: return "sysfs"
      case 0x6462_6720: return "debugfs"
      case 0x7472_6163: return "tracefs"
      case 0x7363_6673: return "securityfs"
      case 0xF97C_FF8C: return "selinuxfs"
      case 0x0027_E0EB, 0x6367_7270: return "cgroup"
      case 0x6265_6570: return "configfs"
      case 0xCAFE_4A11: return "bpf"
      case 0xDE5E_81E4: return "efivarfs"
      case 0x6165_676C: return "pstore"
      default: return nil
      }
    #else
      return nil
    #endif
  }

  /// Whether anything is at `path`, a dangling symbolic link included.
  public static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Whether `path` itself (not a symbolic link to it) is a regular file of no bytes, and not
  /// one of the kernel's (whose files all say they are empty).
  public static func isEmptyFile(_ path: String) -> Bool {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0
    else { return false }
    return kernelFileSystem(of: path) == nil
  }

  /// The device and inode of what `path` names (following symbolic links), or `nil`: the same
  /// file under two spellings of its path has one identity.
  public static func identity(of path: String) -> FileIdentity? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
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

  /// Removes the hidden temporary files `hiddenSibling(of: path, suffix: "\(tag)-PID")` (and
  /// `extensions` of them, such as SQLite's `-wal`) that a run killed before it finished left
  /// behind: only regular files of this user whose process `PID` is gone. A live process's file
  /// is its work in progress, and a process id reused since is taken as alive: the file then
  /// waits for a later run.
  public static func removeStaleTemporaries(
    of path: String, tag: String, extensions: [String] = [""]
  ) {
    let directory = parent(of: path)
    let prefix = String(hiddenSibling(of: path, suffix: tag + "-").split(separator: "/").last!)
    guard let stream = opendir(directory.isEmpty ? "." : directory) else { return }
    defer { closedir(stream) }
    var stale: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      guard name.hasPrefix(prefix) else { continue }
      let rest = name.dropFirst(prefix.count)
      guard
        let suffix = extensions.sorted(by: { $0.count > $1.count }).first(where: {
          rest.hasSuffix($0)
        }),
        let pid = Int32(rest.dropLast(suffix.count)), pid > 0, pid != getpid(),
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      stale.append(FileSystem.path(name, in: directory))
    }
    for file in stale {
      var status = stat()
      guard lstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        status.st_uid == getuid()
      else { continue }
      unlink(file)
    }
  }

  /// The directory the file system holding `path` is mounted at: the highest directory above
  /// it (symbolic links resolved) on the same device. `path` itself when it cannot be told.
  public static func mountPoint(of path: String) -> String {
    guard let resolved = realpath(path.isEmpty ? "." : path, nil) else { return path }
    var current = String(cString: resolved)
    free(resolved)
    var status = stat()
    guard stat(current, &status) == 0 else { return current }
    let device = status.st_dev
    while current != "/" {
      let above = parent(of: current)
      guard stat(above, &status) == 0, status.st_dev == device else { break }
      current = above
    }
    return current
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
    try EventStore.refuseOpenStore(path)
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

  /// Creates the empty file `path` with exactly `mode`, whatever the umask, unless something is
  /// already there; returns whether it created it.
  ///
  /// The file is created with `mode` under the umask, so it is never more open than `mode`
  /// from its first moment, and then given `mode` itself (a umask of 0277 would leave a store
  /// its owner cannot write).
  @discardableResult
  public static func createFile(_ path: String, mode: mode_t) throws(FileSystemFailure) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      if errno == EEXIST { return false }
      throw FileSystemFailure(path: path, reason: errorText())
    }
    defer { close(descriptor) }
    guard fchmod(descriptor, mode) == 0 else {
      let reason = errorText()
      unlink(path)
      throw FileSystemFailure(path: path, reason: reason)
    }
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

/// A file's identity: its device and inode.
public struct FileIdentity: Hashable, Sendable {
  /// The device the file lies on.
  public var device: UInt64
  /// The file's inode on that device.
  public var inode: UInt64
}
