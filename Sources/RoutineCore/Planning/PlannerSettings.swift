/// What `routine plan` does, stored in the store and changed with `routine settings`.
public struct PlannerSettings: Hashable, Sendable {
  /// Whether smart reminders are on; turning them off clears the learned requests.
  public var isEnabled = true
  /// Routines with a confidence above this become reminders.
  public var threshold = 0.6
  /// How many minutes before the usual time a reminder fires.
  public var leadMinutes = 5
  /// Extra minutes before leaving home ("including a 10 min buffer"); 0 for none.
  public var bufferMinutes = 10
  /// The days of events a plan learns from.
  public var windowDays = 7
  /// The days of events routines on weekday sets (gym on Monday, Wednesday and Friday) are
  /// learned from; no more than ``windowDays`` learns none (see
  /// ``AnalysisConfiguration/weeklyDays``).
  public var weeklyDays = AnalysisConfiguration().weeklyDays
  /// The user's IANA zone; `nil` leaves it to `--tz`, then `$TZ`, then the system.
  public var timeZone: String?
  /// Minutes a firing may be late and still be delivered (after downtime); older ones are
  /// recorded as missed.
  public var graceMinutes = 15
  /// Minutes until a snoozed reminder comes back.
  public var snoozeMinutes = 5
  /// The locale whose clock (12 or 24 hours) reminder texts use (`en_US`, `de_DE`, `C`); `nil`
  /// until first recorded from the environment.
  public var locale: String?
  /// Whether reminders adapt to how they are answered (docs/reminders.md#reminders-that-listen);
  /// off, they fire as planned or defined, every time.
  public var adapts = true
  /// At most this many reminders a day, alarms and task reminders aside; 0 for no cap.
  public var dailyCap = 0
  /// Hold reminders while the desktop has had no input this many minutes, or its screen is
  /// locked (docs/delivery.md "Held while you are away"); 0 for never.
  public var holdWhileIdleMinutes = 0
  /// Hold reminders while the notification daemon is paused (do not disturb), for the
  /// notify-send sink.
  public var holdWhileDoNotDisturb = true
  /// A held reminder is delivered at most this many minutes after its time; later, it is
  /// recorded as missed.
  public var holdAtMostMinutes = 120
  /// Seconds to wait after the person comes back (or do not disturb ends) before delivering
  /// what was held.
  public var settleSeconds = 60
  /// Quiet hours: reminders that come due inside are held (alarms and tasks ring).
  public var quietHours: QuietHours?
  /// The alarm's sound: a sound theme name (`alarm-clock-elapsed`), a file, or `nil` for none
  /// (`settings --alarm-sound off`).
  public var alarmSound: String? = PlannerSettings.defaultAlarmSound

  /// The freedesktop sound theme's name for an alarm going off.
  public static let defaultAlarmSound = "alarm-clock-elapsed"

  /// The documented defaults.
  public init() {}

  /// The most requests pending at once (the limit the original design respected).
  public static let pendingLimit = 64

  /// The values each number may take (`routine settings` refuses others, and a store holding
  /// another is damaged): none is large enough to overflow an instant.
  public static let ranges: [String: ClosedRange<Int>] = [
    "leadMinutes": 0...720, "bufferMinutes": 0...240, "windowDays": 1...3660,
    "weeklyDays": 0...3660, "graceMinutes": 0...1440, "snoozeMinutes": 1...1440,
    "dailyCap": 0...1000, "holdWhileIdleMinutes": 0...1440, "holdAtMostMinutes": 1...1440,
    "settleSeconds": 0...3600,
  ]
}
