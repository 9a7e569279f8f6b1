/// One firing of a request: what `agenda` lists, what delivery delivers, what an answer or a
/// cancellation refers to. (An event's time in analytics is an ``EventTime``.)
///
/// It is the request's identifier and its trigger's ``Firing``: the instant, and for a wall-clock
/// trigger the local date and time the firing belongs to. Two occurrences are the same when
/// their request and instant are: the slot follows from them (records that do not keep it, an
/// answer's, name the same occurrence).
public struct Occurrence: Hashable, Comparable, Sendable {
  /// The request that fires.
  public var requestID: String
  /// When its trigger fires, seconds since 1970 UTC.
  public var at: Int64
  /// The local date and wall-clock time it belongs to (`nil` for an instant: a snooze or
  /// outlier alert, a task due at a pinned instant, or a record that did not keep it).
  public var slot: FiringSlot?

  /// The firing of `requestID` at `at`, in `slot` when known.
  public init(requestID: String, at: Int64, slot: FiringSlot? = nil) {
    self.requestID = requestID
    self.at = at
    self.slot = slot
  }

  /// The firing `firing` of request `requestID`.
  public init(requestID: String, firing: Firing) {
    self.init(requestID: requestID, at: firing.at, slot: firing.slot)
  }

  /// The trigger's firing: its instant and slot.
  public var firing: Firing { Firing(at: at, slot: slot) }

  /// Orders by instant, then by identifier.
  public static func < (lhs: Occurrence, rhs: Occurrence) -> Bool {
    (lhs.at, lhs.requestID) < (rhs.at, rhs.requestID)
  }

  /// The same request and instant.
  public static func == (lhs: Occurrence, rhs: Occurrence) -> Bool {
    lhs.requestID == rhs.requestID && lhs.at == rhs.at
  }

  /// Hashes the request and instant (the slot follows from them).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(requestID)
    hasher.combine(at)
  }
}
