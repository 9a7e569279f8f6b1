import Foundation
import RoutineCore
import RoutineStore

/// `routine await-answer ID --occurrence TIME -- PROGRAM ARGS...`: routine's own plumbing for
/// the notify-send sink. Runs the program (`notify-send --wait ...`), and answers the action it
/// prints. Started detached, with nobody to read its output: a failure is recorded with the
/// delivery, where 'routine history' shows it.
///
/// For an alarm (`--alarm RING`), the alarm's sound plays beside the notification until it is
/// answered (AlarmSound, docs/delivery.md): the sound belongs to this desktop sink, which
/// alone has a person at the machine to hear it.
enum AwaitAnswerCommand: Command {
  static let spec = CommandSpec(
    name: "await-answer",
    summary:
      "Wait for a desktop notification's button and answer it (started by the notify-send sink).",
    arguments: [
      ArgumentSpec("ID", "The notification's identifier."),
      ArgumentSpec("COMMAND", "The program that waits and prints the action.", repeatable: true),
    ],
    options: [occurrence.spec, alarm.spec],
    globals: ["store", "now", "tz"], isHidden: true)

  /// `--occurrence TIME`: the firing, as delivery stamps it (ISO 8601 with offset).
  static let occurrence = RespondCommand.occurrence.describing("The firing.")
  /// `--alarm RING`: the notification is an alarm's ring RING (0 the first, as delivery counts
  /// attempts): its sound plays until it is answered, at most until the next ring.
  static let alarm = Option(
    "alarm", .integer("RING", in: 0...Reminder.alarmRepeats),
    "The notification is an alarm's ring RING (0 the first): its sound plays until it is answered."
  )

  static func run(_ context: Context) throws -> ExitCode {
    let words = context.arguments.arguments
    let id = words[0]
    guard words.count >= 2 else { throw UsageError("missing COMMAND", command: spec.name) }
    let occurrence = context.arguments.text(Self.occurrence).flatMap(Timestamp.init(iso8601:))
    let firing = occurrence.map { Occurrence(requestID: id, at: $0.secondsSince1970) }
    let ring = try context.arguments.value(alarm).flatMap { attempt in
      firing.flatMap { startRing(context, firing: $0, attempt: attempt) }
    }
    let result: ChildProcess.Finished
    do {
      defer { ring.map { finishRing($0, context: context) } }
      result = try ChildProcess.run(
        words[1], Array(words.dropFirst(2)), environment: context.environment.variables,
        input: Data(), timeout: 7 * 86_400)
    } catch {
      if let firing {
        try context.openStore().noteDelivery(
          firing, "\(words[1]) failed: \(ErrorReport.describe(error).1)", outcome: .failed)
      }
      throw error
    }
    guard result.status == 0 else {
      // The notification was never shown (no daemon, a bad argument): history says so.
      let detail = result.errors.split(separator: "\n").first.map(String.init) ?? ""
      if let firing {
        try context.openStore().noteDelivery(
          firing,
          "\((words[1] as NSString).lastPathComponent) exited with status \(result.status)"
            + (detail.isEmpty ? "" : ": \(detail)"), outcome: .failed)
      }
      return .ioError
    }
    let action = result.output.split(separator: "\n").first.map {
      $0.trimmingBlanks
    }
    guard let action, !action.isEmpty else { return .ok }
    let store = try context.openStore()
    // The person answered now, whatever --now the delivery ran with.
    let now = Int64(context.environment.clock().timeIntervalSince1970.rounded(.down))
    for attempt in 0..<5 {
      do {
        _ = try Responder(store: store, context: context).answer(
          id: id, action: action, occurrence: occurrence?.secondsSince1970, now: now)
        return .ok
      } catch let error as StoreError where attempt < 4 && error.isBusy {
        continue
      }
    }
    return .ok
  }

  /// A ring under way, and the firing it rings for.
  struct Ring {
    var sound: AlarmSoundRing
    var firing: Occurrence
  }

  /// Starts the alarm's sound for `firing`'s ring `attempt`, as the store's settings say; `nil`
  /// when it plays nothing (off, no player: a silence not chosen is noted with the delivery).
  /// A store that cannot be read plays the default sound: an alarm is heard whatever else
  /// fails.
  static func startRing(_ context: Context, firing: Occurrence, attempt: Int) -> Ring? {
    let store = try? context.openExistingStore()
    let settings = (try? store?.settings()) ?? PlannerSettings()
    switch AlarmSound.plan(setting: settings.alarmSound, environment: context.environment.variables)
    {
    case .silent(let reason, let isChosen):
      if !isChosen { try? store?.noteDelivery(firing, "rang silently: \(reason)") }
      return nil
    case .play(let sound):
      let kind =
        (try? store?.pendingRequest(id: firing.requestID, clock: context.clockStyle(settings)))??
        .actKind
      // Until just before the next ring (the rings are due every alarmInterval minutes from the
      // firing, whenever delivery ran): never two at once.
      let interval = Int64(Reminder.alarmInterval * 60)
      let now = Int64(context.environment.clock().timeIntervalSince1970)
      let untilNext = firing.at + Int64(attempt + 1) * interval - now - 2
      let watch = AlarmAnswerWatch(
        path: try? context.storePath(), firing: firing, kind: kind, clock: context.environment.clock
      )
      let ring = AlarmSoundRing(
        sound: sound, limit: TimeInterval(min(interval, max(10, untilNext))),
        environment: context.environment.variables, isAnswered: watch.isAnswered)
      ring.start()
      return Ring(sound: ring, firing: firing)
    }
  }

  /// Stops `ring` (the notification was answered or closed) and notes with the delivery a
  /// sound that could not be played: the delivery itself stands.
  static func finishRing(_ ring: Ring, context: Context) {
    ring.sound.stop()
    guard case .failed(let problem) = ring.sound.wait() else { return }
    try? context.openExistingStore()?.noteDelivery(
      ring.firing, "the alarm's sound could not be played: \(problem)")
  }
}

/// Whether an alarm's firing is answered, or its act logged since it fired (as
/// DeliveryPolicy.skip stops its further rings): asked about once a second by the ring's
/// thread, on a connection of its own.
final class AlarmAnswerWatch: @unchecked Sendable {
  let path: String?
  let firing: Occurrence
  let kind: EventKind?
  let clock: @Sendable () -> Date
  private var store: EventStore?

  init(path: String?, firing: Occurrence, kind: EventKind?, clock: @escaping @Sendable () -> Date) {
    self.path = path
    self.firing = firing
    self.kind = kind
    self.clock = clock
  }

  /// Whether the ring should stop. A store that cannot be read says no: the alarm sounds on.
  func isAnswered() -> Bool {
    guard let path else { return false }
    do {
      if store == nil { store = try EventStore(path: path, creating: false) }
      guard let store else { return false }
      if try store.answers(to: firing).contains(where: { $0.undoneAt == nil }) { return true }
      guard let kind else { return false }
      let now = Int64(clock().timeIntervalSince1970)
      return try !store.eventTimes(countingAs: kind, from: firing.at, to: max(now, firing.at))
        .isEmpty
    } catch {
      return false
    }
  }
}
