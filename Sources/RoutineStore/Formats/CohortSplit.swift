import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One cohort file split by ``CohortFileSplitter``: a file per person in a private temporary
/// directory, each read as `--log` reads a file, and where each of its lines came from. The
/// directory and everything in it go when the split is released.
public final class CohortSplit: @unchecked Sendable {
  /// One person of the file.
  public struct Person: Sendable {
    /// The name the person column gives.
    public let name: String
    /// The person's part of the file: routine's own CSV header (without the person column) or
    /// JSON Lines, the records in the order the file has them.
    public let path: String
    /// Records in the part.
    public let records: Int
    /// Where the part's line numbers are in the line map: runs of entries, in order.
    let blocks: [Block]
  }

  /// A run of the line map: `count` entries from byte `offset`, each the original line (an
  /// `Int64`) of one line of a part.
  struct Block: Sendable {
    var offset: Int64
    var count: Int
  }

  /// The file that was split, as the user named it.
  public let source: String
  /// Its format.
  public let format: EventFileFormat
  /// The people, sorted by name (bytes of UTF-8, as `LC_ALL=C sort`).
  public let people: [Person]
  /// Records that name no person (an empty person field, a line that is no record), in file
  /// order; the first ``maximumUnassigned`` of them.
  public let unassigned: [FormatError]
  /// How many records named no person, all told.
  public let unassignedCount: Int
  /// The most records without a person kept for messages.
  public static let maximumUnassigned = 100

  /// The temporary directory holding the parts and the line map.
  let directory: String
  private let lineMap: Int32

  init(
    source: String, format: EventFileFormat, people: [Person], unassigned: [FormatError],
    unassignedCount: Int, directory: String, lineMap: Int32
  ) {
    self.source = source
    self.format = format
    self.people = people
    self.unassigned = unassigned
    self.unassignedCount = unassignedCount
    self.directory = directory
    self.lineMap = lineMap
  }

  private let removal = NSLock()
  private var isRemoved = false

  deinit { remove() }

  /// Removes the parts, the line map and their directory (once the people have been read);
  /// ``originalLine(person:line:)`` knows no line after it.
  public func remove() {
    removal.lock()
    defer { removal.unlock() }
    guard !isRemoved else { return }
    isRemoved = true
    close(lineMap)
    for person in people { unlink(person.path) }
    unlink(directory + "/" + CohortFileSplitter.lineMapName)
    rmdir(directory)
  }

  /// The line of the original file that line `line` of person `index`'s part came from; `nil`
  /// when the part has no such line.
  public func originalLine(person index: Int, line: Int) -> Int? {
    guard people.indices.contains(index), line >= 1 else { return nil }
    removal.lock()
    defer { removal.unlock() }
    guard !isRemoved else { return nil }
    var remaining = line - 1
    for block in people[index].blocks {
      guard remaining >= block.count else {
        var value: Int64 = 0
        let read = pread(lineMap, &value, 8, off_t(block.offset + Int64(remaining) * 8))
        return read == 8 ? Int(value) : nil
      }
      remaining -= block.count
    }
    return nil
  }

  /// Removes person `index`'s part (once it has been read), freeing its disk space early.
  public func removePart(person index: Int) {
    guard people.indices.contains(index) else { return }
    unlink(people[index].path)
  }
}
