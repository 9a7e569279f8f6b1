/// One kind's events near the analysed days, with each event's local day and second of day
/// worked out once: the learner and the outlier pass read them many times, and re-centring a
/// second of day is then a comparison instead of a division.
struct KindTimes: Sendable {
  /// The events, in local time order.
  let events: [EventTime]
  /// Each event's local date, as days since 1970.
  let days: [Int32]
  /// Each event's local second of day, 0..<86400.
  let seconds: [Int32]

  /// The events of `times` (sorted) whose local dates lie within a day of `range` and
  /// whose instants are not after `notAfter`.
  init(_ times: [EventTime], near range: ClosedRange<LocalDate>, notAfter: Int64?) {
    let lower = Int64(range.lowerBound.daysSince1970 - 1) * 86_400
    let upper = Int64(range.upperBound.daysSince1970 + 2) * 86_400
    let slice = times[
      times.lowerBound(localSeconds: lower)..<times.lowerBound(localSeconds: upper)]
    let kept =
      notAfter.map { limit in slice.filter { $0.secondsSince1970 <= limit } } ?? Array(slice)
    self.events = kept
    var days = [Int32]()
    var seconds = [Int32]()
    days.reserveCapacity(kept.count)
    seconds.reserveCapacity(kept.count)
    for occurrence in kept {
      let local = Int(occurrence.localSeconds)
      days.append(Int32(floorDiv(local, 86_400)))
      seconds.append(Int32(floorMod(local, 86_400)))
    }
    self.days = days
    self.seconds = seconds
  }

  /// How many events.
  var count: Int { events.count }

  /// The day and position of event `index` on a day re-centred by `shift` seconds (positions in
  /// 0..<86400): the routine day is the local day moved by -1, 0 or +1.
  @inline(__always)
  func shifted(_ index: Int, by shift: Int32) -> (day: Int32, position: Int32) {
    var position = seconds[index] + shift
    var day = days[index]
    if position < 0 {
      position += 86_400
      day -= 1
    } else if position >= 86_400 {
      position -= 86_400
      day += 1
    }
    return (day, position)
  }

  /// The indexes of the events on local date `date` (days since 1970): a contiguous range, as
  /// events are in local time order.
  func indices(onDate date: Int) -> Range<Int> {
    func first(atLeast day: Int) -> Int {
      var low = 0
      var high = count
      while low < high {
        let middle = (low + high) / 2
        if Int(days[middle]) < day { low = middle + 1 } else { high = middle }
      }
      return low
    }
    return first(atLeast: date)..<first(atLeast: date + 1)
  }
}
