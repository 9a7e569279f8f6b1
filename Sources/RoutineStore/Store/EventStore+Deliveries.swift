import RoutineCore

/// What became of one due firing (docs/delivery.md).
public struct DeliveryRecord: Hashable, Sendable {
  /// What became of it.
  public enum Outcome: String, Sendable, CaseIterable {
    /// Claimed and handed to the sink, which has not confirmed yet (a crash leaves it so).
    case sending
    /// Handed to the sink.
    case delivered
    /// Older than the grace period when delivery looked: not delivered.
    case missed
    /// Not needed: the activity was done in its look-back window.
    case suppressed
    /// Skipped by a cancellation.
    case cancelled
    /// Skipped by another rule (``DeliveryRecord/rule``): superseded, backing off, paused, the
    /// daily cap.
    case skipped
    /// The sink failed.
    case failed
    /// Held while the person was away, busy or in quiet hours (``DeliveryRecord/heldReason``):
    /// a later run delivers it (``DeliveryRecord/releasedAt``) or records it missed.
    case held
  }

  /// The row.
  public var id: Int64
  /// The firing, with the local date and wall-clock time it belongs to (`nil` for an instant,
  /// and for records from before slots were kept).
  public var occurrence: Occurrence
  /// 0 for the firing, 1, 2, ... for an alarm delivered again.
  public var attempt: Int
  /// What became of it.
  public var outcome: Outcome
  /// Delivered more than a minute after it was due.
  public var isLate: Bool
  /// When delivery decided.
  public var decidedAt: Int64
  /// When the sink finished.
  public var finishedAt: Int64?
  /// The request as it was when it fired (its words, category and metadata).
  public var request: NotificationRequest
  /// The sink it went to.
  public var sink: String?
  /// Why it was missed, suppressed, cancelled, skipped or failed.
  public var reason: String?
  /// The rule that skipped it (outcome ``Outcome/skipped``).
  public var rule: SkipRule?
  /// Why it was held, when it was (whatever became of it after).
  public var heldReason: String? = nil
  /// When a run delivered it after holding it.
  public var releasedAt: Int64? = nil

  /// What delivery recorded, as the core classifies it (``FiringOutcome``).
  public var state: FiringRecordState {
    switch outcome {
    case .sending, .delivered: .delivered
    // Held: not delivered (yet), counted against nothing, as a firing missed.
    case .missed, .held: .missed
    case .failed: .failed
    case .suppressed: .skipped(.alreadyDone)
    case .cancelled: .skipped(.cancelled)
    case .skipped: .skipped(rule ?? .alreadyDone)
    }
  }

  /// The due firing this record is of (for an alarm's next ring): rings count from the first
  /// delivery, the release of an alarm that was held.
  public var due: DueOccurrence {
    DueOccurrence(
      request: request, occurrence: occurrence, attempt: attempt,
      dueAt: (releasedAt ?? occurrence.at) + Int64(attempt * Reminder.alarmInterval * 60))
  }
}

extension EventStore {

  private static let deliveryColumns = """
    id, request_id, occurrence, attempt, outcome, late, decided_at, finished_at, origin, category,
    title, body, event_kind, reminder_id, link_id, link_name, look_back, is_alarm, sink, reason,
    local_day, slot, act_until, rule, held_reason, released_at
    """

  /// Claims `due` with `outcome` at `now`: the unique row of its firing and attempt. Returns the
  /// record, or `nil` when another run claimed it first (nothing is delivered twice).
  public func claim(
    _ due: DueOccurrence, outcome: DeliveryRecord.Outcome, late: Bool, reason: String?,
    sink: String?, rule: SkipRule? = nil, heldReason: String? = nil, at now: Int64
  ) throws -> DeliveryRecord? {
    try write {
      let insert = try connection.prepare(
        """
        INSERT OR IGNORE INTO deliveries (request_id, occurrence, attempt, outcome, late, decided_at,
          finished_at, origin, category, title, body, event_kind, reminder_id, link_id, link_name,
          look_back, is_alarm, sink, reason, local_day, slot, act_until, rule, held_reason,
          released_at)
        SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
          ?20, ?21, ?22, ?23, ?24, ?25
        -- A claim from before slots were kept holds its instant.
        WHERE NOT EXISTS (
          SELECT 1 FROM deliveries WHERE request_id = ?1 AND occurrence = ?2 AND attempt = ?3
            AND local_day IS NULL)
        """)
      let request = due.request
      let metadata = request.metadata
      try insert.bind(request.id, at: 1)
      try insert.bind(due.occurrence.at, at: 2)
      try insert.bind(Int64(due.attempt), at: 3)
      try insert.bind(outcome.rawValue, at: 4)
      try insert.bind(late ? 1 : 0, at: 5)
      try insert.bind(now, at: 6)
      if outcome != .sending && outcome != .held { try insert.bind(now, at: 7) }
      try insert.bind(request.origin.rawValue, at: 8)
      try insert.bind(request.category.rawValue, at: 9)
      try insert.bind(request.title, at: 10)
      try insert.bind(request.body, at: 11)
      try insert.bind(metadata?.eventKind, at: 12)
      try insert.bind(metadata?.reminderID, at: 13)
      try insert.bind(metadata?.link?.id, at: 14)
      try insert.bind(metadata?.link?.name, at: 15)
      if let lookBack = metadata?.lookBack { try insert.bind(LookBack.code(lookBack), at: 16) }
      try insert.bind(metadata?.isAlarm == true ? 1 : 0, at: 17)
      try insert.bind(sink, at: 18)
      try insert.bind(reason, at: 19)
      try bind(due.slot, to: insert, at: 20)
      try insert.bind(metadata?.actUntil.map { Int64($0.secondsSinceMidnight) }, at: 22)
      try insert.bind(rule?.rawValue, at: 23)
      try insert.bind(heldReason, at: 24)
      // A further ring of an alarm that was held keeps when it was released: its rings count
      // from there.
      let firstRing = due.firstRing
      if due.attempt > 0, firstRing != due.occurrence.at { try insert.bind(firstRing, at: 25) }
      try insert.step()
      guard connection.changes > 0 else { return nil }
      return DeliveryRecord(
        id: connection.lastInsertRowID, occurrence: due.occurrence, attempt: due.attempt,
        outcome: outcome, isLate: late, decidedAt: now,
        finishedAt: outcome == .sending || outcome == .held ? nil : now, request: request,
        sink: sink, reason: reason, rule: rule, heldReason: heldReason,
        releasedAt: due.attempt > 0 && due.firstRing != due.occurrence.at ? due.firstRing : nil)
    }
  }

  /// Records what the sink made of delivery `id`: delivered, or failed with `reason`.
  public func finishDelivery(
    id: Int64, outcome: DeliveryRecord.Outcome, reason: String?, at now: Int64
  )
    throws
  {
    try write {
      let update = try connection.prepare(
        // Only from 'sending': a detached helper may have recorded a failure first.
        "UPDATE deliveries SET outcome = ?, reason = coalesce(?, reason), finished_at = ? WHERE id = ? AND outcome = 'sending'"
      )
      try update.bind(outcome.rawValue, at: 1)
      try update.bind(reason, at: 2)
      try update.bind(now, at: 3)
      try update.bind(id, at: 4)
      try update.step()
    }
  }

  /// The deliveries of firings due in `from..<to` (either bound optional), of `requestID` when
  /// given, oldest first.
  public func deliveries(from: Int64? = nil, to: Int64? = nil, requestID: String? = nil) throws
    -> [DeliveryRecord]
  {
    try read {
      let cursor = try deliveryCursor(from: from, to: to, requestID: requestID)
      var result: [DeliveryRecord] = []
      while let record = try cursor.next() { result.append(record) }
      return result
    }
  }

  /// The deliveries of ``deliveries(from:to:requestID:)``, in the same order, one at a time:
  /// memory stays flat whatever the range holds.
  public func deliveryCursor(from: Int64? = nil, to: Int64? = nil, requestID: String? = nil)
    throws -> StoreCursor<DeliveryRecord>
  {
    try withDatabase {
      let select = try connection.prepare(
        """
        SELECT \(EventStore.deliveryColumns) FROM deliveries
        WHERE occurrence >= ?1 AND occurrence < ?2 AND (?3 IS NULL OR request_id = ?3)
          AND forgotten = 0
        ORDER BY occurrence, attempt, id
        """)
      try select.bind(from ?? Int64.min, at: 1)
      try select.bind(to ?? Int64.max, at: 2)
      try select.bind(requestID, at: 3)
      return StoreCursor(store: self, statement: select, decode: EventStore.delivery(from:))
    }
  }

  /// The last `limit` deliveries (oldest first) of request `id`, or of any request of reminder
  /// `id` (a learned one's too: `routine_WakeUp` for `routine_WakeUp-weekday-2`): what `why`
  /// shows, found through the indexes instead of a read of the whole history.
  public func latestDeliveries(of id: String, limit: Int) throws -> [DeliveryRecord] {
    try read {
      let select = try connection.prepare(
        """
        SELECT * FROM (
          SELECT \(EventStore.deliveryColumns) FROM deliveries
          WHERE (request_id = ?1 OR reminder_id = ?1
              OR (request_id > ?1 || '-weekday-' AND request_id < ?1 || '-weekday.'))
            AND forgotten = 0
          ORDER BY occurrence DESC, attempt DESC, id DESC LIMIT ?2)
        ORDER BY occurrence, attempt, id
        """)
      try select.bind(id, at: 1)
      try select.bind(Int64(max(0, limit)), at: 2)
      var result: [DeliveryRecord] = []
      while try select.step() { result.append(EventStore.delivery(from: select)) }
      return result
    }
  }

  /// Each request that has deliveries of firings in `from..<to` (either bound optional), once,
  /// with the reminder it came from: small even when the history is long.
  public func deliveredRequests(from: Int64? = nil, to: Int64? = nil) throws -> [(
    requestID: String, reminderID: String?
  )] {
    try read {
      let select = try connection.prepare(
        """
        SELECT DISTINCT request_id, reminder_id FROM deliveries
        WHERE occurrence >= ?1 AND occurrence < ?2 AND forgotten = 0
        """)
      try select.bind(from ?? Int64.min, at: 1)
      try select.bind(to ?? Int64.max, at: 2)
      var result: [(requestID: String, reminderID: String?)] = []
      while try select.step() { result.append((select.text(at: 0) ?? "", select.text(at: 1))) }
      return result
    }
  }

  /// How many firings due in `from..<to` were delivered (or are being), alarms and task
  /// reminders aside: what the daily cap counts.
  public func deliveredCount(from: Int64, to: Int64) throws -> Int {
    try read {
      let select = try connection.prepare(
        """
        SELECT count(*) FROM deliveries
        WHERE occurrence >= ? AND occurrence < ? AND attempt = 0
          AND (outcome = 'delivered' OR outcome = 'sending') AND is_alarm = 0
          AND category != 'task_reminder'
        """)
      try select.bind(from, at: 1)
      try select.bind(to, at: 2)
      return try select.step() ? Int(select.int(at: 0)) : 0
    }
  }

  /// Whether a firing has a delivery record (not forgotten): delivery decided about it.
  public func isDecided(_ occurrence: Occurrence) throws -> Bool {
    try read {
      let select = try connection.prepare(
        """
        SELECT 1 FROM deliveries WHERE request_id = ? AND occurrence = ? AND forgotten = 0 LIMIT 1
        """)
      try select.bind(occurrence.requestID, at: 1)
      try select.bind(occurrence.at, at: 2)
      return try select.step()
    }
  }

  /// The latest delivery of request `requestID` (of its firing at `occurrence`, when given).
  public func latestDelivery(requestID: String, occurrence: Int64? = nil) throws -> DeliveryRecord?
  {
    try read {
      let select = try connection.prepare(
        """
        SELECT \(EventStore.deliveryColumns) FROM deliveries
        WHERE request_id = ?1 AND (?2 IS NULL OR occurrence = ?2) AND forgotten = 0
        ORDER BY occurrence DESC, attempt DESC, id DESC LIMIT 1
        """)
      try select.bind(requestID, at: 1)
      try select.bind(occurrence, at: 2)
      return try select.step() ? EventStore.delivery(from: select) : nil
    }
  }

  /// The latest firing delivered (handed to a sink) of the reminder `reminderID`'s requests.
  public func latestDelivery(reminderID: String) throws -> DeliveryRecord? {
    try read {
      let select = try connection.prepare(
        """
        SELECT \(EventStore.deliveryColumns) FROM deliveries
        WHERE reminder_id = ?1 AND forgotten = 0 AND attempt = 0
          AND (outcome = 'delivered' OR outcome = 'sending')
        ORDER BY occurrence DESC, id DESC LIMIT 1
        """)
      try select.bind(reminderID, at: 1)
      return try select.step() ? EventStore.delivery(from: select) : nil
    }
  }

  /// The alarms delivered since `since` that nobody answered: for each firing, its latest
  /// delivery (the attempt tells how often it rang).
  public func unansweredAlarms(since: Int64) throws -> [DeliveryRecord] {
    try read {
      let select = try connection.prepare(
        """
        SELECT \(EventStore.deliveryColumns) FROM deliveries d
        WHERE d.is_alarm = 1 AND d.forgotten = 0 AND d.occurrence >= ?1 AND d.attempt = (
            SELECT max(attempt) FROM deliveries
            WHERE request_id = d.request_id AND occurrence = d.occurrence)
          AND NOT EXISTS (
            SELECT 1 FROM answers a WHERE a.request_id = d.request_id AND a.occurrence = d.occurrence
              AND a.undone_at IS NULL)
          AND EXISTS (
            SELECT 1 FROM deliveries f WHERE f.request_id = d.request_id
              AND f.occurrence = d.occurrence AND f.attempt = 0
              AND (f.outcome = 'delivered' OR f.outcome = 'sending'))
        ORDER BY d.occurrence
        """)
      try select.bind(since, at: 1)
      var result: [DeliveryRecord] = []
      while try select.step() { result.append(EventStore.delivery(from: select)) }
      return result
    }
  }

  private static func delivery(from row: Statement) -> DeliveryRecord {
    let eventKind = row.text(at: 12)
    let metadata = eventKind.map { kind in
      RequestMetadata(
        eventKind: kind, reminderID: row.text(at: 13),
        lookBack: row.isNull(at: 16) ? nil : LookBack(code: row.int(at: 16)),
        isAlarm: row.int(at: 17) != 0,
        link: row.text(at: 14).map { RequestMetadata.Link(id: $0, name: row.text(at: 15) ?? $0) },
        actUntil: row.isNull(at: 22)
          ? nil : TimeOfDay(secondsSinceMidnight: Int(clamping: row.int(at: 22))))
    }
    let requestID = row.text(at: 1) ?? ""
    let occurrence = row.int(at: 2)
    return DeliveryRecord(
      id: row.int(at: 0),
      occurrence: Occurrence(requestID: requestID, at: occurrence, slot: slot(row, at: 20)),
      attempt: Int(row.int(at: 3)),
      outcome: DeliveryRecord.Outcome(rawValue: row.text(at: 4) ?? "") ?? .delivered,
      isLate: row.int(at: 5) != 0, decidedAt: row.int(at: 6),
      finishedAt: row.isNull(at: 7) ? nil : row.int(at: 7),
      request: NotificationRequest(
        id: requestID, origin: RequestOrigin(rawValue: row.text(at: 8) ?? "") ?? .learned,
        category: NotificationCategory.ID(rawValue: row.text(at: 9) ?? "") ?? .routineReminder,
        title: row.text(at: 10) ?? "", body: row.text(at: 11) ?? "", trigger: .date(occurrence),
        metadata: metadata),
      sink: row.text(at: 18), reason: row.text(at: 19),
      rule: row.text(at: 23).flatMap(SkipRule.init(rawValue:)), heldReason: row.text(at: 24),
      releasedAt: row.isNull(at: 25) ? nil : row.int(at: 25))
  }

  /// The firings held now (``DeliveryRecord/Outcome/held``), oldest first.
  public func heldDeliveries() throws -> [DeliveryRecord] {
    try read {
      let select = try connection.prepare(
        """
        SELECT \(EventStore.deliveryColumns) FROM deliveries
        WHERE outcome = 'held' AND forgotten = 0 ORDER BY occurrence, id
        """)
      var result: [DeliveryRecord] = []
      while try select.step() { result.append(EventStore.delivery(from: select)) }
      return result
    }
  }

  /// Releases held delivery `record` at `now`: it is being delivered (late), as a claim is.
  /// Returns the record, or `nil` when another run released or settled it first.
  public func releaseHeld(_ record: DeliveryRecord, sink: String, note: String?, at now: Int64)
    throws -> DeliveryRecord?
  {
    try write {
      let update = try connection.prepare(
        """
        UPDATE deliveries SET outcome = 'sending', late = 1, released_at = ?2, sink = ?3,
          reason = coalesce(?4, reason)
        WHERE id = ?1 AND outcome = 'held'
        """)
      try update.bind(record.id, at: 1)
      try update.bind(now, at: 2)
      try update.bind(sink, at: 3)
      try update.bind(note, at: 4)
      try update.step()
      guard connection.changes > 0 else { return nil }
      var released = record
      released.outcome = .sending
      released.isLate = true
      released.releasedAt = now
      released.sink = sink
      if let note { released.reason = note }
      return released
    }
  }

  /// Records what became of held delivery `id` without delivering it: missed (held past its
  /// time), or skipped by a rule (its act was logged meanwhile). Returns whether it was still
  /// held.
  @discardableResult
  public func settleHeld(
    id: Int64, outcome: DeliveryRecord.Outcome, reason: String, rule: SkipRule? = nil,
    at now: Int64
  ) throws -> Bool {
    try write {
      let update = try connection.prepare(
        """
        UPDATE deliveries SET outcome = ?2, reason = ?3, rule = ?4, finished_at = ?5,
          late = (?2 = 'missed')
        WHERE id = ?1 AND outcome = 'held'
        """)
      try update.bind(id, at: 1)
      try update.bind(outcome.rawValue, at: 2)
      try update.bind(reason, at: 3)
      try update.bind(rule?.rawValue, at: 4)
      try update.bind(now, at: 5)
      try update.step()
      return connection.changes > 0
    }
  }

  /// Forgets the delivery history (`clear --delivered`); returns how many deliveries it
  /// forgot. Deliveries of the last week keep only their claim (which firing, when, what became
  /// of it), with their words removed and hidden from the history: delivery looks back a week,
  /// and without the claim a clock set back would deliver a firing again. Older ones go. Answers
  /// stay: they keep a repeated answer from logging twice.
  @discardableResult
  public func clearDeliveries(now: Int64) throws -> Int {
    try write {
      let cut = now - DeliveryPolicy.horizonSeconds - 86_400
      let delete = try connection.prepare("DELETE FROM deliveries WHERE occurrence < ?")
      try delete.bind(cut, at: 1)
      try delete.step()
      var count = connection.changes
      let forget = try connection.prepare(
        """
        UPDATE deliveries SET forgotten = 1, title = '', body = '', reason = NULL, link_name = NULL
        WHERE forgotten = 0
        """)
      try forget.step()
      count += connection.changes
      return count
    }
  }

  /// Adds `note` to the reason of the delivery of `occurrence` (its latest attempt), and sets
  /// its outcome when given: what a background helper learned later (a desktop notification
  /// that could not be shown), where `routine history` shows it.
  public func noteDelivery(
    _ occurrence: Occurrence, _ note: String, outcome: DeliveryRecord.Outcome? = nil
  ) throws {
    try write {
      let update = try connection.prepare(
        """
        UPDATE deliveries
        SET reason = CASE WHEN reason IS NULL THEN ?3 ELSE reason || '; ' || ?3 END,
          outcome = coalesce(?4, outcome)
        WHERE id = (SELECT id FROM deliveries WHERE request_id = ?1 AND occurrence = ?2
          ORDER BY attempt DESC LIMIT 1)
        """)
      try update.bind(occurrence.requestID, at: 1)
      try update.bind(occurrence.at, at: 2)
      try update.bind(note, at: 3)
      try update.bind(outcome?.rawValue, at: 4)
      try update.step()
    }
  }
}

extension EventStore {
  /// Binds `slot` as its local day and seconds since midnight at `index` and `index + 1`.
  func bind(_ slot: FiringSlot?, to statement: Statement, at index: Int32) throws {
    // Bound even when `nil`: a reused statement keeps its earlier bindings.
    try statement.bind(slot.map { Int64($0.date.daysSince1970) }, at: index)
    try statement.bind(slot.map { Int64($0.time.secondsSinceMidnight) }, at: index + 1)
  }

  /// The slot in columns `index` and `index + 1`, when they hold one.
  static func slot(_ row: Statement, at index: Int32) -> FiringSlot? {
    guard !row.isNull(at: index), !row.isNull(at: index + 1) else { return nil }
    return FiringSlot(
      date: LocalDate(daysSince1970: Int(row.int(at: index))),
      time: TimeOfDay(secondsSinceMidnight: Int(row.int(at: index + 1))))
  }

  /// The slots of local days from `day` on whose firing was claimed, by request, each with the
  /// instant it was claimed at: what `agenda` needs to say a slot came already, in another zone.
  public func handledSlots(since day: LocalDate) throws -> [String: [FiringSlot: Int64]] {
    try read {
      let select = try connection.prepare(
        """
        SELECT request_id, local_day, slot, occurrence FROM deliveries
        WHERE attempt = 0 AND local_day >= ? AND slot IS NOT NULL
        """)
      try select.bind(Int64(day.daysSince1970), at: 1)
      var result: [String: [FiringSlot: Int64]] = [:]
      while try select.step() {
        guard let slot = EventStore.slot(select, at: 1) else { continue }
        result[select.text(at: 0) ?? "", default: [:]][slot] = select.int(at: 3)
      }
      return result
    }
  }

  /// Marks the answers that logged one of `eventIDs` undone at `now` (`routine undo`): their
}
