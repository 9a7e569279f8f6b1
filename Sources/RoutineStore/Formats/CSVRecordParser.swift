/// Splits CSV text into records and fields (RFC 4180), without copying: fields are ranges of the
/// caller's buffer, unescaped on demand.
struct CSVRecordParser {
  /// A field's place in the buffer.
  struct Field {
    var start: Int
    var end: Int
    /// Whether the field was in double quotes.
    var isQuoted: Bool
    /// Whether it contains doubled quotes that must be unescaped.
    var hasEscapes: Bool
  }

  /// How a record breaks the quoting rules. (Kept free of strings so that the hot loop's results
  /// need no reference counting; ``message(_:in:)`` words them.)
  enum Problem {
    case unterminatedQuote
    case textAfterQuote
  }

  /// What went wrong, for the error message.
  static func message(_ problem: Problem, at index: Int, in bytes: UnsafeRawBufferPointer) -> String
  {
    switch problem {
    case .unterminatedQuote:
      return "expected a closing double quote, found the end of the file"
    case .textAfterQuote:
      return "expected a comma or the end of the line after a closing double quote, found "
        + quoted(UnsafeRawBufferPointer(rebasing: bytes[index..<min(index + 1, bytes.count)]))
    }
  }

  enum Outcome {
    /// A record; its fields are in ``fields``. `next` is where the following record starts.
    case record(next: Int, newlines: Int)
    /// An empty line.
    case blank(next: Int)
    /// A record that breaks the quoting rules at byte `at`; parsing resumes at `next`.
    case malformed(Problem, at: Int, next: Int, newlines: Int)
    /// The record continues past the end of the buffer.
    case needMore
  }

  /// The fields of the last record parsed; only the first ``fieldCount`` are meaningful. Fixed
  /// storage, so the hot loop never allocates or counts references.
  let fields: UnsafeMutableBufferPointer<Field>
  /// How many fields the last record had (more than the storage holds are counted, not kept).
  private(set) var fieldCount = 0

  /// A parser keeping at most `capacity` fields per record.
  init(capacity: Int = 64) {
    fields = .allocate(capacity: capacity)
  }

  /// Frees the field storage.
  func deallocate() {
    fields.deallocate()
  }

  private mutating func append(_ field: Field) {
    if fieldCount < fields.count { fields[fieldCount] = field }
    fieldCount += 1
  }

  /// Parses the record starting at `start`. `isAtEnd` says whether the buffer holds the rest of
  /// the file (so a record without a final line break is complete).
  mutating func parse(_ bytes: UnsafeRawBufferPointer, from start: Int, isAtEnd: Bool) -> Outcome {
    let quote = UInt8(ascii: "\"")
    let comma = UInt8(ascii: ",")
    let newline: UInt8 = 0x0A
    let carriageReturn: UInt8 = 0x0D
    let end = bytes.count
    fieldCount = 0

    if bytes[start] == newline { return .blank(next: start + 1) }
    if bytes[start] == carriageReturn {
      if start + 1 < end, bytes[start + 1] == newline { return .blank(next: start + 2) }
      if start + 1 == end, !isAtEnd { return .needMore }
    }

    var index = start
    var newlines = 0
    while true {
      if index < end, bytes[index] == quote {
        index += 1
        let fieldStart = index
        var hasEscapes = false
        while true {
          guard index < end else {
            if !isAtEnd { return .needMore }
            return .malformed(.unterminatedQuote, at: end, next: end, newlines: newlines)
          }
          let byte = bytes[index]
          if byte == quote {
            if index + 1 == end, !isAtEnd { return .needMore }
            if index + 1 < end, bytes[index + 1] == quote {
              hasEscapes = true
              index += 2
              continue
            }
            break
          }
          if byte == newline { newlines += 1 }
          index += 1
        }
        append(Field(start: fieldStart, end: index, isQuoted: true, hasEscapes: hasEscapes))
        index += 1
        guard index < end else {
          return isAtEnd ? .record(next: end, newlines: newlines) : .needMore
        }
        let byte = bytes[index]
        if byte == comma {
          index += 1
          continue
        }
        if byte == newline { return .record(next: index + 1, newlines: newlines + 1) }
        if byte == carriageReturn {
          if index + 1 < end, bytes[index + 1] == newline {
            return .record(next: index + 2, newlines: newlines + 1)
          }
          if index + 1 == end {
            return isAtEnd ? .record(next: end, newlines: newlines) : .needMore
          }
        }
        let (next, skipped) = lineEnd(bytes, from: index, isAtEnd: isAtEnd)
        guard let next else { return .needMore }
        return .malformed(.textAfterQuote, at: index, next: next, newlines: newlines + skipped)
      }

      let fieldStart = index
      index = CSVRecordParser.delimiter(in: bytes, from: index)
      guard index < end else {
        guard isAtEnd else { return .needMore }
        var fieldEnd = end
        if fieldEnd > fieldStart, bytes[fieldEnd - 1] == carriageReturn { fieldEnd -= 1 }
        append(Field(start: fieldStart, end: fieldEnd, isQuoted: false, hasEscapes: false))
        return .record(next: end, newlines: newlines)
      }
      if bytes[index] == comma {
        append(Field(start: fieldStart, end: index, isQuoted: false, hasEscapes: false))
        index += 1
        continue
      }
      var fieldEnd = index
      if fieldEnd > fieldStart, bytes[fieldEnd - 1] == carriageReturn { fieldEnd -= 1 }
      append(Field(start: fieldStart, end: fieldEnd, isQuoted: false, hasEscapes: false))
      return .record(next: index + 1, newlines: newlines + 1)
    }
  }

  /// The index of the first comma or line feed at or after `index`, or `bytes.count`. Eight bytes
  /// at a time: for each of the two delimiters, the classic has-zero-byte test on the word XOR-ed
  /// with it; the lowest flagged byte is always a real match (false flags only sit above one).
  @inline(__always)
  static func delimiter(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
    let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    var index = start
    let end = bytes.count
    while index + 8 <= end {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let comma = word ^ commas
      let newline = word ^ newlines
      let found = ((comma &- ones) & ~comma | (newline &- ones) & ~newline) & highs
      if found != 0 { return index + found.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < end {
      let byte = bytes[index]
      if byte == 0x2C || byte == 0x0A { return index }
      index += 1
    }
    return end
  }

  /// Where the line containing `index` ends, for resuming after a malformed record.
  private func lineEnd(_ bytes: UnsafeRawBufferPointer, from index: Int, isAtEnd: Bool)
    -> (Int?, Int)
  {
    var position = index
    while position < bytes.count {
      if bytes[position] == 0x0A { return (position + 1, 1) }
      position += 1
    }
    return isAtEnd ? (bytes.count, 0) : (nil, 0)
  }

  /// The text of `field`: a slice of `bytes`, or its unescaped copy in `scratch`.
  func bytes(of field: Field, in bytes: UnsafeRawBufferPointer, scratch: inout ByteScratch)
    -> UnsafeRawBufferPointer
  {
    let slice = UnsafeRawBufferPointer(rebasing: bytes[field.start..<field.end])
    guard field.hasEscapes else { return slice }
    scratch.reset()
    var index = 0
    while index < slice.count {
      scratch.append(slice[index])
      index += slice[index] == UInt8(ascii: "\"") ? 2 : 1
    }
    return scratch.bytes
  }
}
