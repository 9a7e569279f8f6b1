/// A rule that kept a firing from being delivered (docs/reminders.md).
public enum SkipRule: String, Sendable, CaseIterable, Comparable {
  /// Its kind was already logged in its look-back window (the forward check).
  case alreadyDone = "already-done"
  /// A cancellation recorded when the activity was logged.
  case cancelled
  /// A reminder you defined for the same act fires near it that day.
  case superseded
  /// Ignored or dismissed several times in a row: it fires on fewer days for now.
  case backingOff = "backing-off"
  /// Done on your own on most recent days: it waits, and checks in only when the act is missed.
  case paused
  /// The day's cap of reminders was reached.
  case dailyCap = "daily-cap"

  /// In declaration order.
  public static func < (lhs: SkipRule, rhs: SkipRule) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }

  /// Whether the act was done (the rule found it in the log): such a day counts as done
  /// without a prompt.
  public var meansDone: Bool { self == .alreadyDone || self == .cancelled }
}

/// What delivery recorded about a firing, as the core sees it.
public enum FiringRecordState: Hashable, Sendable {
  /// Handed to the sink (or claimed for it: an interrupted run leaves it so).
  case delivered
  /// Not delivered by a rule.
  case skipped(SkipRule)
  /// Older than the grace period when delivery ran (the machine was off or asleep).
  case missed
  /// The sink failed, or the run was interrupted before the sink confirmed.
  case failed
}

/// What became of one firing, decided in one place (``FiringOutcome/classify(_:)``) for
/// `history`, `why`, the report, every `--json` and adaptation alike.
public enum FiringOutcome: Hashable, Sendable {
  /// The act followed: an answer that does it ("I'm on it", "Done", a quick-log level, "Start"),
  /// or its kind logged after the firing within its act window. `minutes` after the firing.
  case acted(minutes: Int)
  /// Snoozed, then acted on (an answer to the snoozed copy, or the kind logged) within the act
  /// window.
  case snoozedThenActed(minutes: Int)
  /// Dismissed, and not done in its act window.
  case dismissed
  /// No answer and no act in its act window.
  case ignored
  /// Delivered although its kind had been logged earlier in its window: it should not have
  /// fired (the event came in late, or was logged with an earlier time).
  case preEmpted(doneAt: Int64)
  /// Not delivered by a rule.
  case skipped(SkipRule)
  /// Not delivered: the machine was off or asleep, or the sink failed. Counted against
  /// nothing.
  case notDelivered
  /// Delivered, and its act window is still open without an answer: too early to say.
  case open

  /// The word `history` and `--json` use: `acted`, `snoozed-then-acted`, `dismissed`,
  /// `ignored`, `pre-empted`, `skipped`, `not-delivered`, `open`.
  public var name: String {
    switch self {
    case .acted: "acted"
    case .snoozedThenActed: "snoozed-then-acted"
    case .dismissed: "dismissed"
    case .ignored: "ignored"
    case .preEmpted: "pre-empted"
    case .skipped: "skipped"
    case .notDelivered: "not-delivered"
    case .open: "open"
    }
  }

  /// Whether the firing was delivered and its act followed it (answered or logged).
  public var isActed: Bool {
    switch self {
    case .acted, .snoozedThenActed: true
    default: false
    }
  }

  /// Whether it was delivered and nothing came of it: ignored or dismissed.
  public var isUnheeded: Bool { self == .ignored || self == .dismissed }

  /// The actions that do the act a notification asks for.
  public static let doingActions: Set<String> = [
    NotificationCategory.onIt.id, NotificationCategory.done.id, "start", "steady", "easy", "wild",
  ]

  /// The facts about one firing.
  public struct Facts: Hashable, Sendable {
    /// When it fired.
    public var firing: Int64
    /// What delivery recorded.
    public var state: FiringRecordState
    /// The answers to it and to its snoozed copies, in the order given (undone ones left out).
    public var answers: [PriorAnswer]
    /// Whether it is tied to an event kind (``NotificationRequest/actKind``): only then does a
    /// logged event count.
    public var isTiedToKind: Bool
    /// The times of the events of its kind within its act window (``ActWindow``).
    public var acts: [Int64]
    /// Its act window.
    public var window: ClosedRange<Int64>
    /// Now: a firing whose window is still open, unanswered, is ``FiringOutcome/open``.
    public var now: Int64

    /// Facts.
    public init(
      firing: Int64, state: FiringRecordState, answers: [PriorAnswer] = [],
      isTiedToKind: Bool, acts: [Int64] = [], window: ClosedRange<Int64>, now: Int64
    ) {
      self.firing = firing
      self.state = state
      self.answers = answers
      self.isTiedToKind = isTiedToKind
      self.acts = acts
      self.window = window
      self.now = now
    }
  }

  /// What became of a firing:
  /// - not delivered (missed, failed): ``notDelivered``; skipped by a rule: ``skipped(_:)``;
  /// - delivered after its kind was logged earlier in its window: ``preEmpted(doneAt:)``;
  /// - an answer that does the act, or the kind logged after the firing in its window:
  ///   ``acted(minutes:)``, or ``snoozedThenActed(minutes:)`` after a snooze;
  /// - dismissed without the act: ``dismissed``;
  /// - otherwise ``open`` while the window lasts, then ``ignored``.
  public static func classify(_ facts: Facts) -> FiringOutcome {
    switch facts.state {
    case .missed, .failed: return .notDelivered
    case .skipped(let rule): return .skipped(rule)
    case .delivered: break
    }
    let answers = facts.answers.filter { !$0.isUndone }
    let acts = facts.isTiedToKind ? facts.acts.filter { facts.window.contains($0) } : []
    if let before = acts.filter({ $0 < facts.firing }).max() { return .preEmpted(doneAt: before) }
    let snoozed = answers.contains { $0.action == NotificationCategory.snooze.id }
    let answeredAct = answers.first { doingActions.contains($0.action) }?.answeredAt
    let loggedAct = acts.filter { $0 >= facts.firing }.min()
    if let act = [answeredAct, loggedAct].compactMap({ $0 }).min() {
      let minutes = Int(max(0, act - facts.firing) / 60)
      return snoozed ? .snoozedThenActed(minutes: minutes) : .acted(minutes: minutes)
    }
    if answers.contains(where: { $0.action == NotificationCategory.dismiss.id }) {
      return .dismissed
    }
    return facts.now < facts.window.upperBound ? .open : .ignored
  }
}
