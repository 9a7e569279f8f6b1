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
      var records: [String: ReminderRecord] = [:]
      var kindsOfKey: [String: Set<String>] = [:]
      var keysOfKind: [String: Set<String>] = [:]
      for request in requests {
        guard let key = request.adaptationKey else { continue }
        records[key, default: ReminderRecord(requests: [], firings: [])].requests.append(request)
        if let kind = request.actKind {
          let counted = Set(ActivityPreset.kinds(countingAs: kind).map(\.key))
          kindsOfKey[key, default: []].formUnion(counted)
          keysOfKind[kind.key, default: []].insert(key)
        }
      }
      guard !records.isEmpty else { return [:] }
      let deliveries = try deliveryCursor(from: firingsSince, to: now + 1)
      var owners: [Occurrence: [String]] = [:]
      while let delivery = try deliveries.next() {
        guard delivery.attempt == 0 else { continue }
        let firing = RecordedFiring(
          request: delivery.request, occurrence: delivery.occurrence, attempt: 0,
          state: delivery.state)
        if delivery.request.origin == .snooze {
          // A snoozed copy belongs to the reminder it copies: by its id, or (a learned one's)
          // by its kind.
          var keys = Set<String>()
          if let id = delivery.request.metadata?.reminderID { keys.insert(id) }
          if let kind = delivery.request.actKind { keys.formUnion(keysOfKind[kind.key] ?? []) }
          for key in keys where records[key] != nil {
            records[key]?.copies.append(firing)
            owners[delivery.occurrence, default: []].append(key)
          }
        } else if let key = delivery.request.adaptationKey, records[key] != nil {
          records[key]?.firings.append(firing)
          owners[delivery.occurrence, default: []].append(key)
        }
      }
      let given = try answerCursor(from: firingsSince, to: now + 1)
      while let answer = try given.next() {
        guard let keys = owners[answer.occurrence] else { continue }
        let prior = PriorAnswer(
          action: answer.action, answeredAt: answer.answeredAt, isUndone: answer.undoneAt != nil)
        for key in keys { records[key]?.answers[answer.occurrence, default: []].append(prior) }
      }
      let keys = Set(kindsOfKey.values.flatMap { $0 })
      let times = keys.isEmpty ? [:] : try eventTimes(ofKeys: keys, from: actsSince, to: now)
      for (key, var record) in records {
        if let kinds = kindsOfKey[key] {
          record.acts =
            kinds.count == 1
            ? times[kinds.first!] ?? [] : kinds.flatMap { times[$0] ?? [] }.sorted()
        }
        records[key] = record
      }
      return records
    }
  }

  /// The times of the events of the kinds keyed `keys` in `from...to`, by kind key, each in
  /// order: one range of the time index.
  public func eventTimes(ofKeys keys: Set<String>, from: Int64, to: Int64) throws
    -> [String: [Timestamp]]
  {
    try read {
      let select = try connection.prepare(
        """
        SELECT k.key, e.at, e.utc_offset FROM events e JOIN kinds k ON k.id = e.kind_id
        WHERE e.at >= ? AND e.at <= ?
        ORDER BY e.at
        """)
      try select.bind(from, at: 1)
      try select.bind(to, at: 2)
      var result: [String: [Timestamp]] = [:]
      while try select.step() {
        guard let key = select.text(at: 0), keys.contains(key) else { continue }
        result[key, default: []].append(.stored(at: select.int(at: 1), offset: select.int(at: 2)))
      }
      return result
    }
  }
}
