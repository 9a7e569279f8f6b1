import RoutineCore
import RoutineStore

/// One-time notifications that are over (issue 30): a one-time reminder that fired, a task's
/// reminders after its due time. `reminders` and `pending` leave them out unless `--all` asks;
/// they stay in the store for `history`, `why` and `undo`.
///
/// Over means: it will not fire again, and its firing was decided by delivery (delivered,
/// answered, missed or skipped), or is more than a day past when nothing delivered it (a store
/// whose reminders are read from a calendar export, say). Until then it is listed, so that a
/// firing a sleeping laptop has not yet delivered is not hidden before `deliver` judges it.
enum UsedUp {
  /// How long after its firing an undelivered one-time notification is still listed.
  static let undeliveredFor: Int64 = 86_400

  /// Whether `requests` (a reminder's, or one request) are all over at `now`. None at all (a
  /// task without a due time) is not over.
  static func isOver(
    _ requests: [NotificationRequest], store: EventStore?, now: Int64, zone: Zone
  ) throws -> Bool {
    guard !requests.isEmpty else { return false }
    for request in requests {
      if request.trigger.nextFiring(after: now, in: zone) != nil { return false }
      let firing: Int64?
      switch request.trigger {
      case .date(let at): firing = at
      case .local(let date, let time): firing = WallClock.instant(on: date, at: time, in: zone)
      case .calendar: firing = nil
      }
      if let firing, firing < now - undeliveredFor { continue }
      guard try store?.latestDelivery(requestID: request.id, occurrence: firing) != nil else {
        return false
      }
    }
    return true
  }

  /// The line under a listing that left `count` out.
  static func footnote(_ count: Int, command: String) -> String {
    "\(counted(count, "used-up one-time reminder")) not shown ('routine \(command) --all' lists \(count == 1 ? "it" : "them"))."
  }
}
