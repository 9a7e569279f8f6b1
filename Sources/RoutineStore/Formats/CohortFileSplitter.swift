import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits one event file that holds several people's events (a CSV `person` column, a JSON Lines
/// `person` key) into one file per person, so that each person's events are read exactly as
/// `--log` reads a file of them (docs/cohort.md).
///
/// One streaming pass: each record goes to its person's buffer (a CSV record without its person
/// field, a JSON Lines record as it is), and when the buffers together pass ``bufferBytes``
/// every one is appended to its person's file in a private temporary directory. Memory stays at
/// that budget plus a few dozen bytes per person, whatever the file's size or order (sorted by
/// person, by time, or neither); the disk holds about the file's size meanwhile. Where each line
/// of a part came from is written beside the parts, so that an error in a part names the line
/// of the original file.
public struct CohortFileSplitter: Sendable {
  /// The file, as the user named it (`-` is standard input).
  public let path: String
  /// The format, or `nil` to guess it from the extension and then the content, as `--log` does.
  public let format: EventFileFormat?
  /// The CSV column or JSON key naming the person (matched ignoring case in a CSV header).
  public let personColumn: String
  /// How many bytes the buffers may hold before they are written out.
  public var bufferBytes = 16 << 20

  /// The line map's file name in the temporary directory.
  static let lineMapName = "lines"

  /// A splitter for `path`.
  public init(path: String, format: EventFileFormat? = nil, personColumn: String = "person") {
    self.path = path
    self.format = format
    self.personColumn = personColumn
  }

  /// Splits the file into a new private directory under `temporaryDirectory`. Throws
  /// ``FileError`` when the file cannot be read or a part cannot be written, and
  /// ``FormatError`` when the file is no event log (a CSV header without the person column, a
  /// database, a record over 1 MiB); a record that names no person is not thrown but listed in
  /// ``CohortSplit/unassigned``.
  public func split(temporaryDirectory: String) throws -> CohortSplit {
    let file = try ChunkedFile(path: path)
    _ = try file.fill()
    let head = file.unread
    if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { file.start += 3 }
    if let hint = EventFileReader.foreignFormat(file.unread) {
      throw FormatError(
        file: path, line: 1,
        message: "expected \(format?.rawValue.uppercased() ?? "CSV or JSON Lines") events; \(hint)"
      )
    }
    let format = format ?? EventFileFormat.guess(fromPath: path) ?? Self.sniff(file.unread)
    let parts = try Parts(
      temporaryDirectory: temporaryDirectory, format: format, source: path,
      bufferBytes: bufferBytes)
    switch format {
    case .csv: try splitCSV(file, into: parts)
    case .jsonl: try splitJSONL(file, into: parts)
    }
    return try parts.finish()
  }

  private static func sniff(_ bytes: UnsafeRawBufferPointer) -> EventFileFormat {
    for byte in bytes where !isSpace(byte) && byte != 0x0A && byte != 0x0D {
      return byte == UInt8(ascii: "{") ? .jsonl : .csv
    }
    return .csv
  }

  /// Reads more of `file`; a record that does not fit the buffer is an error at `line`, as it
  /// is for `--log`.
  private func fill(_ file: ChunkedFile, line: Int) throws {
    try EventFileReader.fill(file, path: path, line: line)
  }

  // MARK: CSV

  private func splitCSV(_ file: ChunkedFile, into parts: Parts) throws {
    var parser = CSVRecordParser(capacity: 256)
    var scratch = ByteScratch()
    defer {
      parser.deallocate()
      scratch.deallocate()
    }
    var line = 1
    var personIndex: Int?
    var columnCount = 0
    var record: [UInt8] = []
    while true {
      let atEnd = file.isAtEnd
      let window = file.unread
      var offset = 0
      parsing: while offset < window.count {
        switch parser.parse(window, from: offset, isAtEnd: atEnd) {
        case .needMore:
          break parsing
        case .blank(let next):
          line += 1
          offset = next
        case .malformed(let problem, let position, let next, let newlines):
          let error = FormatError(
            file: path, line: line,
            message: CSVRecordParser.message(problem, at: position, in: window))
          guard personIndex != nil else { throw error }
          parts.unassigned(error)
          line += newlines
          offset = next
        case .record(let next, let newlines):
          let count = parser.fieldCount
          guard let person = personIndex else {
            let (index, header) = try self.header(parser, window, line: line)
            personIndex = index
            columnCount = count
            parts.header = header
            parts.headerLine = line
            line += newlines
            offset = next
            continue
          }
          defer {
            line += newlines
            offset = next
          }
          guard count <= parser.fields.count else {
            parts.unassigned(
              FormatError(
                file: path, line: line,
                message: "expected at most \(columnCount) fields, found \(count); "
                  + "quote fields that contain commas"))
            continue
          }
          var name = UnsafeRawBufferPointer(start: nil, count: 0)
          if person < count {
            let field = parser.fields[person]
            name = parser.bytes(of: field, in: window, scratch: &scratch)
            if !field.isQuoted { name = trim(name) }
          }
          guard !name.isEmpty else {
            parts.unassigned(
              FormatError(
                file: path, line: line,
                message:
                  "expected a person in column '\(personColumn)', found "
                  + (person < count ? "an empty field" : "no such field")))
            continue
          }
          guard isValidUTF8(name) else {
            parts.unassigned(
              FormatError(
                file: path, line: line,
                message: "expected UTF-8 text for the person, found invalid bytes"))
            continue
          }
          // The record without the person field, each field's bytes as written (quotes kept).
          record.removeAll(keepingCapacity: true)
          var kept = 0
          for index in 0..<count where index != person {
            if kept > 0 { record.append(UInt8(ascii: ",")) }
            let field = parser.fields[index]
            let range =
              field.isQuoted ? (field.start - 1)..<(field.end + 1) : field.start..<field.end
            record.append(contentsOf: UnsafeRawBufferPointer(rebasing: window[range]))
            kept += 1
          }
          // Only a person: one empty field, which the reader reports as it would.
          if kept == 0 { record.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\"")]) }
          try parts.append(record, line: line, person: name)
        }
      }
      file.start += offset
      if atEnd { break }
      try fill(file, line: line)
    }
  }

  /// The person column's index in the header, and the header without it.
  private func header(_ parser: CSVRecordParser, _ window: UnsafeRawBufferPointer, line: Int) throws
    -> (Int, [UInt8])
  {
    var names: [String] = []
    var scratch = ByteScratch()
    defer { scratch.deallocate() }
    for field in parser.fields.prefix(min(parser.fieldCount, parser.fields.count)) {
      names.append(
        String(
          decoding: trim(parser.bytes(of: field, in: window, scratch: &scratch)), as: UTF8.self))
    }
    let wanted = personColumn.lowercased()
    guard let index = names.firstIndex(where: { $0.lowercased() == wanted }) else {
      if let first = names.first, let hint = EventFileReader.foreignFormat(first.utf8) {
        throw FormatError(file: path, line: line, message: "expected a CSV header line; \(hint)")
      }
      var found = names.map { $0.isEmpty ? "''" : "'\($0)'" }.joined(separator: ", ")
      if found.count > 200 { found = found.prefix(200) + "..." }
      throw FormatError(
        file: path, line: line,
        message:
          "expected a column '\(personColumn)' naming the person of each event "
          + "(--person-column names another), found \(found)")
    }
    // The others must be routine's own columns, or every person's part would fail alike.
    let others = names.enumerated().filter { $0.offset != index }.map(\.element)
    let known: Set = ["timestamp", "event", "value", "note", "source"]
    let keys = others.map { $0.lowercased() }
    guard keys.allSatisfy(known.contains), keys.contains("timestamp"), keys.contains("event")
    else {
      var found = others.map { $0.isEmpty ? "''" : "'\($0)'" }.joined(separator: ", ")
      if found.count > 200 { found = found.prefix(200) + "..." }
      throw FormatError(
        file: path, line: line,
        message:
          "expected the columns timestamp and event (and value, note, source) beside "
          + "'\(names[index])', found \(found.isEmpty ? "none" : found)")
    }
    var header: [UInt8] = []
    for (position, field) in parser.fields.prefix(parser.fieldCount).enumerated()
    where position != index {
      if position > (index == 0 ? 1 : 0) { header.append(UInt8(ascii: ",")) }
      let range = field.isQuoted ? (field.start - 1)..<(field.end + 1) : field.start..<field.end
      header.append(contentsOf: UnsafeRawBufferPointer(rebasing: window[range]))
    }
    return (index, header)
  }

  // MARK: JSON Lines

  private func splitJSONL(_ file: ChunkedFile, into parts: Parts) throws {
    var line = 1
    let key = Array(personColumn.utf8)
    while true {
      let atEnd = file.isAtEnd
      let window = file.unread
      var offset = 0
      while let (content, next) = window.line(from: offset, atEnd: atEnd) {
        offset = next
        defer { line += 1 }
        if trim(content).isEmpty { continue }
        var scanner = JSONPersonScanner(bytes: content)
        switch scanner.person(key: key) {
        case .problem(let found):
          parts.unassigned(
            FormatError(
              file: path, line: line,
              message: "expected a JSON object with a \"\(personColumn)\" key, found \(found)"))
        case .missing:
          parts.unassigned(
            FormatError(
              file: path, line: line,
              message: "expected a \"\(personColumn)\" key naming the person, found none"))
        case .found(let range, let isEscaped):
          func assign(_ name: UnsafeRawBufferPointer) throws {
            guard !trim(name).isEmpty else {
              parts.unassigned(
                FormatError(
                  file: path, line: line,
                  message: "expected a person for \"\(personColumn)\", found an empty value"))
              return
            }
            try parts.append(content, line: line, person: trim(name))
          }
          let raw = UnsafeRawBufferPointer(rebasing: content[range])
          guard isEscaped else {
            try assign(raw)
            continue
          }
          guard let decoded = Self.unescaped(raw) else {
            parts.unassigned(
              FormatError(
                file: path, line: line,
                message: "expected a JSON string for \"\(personColumn)\", found \(quoted(raw))"))
            continue
          }
          try Array(decoded.utf8).withUnsafeBytes { try assign($0) }
        }
      }
      file.start += offset
      if file.isAtEnd && atEnd { break }
      try fill(file, line: line)
    }
  }

  /// The text of a JSON string's content with escapes (`\u00e9`), or `nil` when they are not
  /// valid JSON.
  private static func unescaped(_ content: UnsafeRawBufferPointer) -> String? {
    var literal = Data([UInt8(ascii: "\"")])
    literal.append(contentsOf: content)
    literal.append(UInt8(ascii: "\""))
    return (try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed))
      as? String
  }
}

/// The parts being written: a buffer per person, flushed to the person's file when all buffers
/// together pass the budget.
private final class Parts {
  let directory: String
  let format: EventFileFormat
  let source: String
  let bufferBytes: Int
  /// The CSV header without the person column, written first in each part.
  var header: [UInt8]?
  var headerLine = 1

  private let table = ByteKeyTable<Int>()
  private var names: [String] = []
  private var buffers: [[UInt8]] = []
  private var lines: [[Int64]] = []
  private var blocks: [[CohortSplit.Block]] = []
  private var records: [Int] = []
  private var buffered = 0
  private var lineMap: Int32
  private var lineMapOffset: Int64 = 0
  private var unassignedErrors: [FormatError] = []
  private var unassignedCount = 0
  private var finished = false

  /// The start of a parts directory's name: `routine-cohort-PID-XXXXXX`.
  static let directoryPrefix = "routine-cohort-"

  /// Removes the parts directories of runs that were killed (their process is gone), owned by
  /// this user: a cohort split interrupted by Ctrl-C or a crash leaves its parts behind, and
  /// they are as large as the cohort file.
  static func clearStale(in temporaryDirectory: String) {
    guard let stream = opendir(temporaryDirectory) else { return }
    var stale: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      guard name.hasPrefix(directoryPrefix) else { continue }
      let rest = name.dropFirst(directoryPrefix.count).split(separator: "-")
      guard rest.count == 2, let pid = Int32(rest[0]), pid > 0, pid != getpid(),
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      stale.append(temporaryDirectory + "/" + name)
    }
    closedir(stream)
    for directory in stale {
      var status = stat()
      guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
        status.st_uid == getuid(), let inner = opendir(directory)
      else { continue }
      var files: [String] = []
      while let entry = readdir(inner) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
          $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
        }
        if name != "." && name != ".." { files.append(directory + "/" + name) }
      }
      closedir(inner)
      for file in files {
        var fileStatus = stat()
        if lstat(file, &fileStatus) == 0, fileStatus.st_mode & S_IFMT == S_IFREG { unlink(file) }
      }
      rmdir(directory)
    }
  }

  init(temporaryDirectory: String, format: EventFileFormat, source: String, bufferBytes: Int)
    throws
  {
    Parts.clearStale(in: temporaryDirectory)
    // The process id in the name lets a later run clear what a killed one left.
    var template = Array(
      (temporaryDirectory + "/\(Parts.directoryPrefix)\(getpid())-XXXXXX").utf8CString)
    guard
      let created = template.withUnsafeMutableBufferPointer({ buffer in
        mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
      })
    else {
      throw FileError.writeFailed(
        path: temporaryDirectory, reason: String(cString: strerror(errno)))
    }
    directory = created
    self.format = format
    self.source = source
    self.bufferBytes = bufferBytes
    let mapPath = directory + "/" + CohortFileSplitter.lineMapName
    lineMap = open(mapPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard lineMap >= 0 else {
      let reason = String(cString: strerror(errno))
      rmdir(directory)
      throw FileError.writeFailed(path: mapPath, reason: reason)
    }
  }

  deinit {
    guard !finished else { return }
    // A split that failed leaves nothing behind.
    close(lineMap)
    for index in names.indices { unlink(partPath(index)) }
    unlink(directory + "/" + CohortFileSplitter.lineMapName)
    rmdir(directory)
  }

  private func partPath(_ index: Int) -> String {
    "\(directory)/\(index).\(format.rawValue)"
  }

  /// A record that names no person.
  func unassigned(_ error: FormatError) {
    unassignedCount += 1
    if unassignedErrors.count < CohortSplit.maximumUnassigned { unassignedErrors.append(error) }
  }

  /// Appends `record` (without its line break) to `person`'s part; it starts on `line` of the
  /// original file.
  func append<Bytes: Collection>(_ record: Bytes, line: Int, person: UnsafeRawBufferPointer)
    throws where Bytes.Element == UInt8
  {
    let index: Int
    if let known = table.value(for: person) {
      index = known
    } else {
      index = names.count
      table.insert(index, for: person)
      names.append(String(decoding: person, as: UTF8.self))
      buffers.append([])
      lines.append([])
      blocks.append([])
      records.append(0)
      if let header {
        buffers[index] = header + [0x0A]
        lines[index] = [Int64(headerLine)]
        buffered += header.count + 9
      }
    }
    let before = buffers[index].count
    buffers[index].append(contentsOf: record)
    buffers[index].append(0x0A)
    // One entry per line of the part: a quoted field may hold line breaks.
    var newlines = 0
    for byte in record where byte == 0x0A { newlines += 1 }
    for extra in 0...newlines { lines[index].append(Int64(line + extra)) }
    records[index] += 1
    buffered += buffers[index].count - before + (newlines + 1) * 8
    if buffered > bufferBytes { try flush() }
  }

  /// Appends every buffer to its person's part, and their line numbers to the line map.
  private func flush() throws {
    for index in buffers.indices where !buffers[index].isEmpty {
      let path = partPath(index)
      let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else {
        throw FileError.writeFailed(path: path, reason: String(cString: strerror(errno)))
      }
      defer { close(descriptor) }
      try write(buffers[index], to: descriptor, path: path)
      try lines[index].withUnsafeBytes { bytes in
        try write(bytes, to: lineMap, path: directory + "/" + CohortFileSplitter.lineMapName)
      }
      blocks[index].append(CohortSplit.Block(offset: lineMapOffset, count: lines[index].count))
      lineMapOffset += Int64(lines[index].count * 8)
      buffers[index] = []
      lines[index] = []
    }
    buffered = 0
  }

  private func write<Bytes: ContiguousBytes>(_ bytes: Bytes, to descriptor: Int32, path: String)
    throws
  {
    try bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(
          descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw FileError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        offset += written
      }
    }
  }

  /// Writes what is buffered and hands the parts over, sorted by person.
  func finish() throws -> CohortSplit {
    try flush()
    let order = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
    let people = order.map { index in
      CohortSplit.Person(
        name: names[index], path: partPath(index), records: records[index],
        blocks: blocks[index])
    }
    finished = true
    return CohortSplit(
      source: source, format: format, people: people, unassigned: unassignedErrors,
      unassignedCount: unassignedCount, directory: directory, lineMap: lineMap)
  }
}

/// Finds one top-level key of a JSON Lines record without parsing the rest (the reader checks
/// the record itself later, in the person's part).
private struct JSONPersonScanner {
  enum Outcome {
    /// The value's bytes (a string's content, or a number as written), and whether the string
    /// holds escapes.
    case found(Range<Int>, isEscaped: Bool)
    case missing
    /// The line is no object the key can be found in; what was found instead.
    case problem(String)
  }

  let bytes: UnsafeRawBufferPointer
  private var index = 0

  init(bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private var found: String {
    current == nil
      ? "the end of the line" : quoted(UnsafeRawBufferPointer(rebasing: bytes[index...]))
  }

  private mutating func skipSpace() {
    while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A {
      index += 1
    }
  }

  /// Skips a string at the cursor (on its opening quote); returns its content's range and
  /// whether it has escapes, or `nil` when it does not end.
  private mutating func string() -> (Range<Int>, Bool)? {
    index += 1
    let start = index
    var escaped = false
    while let byte = current {
      if byte == UInt8(ascii: "\\") {
        escaped = true
        index += 2
        continue
      }
      if byte == UInt8(ascii: "\"") {
        index += 1
        return (start..<(index - 1), escaped)
      }
      index += 1
    }
    return nil
  }

  /// Skips any value; `false` when it is cut short.
  private mutating func skipValue() -> Bool {
    guard let first = current else { return false }
    if first == UInt8(ascii: "\"") { return string() != nil }
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
      var depth = 0
      while let byte = current {
        switch byte {
        case UInt8(ascii: "\""):
          guard string() != nil else { return false }
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 {
            index += 1
            return true
          }
        default: break
        }
        index += 1
      }
      return false
    }
    let start = index
    while let byte = current, byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"),
      byte != UInt8(ascii: "]"), byte != 0x20, byte != 0x09
    {
      index += 1
    }
    return index > start
  }

  mutating func person(key: [UInt8]) -> Outcome {
    skipSpace()
    guard current == UInt8(ascii: "{") else { return .problem(found) }
    index += 1
    while true {
      skipSpace()
      if current == UInt8(ascii: "}") { return .missing }
      guard current == UInt8(ascii: "\""), let (name, escaped) = string() else {
        return .problem(found)
      }
      skipSpace()
      guard current == UInt8(ascii: ":") else { return .problem(found) }
      index += 1
      skipSpace()
      if !escaped, bytes[name].elementsEqual(key) {
        guard let first = current else { return .problem(found) }
        if first == UInt8(ascii: "\"") {
          guard let (value, isEscaped) = string() else { return .problem(found) }
          return .found(value, isEscaped: isEscaped)
        }
        if first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
          let start = index
          _ = skipValue()
          return .found(start..<index, isEscaped: false)
        }
        if bytes[index...].starts(with: "null".utf8) {
          return .found(index..<index, isEscaped: false)
        }
        return .problem(found)
      }
      guard skipValue() else { return .problem(found) }
      skipSpace()
      if current == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if current == UInt8(ascii: "}") { return .missing }
      return .problem(found)
    }
  }
}
