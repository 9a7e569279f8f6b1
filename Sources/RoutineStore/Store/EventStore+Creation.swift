#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension EventStore {
  /// Creates the store at `path` from what `body` writes to it, and returns what `body` returned;
  /// `nil` when something is already at `path` (open it instead).
  ///
  /// The store is built beside `path` under a hidden name and linked into place only once
  /// `body` has returned and `keep` accepts its result, so a command that fails on a fresh
  /// install leaves no store behind, not even an empty one that would pin the locale of that
  /// run. Runs creating the same store at the same time take turns on a lock of its directory;
  /// the later ones find the first one's store and get `nil`.
  ///
  /// An empty file at `path` (`: > routine.db`) is no store yet either: the new store is renamed
  /// over it, as complete, on the same terms.
  public static func create<T>(
    at path: String, keep: (T) -> Bool = { _ in true }, _ body: (EventStore) throws -> T
  ) throws -> T? {
    if path.hasSuffix("/") { throw StoreError.isDirectory(path: path) }
    let directory = FileSystem.parent(of: path)
    do {
      try FileSystem.createDirectories(directory, mode: 0o700)
    } catch {
      throw StoreError.cannotCreateDirectory(path: error.path, reason: error.reason)
    }
    let lock = DirectoryLock(directory.isEmpty ? "." : directory)
    defer { lock.release() }
    // Anything there but an empty file, even a dangling link, is for the usual opening to deal
    // with.
    let replacing = FileSystem.isEmptyFile(path)
    guard replacing || !FileSystem.exists(path) else { return nil }
    let temporary = FileSystem.hiddenSibling(of: path, suffix: "creating")
    // A leftover of a run that was killed: the lock says nobody is building it now.
    removeTemporary(temporary)
    do {
      let value: T
      do {
        let store = try EventStore(path: temporary, creating: true)
        value = try body(store)
        guard keep(value) else {
          removeTemporary(temporary)
          return value
        }
        // One self-contained file, still in WAL mode: the log belongs to the temporary name, so
        // all of it goes into the main file first.
        guard try store.connection.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)") == 0 else {
          throw StoreError.cannotCreateFile(
            path: path, reason: "its new contents could not be moved out of the write-ahead log")
        }
      }
      if replacing {
        // Only what was there: an empty file that stayed empty (no other program wrote to it).
        guard FileSystem.isEmptyFile(path) else {
          throw StoreError.cannotCreateFile(
            path: path, reason: "it was an empty file, and something else wrote to it meanwhile")
        }
        guard rename(temporary, path) == 0 else {
          throw StoreError.cannotCreateFile(path: path, reason: FileSystem.errorText())
        }
      } else {
        guard link(temporary, path) == 0 else {
          throw StoreError.cannotCreateFile(path: path, reason: FileSystem.errorText())
        }
      }
      removeTemporary(temporary)
      lock.synchronize()
      return value
    } catch let error as StoreError {
      removeTemporary(temporary)
      // The store the user named, not the hidden name it was being built under.
      throw error.naming(path, insteadOf: temporary)
    } catch {
      removeTemporary(temporary)
      throw error
    }
  }

  private static func removeTemporary(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
  }

  /// Removes the hidden name a new store at `path` was built under when a run was killed after
  /// linking the store into place and before removing it (a second name of the store, which
  /// nothing else would ever remove). Only when nobody holds the directory's lock: a run
  /// creating the store holds it until its hidden name is gone.
  static func removeStaleCreation(of path: String) {
    let temporary = FileSystem.hiddenSibling(of: path, suffix: "creating")
    guard FileSystem.exists(temporary) else { return }
    let directory = FileSystem.parent(of: path)
    guard let lock = DirectoryLock(ifFree: directory.isEmpty ? "." : directory) else { return }
    defer { lock.release() }
    removeTemporary(temporary)
  }
}

/// An exclusive `flock` on a directory, for the few steps that must not interleave with another
/// process's (creating a store). Where the directory cannot be opened, there is no lock, and
/// `link`'s refusal to replace a file is the only guard.
private struct DirectoryLock {
  private let descriptor: Int32

  init(_ directory: String) {
    descriptor = open(directory, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
  }

  /// The lock when nobody holds it now; `nil` when another process does, or the directory
  /// cannot be opened.
  init?(ifFree directory: String) {
    descriptor = open(directory, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      return nil
    }
  }

  /// Makes the directory's new entry durable.
  func synchronize() {
    if descriptor >= 0 { fsync(descriptor) }
  }

  func release() {
    if descriptor >= 0 { close(descriptor) }
  }
}
