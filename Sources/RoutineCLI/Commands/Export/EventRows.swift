import RoutineCore
import RoutineStore

/// Builds the lines of an events export as bytes, by hand: two million rows are written in
/// about a second only without a formatter or a `String` per field. The buffer is drained by
/// the caller whenever ``isFull``.
struct EventRows {
  /// The format written.
  let format: EventFileFormat
  /// The lines built since the last ``removeAll()`` (at first, CSV's header).
  private(set) var bytes: [UInt8] = []
  /// The local day whose `YYYY-MM-DDT` is in `dateText`: events come in time order, so most
  /// share their date with the one before.
  private var cachedDay = Int.min
  private var dateText: [UInt8] = []
  private var cachedOffset = Int32.min
  private var offsetText: [UInt8] = []

  /// The header line CSV starts with.
  static let csvHeader = "timestamp,event,value,note,source\n"

  init(format: EventFileFormat) {
    self.format = format
    bytes.reserveCapacity(1 << 20 + 4096)
    if format == .csv { bytes.append(contentsOf: Self.csvHeader.utf8) }
  }

  /// Whether the buffer holds enough to be written out.
  var isFull: Bool { bytes.count >= 1 << 20 }

  /// Empties the buffer, keeping its memory.
  mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  /// Each kind's name as this format writes it (CSV-quoted or a JSON string), by kind id:
  /// a flat table for the small dense ids a store gives out, a dictionary beyond.
  private var kindText: [[UInt8]?] = []
  private var distantKindText: [Int64: [UInt8]] = [:]
  private static let flatKinds: Int64 = 1 << 16

  /// Learns the kinds rows name, before the rows.
  mutating func name(_ kinds: [Int64: EventKind]) {
    for (id, kind) in kinds {
      var text: [UInt8] = []
      switch format {
      case .csv: Self.appendCSVField(kind.name, to: &text)
      case .jsonl: JSON.writeString(kind.name, to: &text)
      }
      if id >= 0, id < Self.flatKinds {
        if kindText.count <= Int(id) {
          kindText += Array(repeating: nil, count: Int(id) + 1 - kindText.count)
        }
        kindText[Int(id)] = text
      } else {
        distantKindText[id] = text
      }
    }
  }

  private func kind(_ id: Int64) -> [UInt8]? {
    id >= 0 && id < kindText.count ? kindText[Int(id)] : distantKindText[id]
  }

  /// Appends the line of `row`; a row whose kind is unknown (the store's foreign key forbids
  /// one) is left out, as reading events leaves it out.
  mutating func append(_ row: EventRow) {
    guard let kind = kind(row.kindID) else { return }
    switch format {
    case .csv:
      appendTimestamp(row.timestamp)
      bytes.append(UInt8(ascii: ","))
      bytes.append(contentsOf: kind)
      bytes.append(UInt8(ascii: ","))
      if let value = row.value { appendNumber(value) }
      bytes.append(UInt8(ascii: ","))
      if !row.note.isEmpty { Self.appendCSVField(row.note, to: &bytes) }
      bytes.append(UInt8(ascii: ","))
      bytes.append(contentsOf: row.source.rawValue.utf8)
    case .jsonl:
      bytes.append(contentsOf: #"{"timestamp": ""#.utf8)
      appendTimestamp(row.timestamp)
      bytes.append(contentsOf: #"", "event": "#.utf8)
      bytes.append(contentsOf: kind)
      bytes.append(contentsOf: #", "value": "#.utf8)
      if let value = row.value {
        appendNumber(value)
      } else {
        bytes.append(contentsOf: "null".utf8)
      }
      bytes.append(contentsOf: #", "note": "#.utf8)
      if !row.note.isEmpty {
        JSON.writeString(String(decoding: row.note, as: UTF8.self), to: &bytes)
      } else {
        bytes.append(contentsOf: "null".utf8)
      }
      bytes.append(contentsOf: #", "source": ""#.utf8)
      bytes.append(contentsOf: row.source.rawValue.utf8)
      bytes.append(contentsOf: #""}"#.utf8)
    }
    bytes.append(0x0A)
  }

  /// `2026-04-27T07:05:00+02:00`, as ``Timestamp/iso8601`` writes it.
  private mutating func appendTimestamp(_ timestamp: Timestamp) {
    let local = Int(timestamp.localSeconds)
    let second = ((local % 86_400) + 86_400) % 86_400
    let day = (local - second) / 86_400
    if day != cachedDay {
      let (year, _, _) = LocalDate(daysSince1970: day).components
      guard (0...9999).contains(year) else {
        // Years ISO 8601 writes with more digits or a sign: rare enough for the slow path.
        bytes.append(contentsOf: timestamp.iso8601.utf8)
        return
      }
      dateText = Array(timestamp.iso8601.utf8.prefix(11))
      cachedDay = day
    }
    bytes.append(contentsOf: dateText)
    appendTwo(second / 3600)
    bytes.append(UInt8(ascii: ":"))
    appendTwo(second / 60 % 60)
    bytes.append(UInt8(ascii: ":"))
    appendTwo(second % 60)
    if timestamp.utcOffsetSeconds != cachedOffset {
      offsetText = Array(timestamp.iso8601.utf8.suffix(6))
      cachedOffset = timestamp.utcOffsetSeconds
    }
    bytes.append(contentsOf: offsetText)
  }

  private mutating func appendTwo(_ value: Int) {
    bytes.append(UInt8(truncatingIfNeeded: 0x30 + value / 10))
    bytes.append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
  }

  /// The shortest decimal that reads back as the same `Double` (Swift's own description, which
  /// guarantees it), with whole numbers below 2^63 written as integers (`1000000000000000`, not
  /// `1e+15`), which read back exactly too. Negative zero is written `0`: the store keeps no sign
  /// of zero.
  private mutating func appendNumber(_ value: Double) {
    if value == value.rounded(), abs(value) < 0x1p63 {
      var whole = Int(value)
      if whole == 0 {
        bytes.append(UInt8(ascii: "0"))
        return
      }
      if whole < 0 {
        bytes.append(UInt8(ascii: "-"))
        whole = -whole
      }
      let start = bytes.count
      while whole > 0 {
        bytes.append(UInt8(truncatingIfNeeded: 0x30 + whole % 10))
        whole /= 10
      }
      bytes[start...].reverse()
      return
    }
    bytes.append(contentsOf: JSON.format(value).utf8)
  }

  /// A CSV field: in double quotes (with `""` for a quote) when it holds a comma, a quote or a
  /// line break, or begins or ends with a space or a tab (unquoted fields are trimmed on import).
  /// Kept exactly otherwise: a note beginning with `=` stays as written (docs/formats.md says why).
  private static func appendCSVField<Bytes: BidirectionalCollection>(
    _ text: Bytes, to bytes: inout [UInt8]
  )
  where Bytes.Element == UInt8 {
    let needsQuotes =
      text.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
      || text.first.map(isBlank) == true || text.last.map(isBlank) == true
    guard needsQuotes else {
      bytes.append(contentsOf: text)
      return
    }
    bytes.append(0x22)
    for byte in text {
      if byte == 0x22 { bytes.append(0x22) }
      bytes.append(byte)
    }
    bytes.append(0x22)
  }

  private static func appendCSVField(_ text: String, to bytes: inout [UInt8]) {
    appendCSVField(Array(text.utf8), to: &bytes)
  }

  private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
