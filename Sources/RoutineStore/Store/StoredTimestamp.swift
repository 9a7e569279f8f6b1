import RoutineCore

extension Timestamp {
  /// The instants routine writes: those of four-digit ISO 8601 timestamps, years 0000 to 9999,
  /// with an offset of at most 18:59 either way.
  static let writtenInstants: ClosedRange<Int64> = -62_167_287_540...253_402_368_339
  /// The offsets routine writes: at most 18:59 either way.
  static let writtenOffsets: ClosedRange<Int64> = -68_340...68_340

  /// A timestamp read from the store, clamped to what routine writes: a store edited by hand
  /// (an event at 2^63 s) shows a wrong time rather than trapping on an overflow in every
  /// command that works out a local date from it.
  static func stored(at: Int64, offset: Int64) -> Timestamp {
    Timestamp(
      secondsSince1970: min(max(at, writtenInstants.lowerBound), writtenInstants.upperBound),
      utcOffsetSeconds: Int32(
        min(max(offset, writtenOffsets.lowerBound), writtenOffsets.upperBound)))
  }
}
