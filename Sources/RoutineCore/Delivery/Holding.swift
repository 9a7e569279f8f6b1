import Foundation

/// Quiet hours (`settings --quiet 21:00-07:30`): a daily wall-clock range in the user's zone,
/// wrapping midnight when it ends earlier than it starts. The start is inside, the end is not.
public struct QuietHours: Hashable, Sendable, CustomStringConvertible {
  /// When they begin.
  public var start: TimeOfDay
  /// When they end (not inside).
  public var end: TimeOfDay

  /// Quiet hours from `start` to `end`; `nil` when both are the same (no range, or all day:
  /// neither is what a person means, and "all day" would hold every reminder until it is
  /// missed).
  public init?(start: TimeOfDay, end: TimeOfDay) {
    guard start != end else { return nil }
    self.start = start
    self.end = end
  }

  /// Parses `HH:MM-HH:MM` (24-hour clock), as typed on the command line.
  public init?(parsing text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2,
      let start = TimeOfDay(parsing: QuietHours.trimmed(parts[0])),
      let end = TimeOfDay(parsing: QuietHours.trimmed(parts[1]))
    else { return nil }
    self.init(start: start, end: end)
  }

  /// `text` without spaces around it. By hand: every command that reads the settings parses
  /// the quiet hours, and Foundation's `trimmingCharacters(in: .whitespaces)` builds its
  /// character set first (a million instructions on Linux, 4% of a `deliver`).
  private static func trimmed(_ text: Substring) -> String {
    // Substring operations only: a lazy or reversed view would instantiate generic types'
    // metadata at run time, which costs as much as the character set did.
    var text = text
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return String(text)
  }

  /// Whether the wall-clock time `time` is inside.
  public func contains(_ time: TimeOfDay) -> Bool {
    let t = time.secondsSinceMidnight
    let s = start.secondsSinceMidnight
    let e = end.secondsSinceMidnight
    return s < e ? (t >= s && t < e) : (t >= s || t < e)
  }

  /// Whether the instant `at` is inside, on the wall clock of `zone`.
  public func contains(_ at: Int64, in zone: Zone) -> Bool {
    contains(TimeOfDay(secondsSinceMidnight: Int((at + zone.offset(at: at)) % 86_400)))
  }

  /// The first instant after `at` at which the quiet hours end, on the wall clock of `zone`
  /// (the end's slot, resolved as a firing is across a clock change: in a gap, the gap's end).
  /// When the clock goes back, the end passes twice and both count: at its second pass the
  /// wall clock has been inside the quiet hours again since the clock went back, and they end
  /// then, not a day later.
  public func nextEnd(after at: Int64, in zone: Zone) -> Int64 {
    let today = WallClock.localDate(at: at, in: zone)
    for offset in 0...2 {
      let resolution = WallClock.resolve(
        localSeconds: WallClock.localSeconds(on: today.adding(days: offset), at: end), in: zone)
      let candidates =
        if case .repeated(let first, let second) = resolution { [first, second] } else {
          [resolution.instant]
        }
      if let candidate = candidates.first(where: { $0 > at }) { return candidate }
    }
    return at + 86_400
  }

  /// `21:00-07:30`.
  public var description: String { "\(start)-\(end)" }
}

/// What the desktop said about the person when delivery looked (read by the shell: the X
/// screen saver, logind, the notification daemon; docs/delivery.md "Held while you are away").
public struct Presence: Hashable, Sendable {
  /// Where idleness was read ("the X screen saver extension on :0"); `nil` when no source is
  /// available: then nothing is held for idleness.
  public var source: String?
  /// Seconds since the last keyboard or pointer input, when the source knows.
  public var idleSeconds: Int64?
  /// Whether the screen is locked or its screen saver is on.
  public var isLocked: Bool
  /// The notification daemon that is paused (do not disturb), by name ("dunst"); `nil` when it
  /// is not, or nobody could tell.
  public var doNotDisturb: String?

  /// A reading.
  public init(
    source: String?, idleSeconds: Int64? = nil, isLocked: Bool = false,
    doNotDisturb: String? = nil
  ) {
    self.source = source
    self.idleSeconds = idleSeconds
    self.isLocked = isLocked
    self.doNotDisturb = doNotDisturb
  }

  /// Nothing known: nothing is held for the person's presence (fail-safe: deliver).
  public static let unknown = Presence(source: nil)
}

/// Why a firing is held.
public enum HoldReason: Hashable, Sendable, CustomStringConvertible {
  /// No input for at least this many minutes.
  case idle(minutes: Int)
  /// The screen is locked (or its screen saver is on).
  case locked
  /// The notification daemon is paused (its name).
  case doNotDisturb(String)
  /// Inside the quiet hours.
  case quietHours(QuietHours)

  /// "the screen was locked", in the past tense history uses.
  public var description: String {
    switch self {
    case .idle(let minutes): "no input for \(minutes) minute\(minutes == 1 ? "" : "s")"
    case .locked: "the screen was locked"
    case .doNotDisturb(let daemon): "do not disturb (\(daemon) paused)"
    case .quietHours(let hours): "quiet hours \(hours)"
    }
  }
}

/// What becomes of a held firing at a delivery run.
public enum HeldVerdict: Hashable, Sendable {
  /// Still held: the reason is still there, or the person came back less than the settle
  /// delay ago.
  case keep
  /// Deliver it now (late).
  case release
  /// Held past ``HoldRules/atMostSeconds`` after its time: recorded as missed.
  case missed
}

/// The rules of holding reminders while the person is away, busy or in quiet hours
/// (docs/delivery.md "Held while you are away"), as pure functions of the settings, what the
/// desktop said and the time.
public struct HoldRules: Hashable, Sendable {
  /// Hold while there has been no input this long (seconds); 0 turns idleness off.
  public var idleSeconds: Int64
  /// Hold while the notification daemon is paused.
  public var whileDoNotDisturb: Bool
  /// A held firing is delivered at most this long after its time, or missed.
  public var atMostSeconds: Int64
  /// After the reason ends, wait this long before delivering (so a reminder does not compete
  /// with everything else the instant the person sits down).
  public var settleSeconds: Int64
  /// Quiet hours, if any.
  public var quietHours: QuietHours?

  /// The rules of `settings`.
  public init(_ settings: PlannerSettings) {
    idleSeconds = Int64(settings.holdWhileIdleMinutes) * 60
    whileDoNotDisturb = settings.holdWhileDoNotDisturb
    atMostSeconds = Int64(settings.holdAtMostMinutes) * 60
    settleSeconds = Int64(settings.settleSeconds)
    quietHours = settings.quietHours
  }

  /// Whether the desktop needs asking (idleness or do not disturb is on).
  public var readsPresence: Bool { idleSeconds > 0 || whileDoNotDisturb }

  /// Whether `request`'s firings may be held: reminders, learned ones, snoozes and outlier
  /// alerts may; alarms and task reminders only when their reminder says so (`--hold on`); a
  /// reminder with `--hold off` never is.
  public static func mayHold(_ request: NotificationRequest) -> Bool {
    if let choice = request.metadata?.hold { return choice }
    return request.metadata?.isAlarm != true && request.category != .taskReminder
  }

  /// Why a firing that may be held is held at `now`, or `nil`. Quiet hours first (a known
  /// time), then the lock, idleness and do not disturb. A presence without a source holds
  /// nothing for idleness.
  public func reason(presence: Presence?, now: Int64, in zone: Zone) -> HoldReason? {
    if let quietHours, quietHours.contains(now, in: zone) { return .quietHours(quietHours) }
    guard let presence else { return nil }
    if idleSeconds > 0, presence.source != nil {
      if presence.isLocked { return .locked }
      if let idle = presence.idleSeconds, idle >= idleSeconds {
        return .idle(minutes: Int(idle / 60))
      }
    }
    if whileDoNotDisturb, let daemon = presence.doNotDisturb { return .doNotDisturb(daemon) }
    return nil
  }

  /// What becomes of a firing due at `dueAt` and held, at `now`: missed once it is more than
  /// ``atMostSeconds`` past its time (whatever the person does now); kept while a reason holds
  /// it (`reasonNow`: quiet hours that end past the limit make it missed at once) or until
  /// ``settleSeconds`` after `backSince`, the first run that saw no
  /// reason any more (so a person who sits down is not met by the reminder the same second);
  /// otherwise released.
  public func verdict(
    dueAt: Int64, now: Int64, reasonNow: HoldReason?, backSince: Int64, in zone: Zone
  ) -> HeldVerdict {
    if now - dueAt > atMostSeconds { return .missed }
    // Quiet hours end at a known time: one past the limit makes the firing missed now, not
    // hours later ("571 minutes late"), as the agenda foretold it.
    if case .quietHours(let hours) = reasonNow,
      hours.nextEnd(after: now, in: zone) - dueAt > atMostSeconds
    {
      return .missed
    }
    if reasonNow != nil { return .keep }
    if now - backSince < settleSeconds { return .keep }
    return .release
  }

  /// For a forecast (`agenda`, `pending`): when the quiet hours hold a firing at `at`, the
  /// instant they end and whether the firing would then be past ``atMostSeconds`` (missed);
  /// `nil` outside them. What the desktop will say is not known ahead, and not forecast.
  public func quietHold(at: Int64, in zone: Zone) -> (end: Int64, missed: Bool)? {
    guard let quietHours, quietHours.contains(at, in: zone) else { return nil }
    let end = quietHours.nextEnd(after: at, in: zone)
    return (end, end - at > atMostSeconds)
  }

  /// When a run should look again at a held firing due at `dueAt` (for `routine watch`):
  /// when it would be missed, when the quiet hours end, or when the settle delay after the
  /// person came back (`backSince`) is over; `pollSeconds` from `now` while the desktop may
  /// change.
  public func nextLook(
    dueAt: Int64, now: Int64, reasonNow: HoldReason?, backSince: Int64?, in zone: Zone,
    pollSeconds: Int64
  ) -> Int64 {
    var next = dueAt + atMostSeconds + 1
    switch reasonNow {
    case .quietHours(let hours):
      // The desktop can also change meanwhile (do not disturb, idleness): poll when it is read.
      next = min(next, hours.nextEnd(after: now, in: zone))
    case .some: next = min(next, now + pollSeconds)
    case nil: next = min(next, (backSince ?? now) + settleSeconds)
    }
    return max(next, now + 1)
  }
}
