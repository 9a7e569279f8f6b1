import Foundation
import RoutineCore
import RoutineStore

/// The people of `--cohort PATH`, sorted by name, and where each one's events are read from: a
/// directory with a log per person, or one file with a person column, split by person first
/// (docs/cohort.md).
final class Cohort: Sendable {
  /// One person.
  struct Member: Sendable {
    /// The name: a file's name without its extension, or a person column's value.
    let name: String
    /// The files that name the person (more than one is an error).
    let files: [String]
    /// What to read: the person's file, or their part of a split cohort file.
    let readPath: String
    /// The part's index in the split, for a cohort file.
    let part: Int?
  }

  /// PATH as the user named it.
  let path: String
  /// The people, sorted by name (bytes of UTF-8, as `LC_ALL=C sort`).
  let members: [Member]
  /// A cohort file split by person; `nil` for a directory.
  let split: CohortSplit?
  /// What listing the directory skipped (its subdirectories).
  let warnings: [String]

  private init(path: String, members: [Member], split: CohortSplit?, warnings: [String]) {
    self.path = path
    self.members = members
    self.split = split
    self.warnings = warnings
  }

  /// The people of `path`: a directory's files, or one file split by `personColumn` (default
  /// `person`) into parts under `temporaryDirectory`. A missing path is a ``FileError`` (66);
  /// `--person-column` with a directory is a usage error.
  static func open(
    _ path: String, format: EventFileFormat?, personColumn: String?, command: String,
    temporaryDirectory: String
  ) throws -> Cohort {
    var status = stat()
    if path != "-" {
      guard stat(path, &status) == 0 else {
        throw FileError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
      }
    }
    guard path != "-", (status.st_mode & S_IFMT) == S_IFDIR else {
      let splitter = CohortFileSplitter(
        path: path, format: format, personColumn: personColumn ?? "person")
      let split = try splitter.split(temporaryDirectory: temporaryDirectory)
      let members = split.people.enumerated().map { index, person in
        Member(name: person.name, files: [path], readPath: person.path, part: index)
      }
      return Cohort(path: path, members: members, split: split, warnings: [])
    }
    if personColumn != nil {
      throw UsageError(
        "--person-column names the person column of a cohort file, and '\(path)' is a directory, "
          + "whose files name the people",
        command: command)
    }
    let entries: [String]
    do {
      entries = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      throw FileError.cannotOpen(path: path, reason: "cannot list the directory")
    }
    let prefix = path.hasSuffix("/") ? path : path + "/"
    var files: [String: [String]] = [:]
    var warnings: [String] = []
    // Hidden files (.DS_Store, an editor's swap file) are nobody's log.
    for entry in entries.sorted() where !entry.hasPrefix(".") {
      let file = prefix + entry
      var entryStatus = stat()
      if stat(file, &entryStatus) == 0, (entryStatus.st_mode & S_IFMT) == S_IFDIR {
        warnings.append("'\(file)' is a directory, not a person's log: skipped")
        continue
      }
      files[(entry as NSString).deletingPathExtension, default: []].append(file)
    }
    let members = files.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { name in
      Member(name: name, files: files[name]!, readPath: files[name]![0], part: nil)
    }
    return Cohort(path: path, members: members, split: nil, warnings: warnings)
  }

  /// How messages name `member`: `person 'p17'`.
  static func label(_ member: Member) -> String { "person '\(member.name)'" }

  /// The sentence for an error of `member`: `person 'p17' ('cohort/p17.csv') line 12: expected
  /// ...`, with the line of the original file for a part of a split cohort file.
  func describe(_ error: any Error, of member: Member) -> (ExitCode, String) {
    if let format = error as? FormatError {
      let (file, line) = located(format, of: member)
      return (
        .dataError, "\(Self.label(member)) (\(displayName(file))) line \(line): \(format.message)"
      )
    }
    var (code, message) = ErrorReport.describe(error)
    if let split {
      // A part is routine's own file: what the user knows is the cohort file.
      message = message.replacingOccurrences(of: member.readPath, with: split.source)
    }
    return (code, "\(Self.label(member)): \(message)")
  }

  /// The file and line `error` names, in the user's terms: for a part of a split cohort file,
  /// the cohort file and the line the record came from.
  func located(_ error: FormatError, of member: Member) -> (file: String, line: Int) {
    guard let split, let part = member.part else { return (error.file, error.line) }
    return (split.source, split.originalLine(person: part, line: error.line) ?? error.line)
  }

  /// Frees what reading `member` needed: their part of a split cohort file.
  func finished(_ member: Member) {
    if let split, let part = member.part { split.removePart(person: part) }
  }

  /// Removes what splitting a cohort file wrote (the parts left, where their lines came from).
  func close() {
    split?.remove()
  }
}
