import RoutineCore

extension EventStore {
  /// The record of each reminder whose requests are among `requests` (by
  /// ``NotificationRequest/adaptationKey``): its firings from `firingsSince` with the answers to
  /// them, and its acts from `actsSince`, up to `now`. Reads one range of the deliveries, of the
  /// answers and of the log each, whatever the number of reminders, and never more than those
  /// ranges: memory follows the recent past, not the whole history.
  public func reminderRecords(
    for requests: [NotificationRequest], firingsSince: Int64, actsSince: Int64, now: Int64
  ) throws -> [String: ReminderRecord] {
    try read {
      // Records by position, found by key once per row: updating them in place through a
      // dictionary of strings cost more than reading the rows.
      var records: [ReminderRecord] = []
      var positions: [String: Int] = [:]
      var kindsOfRecord: [Int: Set<String>] = [:]
      var recordsOfKind: [String: Set<Int>] = [:]
      for request in requests {
        guard let key = request.adaptationKey else { continue }
        let position =
          positions[key]
          ?? {
            records.append(ReminderRecord(requests: [], firings: []))
            positions[key] = records.count - 1
            return records.count - 1
          }()
        records[position].requests.append(request)
        if let kind = request.actKind {
          let counted = Set(ActivityPreset.kinds(countingAs: kind).map(\.key))
          kindsOfRecord[position, default: []].formUnion(counted)
          recordsOfKind[kind.key, default: []].insert(position)
        }
      }
      guard !records.isEmpty else { return [:] }
      let deliveries = try deliveryCursor(from: firingsSince, to: now + 1)
      // Each copy's kind normalised once per name, not once per row.
      var kindKeys: [String: String] = [:]
      var owners: [Occurrence: [Int]] = [:]
      owners.reserveCapacity(records.count * 32)
      while let delivery = try deliveries.next() {
        guard delivery.attempt == 0 else { continue }
        let firing = RecordedFiring(
          request: delivery.request, occurrence: delivery.occurrence, attempt: 0,
          state: delivery.state)
        if delivery.request.origin == .snooze {
          // A snoozed copy belongs to the reminder it copies: by its id, or (a learned one's)
          // by its kind.
          var found = Set<Int>()
          if let position = delivery.request.metadata?.reminderID.flatMap({ positions[$0] }) {
            found.insert(position)
          }
          if delivery.request.isTiedToKind, let name = delivery.request.metadata?.eventKind {
            let key =
              kindKeys[name]
              ?? {
                let key = EventKind(name)?.key ?? name
                kindKeys[name] = key
                return key
              }()
            found.formUnion(recordsOfKind[key] ?? [])
          }
          for position in found {
            records[position].copies.append(firing)
            owners[delivery.occurrence, default: []].append(position)
          }
        } else if let key = delivery.request.adaptationKey, let position = positions[key] {
          records[position].firings.append(firing)
          owners[delivery.occurrence, default: []].append(position)
        }
      }
      let given = try answerCursor(from: firingsSince, to: now + 1)
      while let answer = try given.next() {
        guard let found = owners[answer.occurrence] else { continue }
        let prior = PriorAnswer(
          action: answer.action, answeredAt: answer.answeredAt, isUndone: answer.undoneAt != nil)
        for position in found {
          records[position].answers[answer.occurrence, default: []].append(prior)
        }
      }
      let keys = Set(kindsOfRecord.values.flatMap { $0 })
      let times = keys.isEmpty ? [:] : try eventTimes(ofKeys: keys, from: actsSince, to: now)
      for (position, kinds) in kindsOfRecord {
        records[position].acts =
          kinds.count == 1
          ? times[kinds.first!] ?? [] : kinds.flatMap { times[$0] ?? [] }.sorted()
      }
      return positions.mapValues { records[$0] }
    }
  }

  /// The times of the events of the kinds keyed `keys` in `from...to`, by kind key, each in
  /// order: one range of the time index.
  public func eventTimes(ofKeys keys: Set<String>, from: Int64, to: Int64) throws
    -> [String: [Timestamp]]
  {
    try read {
      // The kinds' ids first: the range is then read as numbers, without a text per row.
      var wanted: [Int64: String] = [:]
      let kinds = try connection.prepare("SELECT id, key FROM kinds")
      while try kinds.step() {
        if let key = kinds.text(at: 1), keys.contains(key) { wanted[kinds.int(at: 0)] = key }
      }
      guard !wanted.isEmpty else { return [:] }
      let select = try connection.prepare(
        """
        SELECT kind_id, at, utc_offset FROM events
        WHERE at >= ? AND at <= ?
        ORDER BY at
        """)
      try select.bind(from, at: 1)
      try select.bind(to, at: 2)
      var result: [String: [Timestamp]] = [:]
      while try select.step() {
        guard let key = wanted[select.int(at: 0)] else { continue }
        result[key, default: []].append(.stored(at: select.int(at: 1), offset: select.int(at: 2)))
      }
      return result
    }
  }
}
