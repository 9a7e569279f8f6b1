/// Where an event came from.
public enum EventSource: String, Sendable, CaseIterable {
  /// Logged with `routine log`.
  case cli
  /// Read from a file with `routine import`.
  case `import`
  /// Logged by answering a notification action.
  case notification
}

/// One logged event: a kind, when it happened (with the offset of the clock it was read from),
/// and optionally a number and a note.
public struct Event: Hashable, Sendable {
  /// What happened.
  public var kind: EventKind
  /// When it happened, with the local UTC offset at the time.
  public var timestamp: Timestamp
  /// An optional measurement: cups, minutes, drinks.
  public var value: Double?
  /// An optional free-text note (never empty: an empty note is `nil`).
  public var note: String?
  /// Where the event came from.
  public var source: EventSource

  /// An event; an empty `note` is stored as `nil`.
  public init(
    kind: EventKind, timestamp: Timestamp, value: Double? = nil, note: String? = nil,
    source: EventSource
  ) {
    self.kind = kind
    self.timestamp = timestamp
    self.value = value
    self.note = (note?.isEmpty ?? true) ? nil : note
    self.source = source
  }
}
