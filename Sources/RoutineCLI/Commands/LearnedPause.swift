import Foundation
import RoutineCore
import RoutineStore

/// Learned reminders pause while nothing is logged (``LoggingSilence``; docs/analytics.md,
/// "When logging stops"): the nightly `plan` plans none and says why, and the next logged event
/// plans again at once, so that they do not wait for the next night.
enum LearnedPause {
  /// The state the plan keeps: the date of the last event when it paused, empty when it did not.
  static let stateKey = "learned_paused_since"

  /// The silence at `now`, from the store's last event up to then; `nil` without events.
  static func silence(_ store: EventStore?, now: Int64, zone: Zone) throws -> LoggingSilence? {
    guard let store, let last = try store.lastLoggedDate(notAfter: now) else { return nil }
    return LoggingSilence(lastLogged: last, today: WallClock.localDate(at: now, in: zone))
  }

  /// The last date with an event when the last plan paused the learned reminders; `nil` when
  /// it did not (or there is no store).
  static func pausedSince(_ store: EventStore?) throws -> LocalDate? {
    guard let text = try store?.state(stateKey) else { return nil }
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return nil }
    return LocalDate(year: parts[0], month: parts[1], day: parts[2])
  }

  /// The pause's sentence when the last plan paused the learned reminders.
  static func message(_ store: EventStore?) throws -> String? {
    try pausedSince(store).map { LoggingSilence.pauseMessage(lastLogged: $0) }
  }

  /// After events were logged, inside the caller's transaction: when the last plan paused the
  /// learned reminders, plans again. Returns the line that says they are back.
  static func resume(
    _ store: EventStore, settings: PlannerSettings, zone: Zone, now: Int64, context: Context
  ) throws -> String? {
    guard let since = try store.state(stateKey), !since.isEmpty else { return nil }
    let outcome = try PlanCommand.plan(
      store, settings: settings, zone: zone, now: Date(timeIntervalSince1970: Double(now)),
      dryRun: false, context: context)
    guard outcome.silence == nil else { return nil }
    return "Learned reminders are back (nothing had been logged since \(since)): "
      + "\(counted(outcome.wanted.count, "learned request")) planned."
  }
}
