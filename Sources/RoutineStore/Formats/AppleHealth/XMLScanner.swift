import Foundation

/// A streaming scanner of XML start and end tags and their attributes, for documents like Apple
/// Health's `export.xml`: text between tags, comments, processing instructions, CDATA and
/// declarations (the DOCTYPE and its internal subset) are skipped.
///
/// Memory is one buffer of ``bufferSize``: a tag longer than that (a 1 GB attribute), or one that
/// never ends, is an error, not a reason to grow. Names and values are byte ranges of the buffer,
/// valid until the next call of ``next()``. It does not check that the document is well formed
/// beyond what reading tags needs.
final class XMLScanner {
  /// The buffer, and so the longest tag: 1 MiB.
  static let bufferSize = 1 << 20

  /// What ``next()`` found.
  enum Token: Equatable {
    /// `<name ...>`, or `<name .../>` when `isEmpty`.
    case start(isEmpty: Bool)
    /// `</name>`.
    case end
  }

  private let source: ByteSource
  /// The file as named in messages.
  let file: String
  private let buffer: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0
  private var isAtEnd = false
  /// Line breaks in the file before `countedTo` in the buffer. Counted on as tags move forward,
  /// so a line number costs the bytes since the last one asked for: counting from the buffer's
  /// start at every record made a large file's import spend most of its time in `memchr`.
  private var linesCounted = 0
  /// Where in the buffer `linesCounted` has counted to.
  private var countedTo = 0
  /// Where the current tag starts in the buffer (for its line number).
  private var tagStart = 0

  /// The current tag's name.
  private(set) var name: Range<Int> = 0..<0
  /// The current start tag's attributes: name and value (without quotes, entities not decoded).
  private(set) var attributes: [(name: Range<Int>, value: Range<Int>)] = []

  init(source: ByteSource, file: String) {
    self.source = source
    self.file = file
    buffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
    attributes.reserveCapacity(16)
  }

  deinit { buffer.deallocate() }

  /// The bytes of `range`.
  func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: buffer[range])
  }

  /// Whether `range` holds exactly `text` (ASCII).
  func matches(_ range: Range<Int>, _ text: StaticString) -> Bool {
    guard range.count == text.utf8CodeUnitCount else { return false }
    return memcmp(buffer.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0
  }

  /// The value of attribute `name` of the current tag.
  func attribute(_ name: StaticString) -> Range<Int>? {
    for attribute in attributes where matches(attribute.name, name) { return attribute.value }
    return nil
  }

  /// `range` as text, entities (`&amp;`, `&#x2019;`) decoded; unknown entities are kept as
  /// written.
  func text(_ range: Range<Int>) -> String {
    let raw = bytes(range)
    guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      guard byte == UInt8(ascii: "&"),
        let semicolon = raw[index...].prefix(12).firstIndex(of: UInt8(ascii: ";"))
      else {
        out.append(byte)
        index += 1
        continue
      }
      let entity = String(decoding: raw[(index + 1)..<semicolon], as: UTF8.self)
      var scalar: Unicode.Scalar?
      switch entity {
      case "amp": scalar = "&"
      case "lt": scalar = "<"
      case "gt": scalar = ">"
      case "quot": scalar = "\""
      case "apos": scalar = "'"
      default:
        if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
          scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        } else if entity.hasPrefix("#") {
          scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
        }
      }
      guard let scalar else {
        out.append(byte)
        index += 1
        continue
      }
      out.append(contentsOf: String(Character(scalar)).utf8)
      index = semicolon + 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The line the current tag starts on.
  var line: Int {
    // A tag already dropped from the buffer (the end of the file, long after it) counts from
    // the buffer's start.
    let position = max(0, min(tagStart, end))
    guard position >= countedTo else {
      return linesCounted - countLines(position..<countedTo) + 1
    }
    linesCounted += countLines(countedTo..<position)
    countedTo = position
    return linesCounted + 1
  }

  /// An error at the current tag.
  func error(_ message: String) -> FormatError {
    FormatError(file: file, line: line, message: message)
  }

  private func countLines(_ range: Range<Int>) -> Int {
    var count = 0
    var pointer = buffer.baseAddress! + range.lowerBound
    let stop = buffer.baseAddress! + range.upperBound
    while pointer < stop, let found = memchr(pointer, 0x0A, stop - pointer) {
      count += 1
      pointer = UnsafeMutableRawPointer(found) + 1
    }
    return count
  }

  /// The first bytes of the document (reading them if needed), for telling a ZIP archive from
  /// XML; they stay to be scanned.
  func peek(_ count: Int) throws -> UnsafeRawBufferPointer {
    while end - start < count, try fill() {}
    return bytes(start..<min(end, start + count))
  }

  /// Moves the unread bytes to the front and reads more after them; `false` at the end of the
  /// input. Throws when the unread bytes fill the buffer (a tag longer than the buffer).
  private func fill() throws -> Bool {
    if isAtEnd { return false }
    if start > 0 {
      if countedTo <= start {
        linesCounted += countLines(countedTo..<start)
        countedTo = 0
      } else {
        countedTo -= start
      }
      let count = end - start
      if count > 0 {
        buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: count)
      }
      tagStart -= start
      start = 0
      end = count
    }
    if end == buffer.count {
      tagStart = 0
      throw error(
        "expected a tag of at most 1 MiB (\(Self.bufferSize) bytes), found a longer one; is this an Apple Health export?"
      )
    }
    let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
    if count == 0 {
      isAtEnd = true
      return false
    }
    end += count
    return true
  }

  private func byte(_ index: Int) -> UInt8 { buffer[index] }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private static func isNameEnd(_ byte: UInt8) -> Bool {
    isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
      || byte == UInt8(ascii: "=")
  }

  /// The next start or end tag, or `nil` at the end of the input.
  func next() throws -> Token? {
    while true {
      // Text: skip to the next '<'.
      if let found = memchr(buffer.baseAddress! + start, Int32(UInt8(ascii: "<")), end - start) {
        start = UnsafeMutableRawPointer(found) - buffer.baseAddress!
      } else {
        start = end
        guard try fill() else { return nil }
        continue
      }
      tagStart = start
      // Parse the construct at `start`; nil means more bytes are needed.
      if let token = try parseMarkup() { return token }
    }
  }

  /// Parses the markup at `start`, refilling as needed. Returns a token, or `nil` after
  /// skipping something that is not a tag.
  private func parseMarkup() throws -> Token? {
    while true {
      switch try tryParse() {
      case .token(let token): return token
      case .skipped: return nil
      case .needMore:
        guard try fill() else {
          throw error(
            "expected the end of a tag ('>'), found the end of the file; is the export cut short?")
        }
      }
    }
  }

  private enum Outcome {
    case token(Token)
    case skipped
    case needMore
  }

  private func tryParse() throws -> Outcome {
    let available = end - start
    guard available >= 2 else { return .needMore }
    let second = byte(start + 1)
    switch second {
    case UInt8(ascii: "/"):
      var index = start + 2
      while index < end, !Self.isNameEnd(byte(index)) { index += 1 }
      name = (start + 2)..<index
      while index < end, byte(index) != UInt8(ascii: ">") { index += 1 }
      guard index < end else { return .needMore }
      start = index + 1
      return .token(.end)
    case UInt8(ascii: "?"):
      try skip(past: "?>", from: start + 2)
      return .skipped
    case UInt8(ascii: "!"):
      guard available >= 9 else { return .needMore }
      if matchesAt(start + 2, "--") {
        try skip(past: "-->", from: start + 4)
      } else if matchesAt(start + 2, "[CDATA[") {
        try skip(past: "]]>", from: start + 9)
      } else {
        // A declaration: <!DOCTYPE name [ ends at the '[' (the internal subset's declarations
        // follow as declarations of their own, its closing ']>' as text); others at '>'.
        var index = start + 2
        var quote: UInt8 = 0
        while index < end {
          let byte = byte(index)
          if quote != 0 {
            if byte == quote { quote = 0 }
          } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            quote = byte
          } else if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "[") {
            break
          }
          index += 1
        }
        guard index < end else { return .needMore }
        start = index + 1
      }
      return .skipped
    default:
      return try parseStartTag()
    }
  }

  private func matchesAt(_ index: Int, _ text: StaticString) -> Bool {
    index + text.utf8CodeUnitCount <= end
      && memcmp(buffer.baseAddress! + index, text.utf8Start, text.utf8CodeUnitCount) == 0
  }

  /// Skips to just after `terminator`, reading as much as it takes without keeping it.
  private func skip(past terminator: StaticString, from index: Int) throws {
    var from = index
    let length = terminator.utf8CodeUnitCount
    while true {
      if let found = find(terminator, in: from..<end) {
        start = found + length
        return
      }
      // Keep only the last bytes that could begin the terminator.
      start = max(from, end - (length - 1))
      tagStart = min(tagStart, start)
      guard try fill() else {
        throw error("expected '\(terminator)', found the end of the file; is the export cut short?")
      }
      from = start
    }
  }

  /// Where `text` first occurs in `range` of the buffer.
  private func find(_ text: StaticString, in range: Range<Int>) -> Int? {
    let length = text.utf8CodeUnitCount
    let base = buffer.baseAddress!
    var index = range.lowerBound
    while range.upperBound - index >= length,
      let found = memchr(base + index, Int32(text.utf8Start.pointee), range.upperBound - index)
    {
      let position = UnsafeMutableRawPointer(found) - base
      guard range.upperBound - position >= length else { return nil }
      if memcmp(base + position, text.utf8Start, length) == 0 { return position }
      index = position + 1
    }
    return nil
  }

  private func parseStartTag() throws -> Outcome {
    var index = start + 1
    while index < end, !Self.isNameEnd(byte(index)) { index += 1 }
    guard index < end else { return .needMore }
    name = (start + 1)..<index
    guard !name.isEmpty else {
      throw error(
        "expected a tag name after '<', found \(quoted(bytes(index..<min(end, index + 20))))")
    }
    attributes.removeAll(keepingCapacity: true)
    let base = buffer.baseAddress!
    while true {
      while index < end, Self.isSpace(byte(index)) { index += 1 }
      guard index < end else { return .needMore }
      let byte = byte(index)
      if byte == UInt8(ascii: ">") {
        start = index + 1
        return .token(.start(isEmpty: false))
      }
      if byte == UInt8(ascii: "/") {
        guard index + 1 < end else { return .needMore }
        guard self.byte(index + 1) == UInt8(ascii: ">") else {
          throw error("expected '/>', found \(quoted(bytes(index..<min(end, index + 20))))")
        }
        start = index + 2
        return .token(.start(isEmpty: true))
      }
      let nameStart = index
      while index < end, !Self.isNameEnd(self.byte(index)) { index += 1 }
      let attributeName = nameStart..<index
      while index < end, Self.isSpace(self.byte(index)) { index += 1 }
      guard index < end else { return .needMore }
      guard self.byte(index) == UInt8(ascii: "="), !attributeName.isEmpty else {
        throw error(
          "expected an attribute (name=\"value\") in <\(text(name))>, found \(quoted(bytes(nameStart..<min(end, nameStart + 20))))"
        )
      }
      index += 1
      while index < end, Self.isSpace(self.byte(index)) { index += 1 }
      guard index < end else { return .needMore }
      let quote = self.byte(index)
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
        throw error(
          "expected a quoted value for '\(text(attributeName))' in <\(text(name))>, found \(quoted(bytes(index..<min(end, index + 20))))"
        )
      }
      guard let close = memchr(base + index + 1, Int32(quote), end - index - 1) else {
        return .needMore
      }
      let closeIndex = UnsafeMutableRawPointer(close) - base
      attributes.append((attributeName, (index + 1)..<closeIndex))
      index = closeIndex + 1
    }
  }
}
