import RoutineCore

/// A kind with how much of the log it holds.
public struct KindSummary: Hashable, Sendable {
  /// The kind.
  public var kind: EventKind
  /// Its events.
  public var count: Int
  /// The earliest and latest, when there are any.
  public var first: Timestamp?
  /// The latest.
  public var last: Timestamp?
}

/// What renaming a kind did.
public enum KindRenaming: Hashable, Sendable {
  /// The kind has a new name (or only a new spelling of the same name); its events stay.
  case renamed(from: EventKind, to: EventKind, events: Int)
  /// The new name was another kind's: the events moved there. Events the other kind already
  /// held (same instant, value and note) were dropped as duplicates.
  case merged(from: EventKind, into: EventKind, moved: Int, duplicates: Int)
  /// The kind had no events, only days marked done (Loop Habit Tracker's): they carry the new
  /// name, a day the new name holds already kept once.
  case daysDone(from: EventKind, to: EventKind, days: Int)
}

extension EventStore {
  /// Every kind that has events, with their count and time span, by name.
  public func kindSummaries() throws -> [KindSummary] {
    try read {
      let kinds = try kinds()
      // One pass over the log in table order, tallied by kind id: grouping in SQL sorted every
      // event, twice, and an index by kind would cost every import (docs/performance.md).
      // Kind ids are the kinds table's row numbers: an array indexed by them, not a hash.
      let largest = Int(kinds.keys.max() ?? 0)
      var counts = [Int](repeating: 0, count: largest + 1)
      var firsts = [Timestamp](
        repeating: Timestamp(secondsSince1970: .max, utcOffsetSeconds: 0), count: largest + 1)
      var lasts = [Timestamp](
        repeating: Timestamp(secondsSince1970: .min, utcOffsetSeconds: 0), count: largest + 1)
      let scan = try connection.prepare("SELECT kind_id, at, utc_offset FROM events")
      while try scan.step() {
        let id = Int(scan.int(at: 0))
        guard id >= 0, id <= largest else { continue }
        // Clamped first, so that the sentinels above (outside what is written) always give way.
        let stamp = Timestamp.stored(at: scan.int(at: 1), offset: scan.int(at: 2))
        counts[id] += 1
        // The earliest and the latest in table order among equals.
        if stamp.secondsSince1970 < firsts[id].secondsSince1970 { firsts[id] = stamp }
        if stamp.secondsSince1970 > lasts[id].secondsSince1970 { lasts[id] = stamp }
      }
      // A kind whose events were all deleted or merged away is no longer listed.
      return kinds.compactMap { id, kind in
        let index = Int(id)
        guard index >= 0, index <= largest, counts[index] > 0 else { return nil }
        return KindSummary(
          kind: kind, count: counts[index], first: firsts[index], last: lasts[index])
      }
      .sorted { $0.kind.key < $1.kind.key }
    }
  }

  /// The stored kind `kind` names (with its stored display name), if any.
  public func storedKind(_ kind: EventKind) throws -> EventKind? {
    try read {
      let select = try connection.prepare("SELECT name FROM kinds WHERE key = ?")
      try select.bind(kind.key, at: 1)
      guard try select.step() else { return nil }
      return EventKind(name: select.text(at: 0) ?? kind.name, key: kind.key)
    }
  }

  /// Renames the stored kind `old` to `new`, in one transaction. When `new` is another stored
  /// kind, the two merge: `old`'s events move to `new` (duplicates dropped) and `old` is gone.
  /// Requests that name `old` are changed to name `new`, and its days marked done move with it.
  /// A kind with days marked done and no events is renamed too (``KindRenaming/daysDone``).
  /// Returns `nil` when `old` has neither events nor days done.
  public func renameKind(_ old: EventKind, to new: EventKind) throws -> KindRenaming? {
    defer { forgetKindIDs() }
    return try write {
      func id(_ key: String) throws -> Int64? {
        let select = try connection.prepare("SELECT id FROM kinds WHERE key = ?")
        try select.bind(key, at: 1)
        return try select.step() ? select.int(at: 0) : nil
      }
      let days = try dayMarkCounts()[old.key] ?? 0
      guard let oldID = try id(old.key), case let events = try countEvents(kindID: oldID),
        events > 0
      else {
        guard days > 0 else { return nil }
        let stored = try dayMarkedKind(old) ?? old
        let target = try storedKind(new) ?? dayMarkedKind(new) ?? new
        try renameRequests(from: old, to: target)
        try renameDayMarks(from: old, to: target)
        return .daysDone(from: stored, to: target, days: days)
      }
      let stored = try storedKind(old) ?? old
      let result: KindRenaming
      if new.key != old.key, let newID = try id(new.key) {
        let target = try storedKind(new) ?? new
        // Rows that would duplicate one of the target's stay behind and are deleted.
        let move = try connection.prepare(
          "UPDATE OR IGNORE events SET kind_id = ? WHERE kind_id = ?")
        try move.bind(newID, at: 1)
        try move.bind(oldID, at: 2)
        try move.step()
        let moved = connection.changes
        let drop = try connection.prepare("DELETE FROM events WHERE kind_id = ?")
        try drop.bind(oldID, at: 1)
        try drop.step()
        let remove = try connection.prepare("DELETE FROM kinds WHERE id = ?")
        try remove.bind(oldID, at: 1)
        try remove.step()
        result = .merged(from: stored, into: target, moved: moved, duplicates: events - moved)
        try renameRequests(from: old, to: target)
        try renameDayMarks(from: old, to: target)
      } else {
        let update = try connection.prepare("UPDATE kinds SET key = ?, name = ? WHERE id = ?")
        try update.bind(new.key, at: 1)
        try update.bind(new.name, at: 2)
        try update.bind(oldID, at: 3)
        try update.step()
        result = .renamed(from: stored, to: new, events: events)
        try renameRequests(from: old, to: new)
        try renameDayMarks(from: old, to: new)
      }
      return result
    }
  }

  private func countEvents(kindID: Int64) throws -> Int {
    let count = try connection.prepare("SELECT count(*) FROM events WHERE kind_id = ?")
    try count.bind(kindID, at: 1)
    _ = try count.step()
    return Int(count.int(at: 0))
  }

  /// Points requests whose event kind is `old` at `new`, so that answering them logs `new`.
  private func renameRequests(from old: EventKind, to new: EventKind) throws {
    let select = try connection.prepare(
      "SELECT id, event_kind FROM requests WHERE event_kind IS NOT NULL")
    var ids: [String] = []
    while try select.step() {
      if let name = select.text(at: 1), EventKind(name)?.key == old.key {
        ids.append(select.text(at: 0) ?? "")
      }
    }
    let update = try connection.prepare("UPDATE requests SET event_kind = ? WHERE id = ?")
    for id in ids {
      update.reset()
      try update.bind(new.name, at: 1)
      try update.bind(id, at: 2)
      try update.step()
    }
  }
}
