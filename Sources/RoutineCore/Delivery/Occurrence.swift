/// One firing of a request at one instant: what `agenda` lists, what delivery delivers, what an
/// answer or a cancellation refers to. (An event's time in analytics is an ``EventTime``.)
public struct Occurrence: Hashable, Comparable, Sendable {
  /// The request that fires.
  public var requestID: String
  /// When its trigger fires, seconds since 1970 UTC.
  public var at: Int64

  /// The firing of `requestID` at `at`.
  public init(requestID: String, at: Int64) {
    self.requestID = requestID
    self.at = at
  }

  /// Orders by instant, then by identifier.
  public static func < (lhs: Occurrence, rhs: Occurrence) -> Bool {
    (lhs.at, lhs.requestID) < (rhs.at, rhs.requestID)
  }
}
