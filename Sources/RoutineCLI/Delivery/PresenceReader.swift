import Foundation
import RoutineCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads what the desktop says about the person: how long there has been no input, whether the
/// screen is locked, whether the notification daemon is paused (docs/delivery.md "Held while
/// you are away"). Fail-safe: a source that errors counts as "present", so the reminder is
/// delivered; its problem is returned for the record.
public enum PresenceReader {
  /// How long a whole reading may take, at most, whatever the sources do.
  static let budget: TimeInterval = 2
  /// How long one D-Bus question may take, at most.
  static let questionLimit: TimeInterval = 1

  /// Reads what the desktop says. `idle`: idleness and the lock, from the first source
  /// available (the X screen saver extension, logind, org.freedesktop.ScreenSaver);
  /// `doNotDisturb`: whether the notification daemon is paused. Never throws and returns within
  /// about two seconds: a source that errors counts as present, and its problem is returned.
  public static func read(environment: [String: String], idle: Bool, doNotDisturb: Bool) -> (
    presence: Presence, problems: [String]
  ) {
    let deadline = Deadline(seconds: budget)
    var presence = Presence.unknown
    var problems: [String] = []
    if idle {
      let found = firstIdleSource(environment, deadline)
      presence = found.presence ?? .unknown
      problems = found.problems
    }
    if doNotDisturb {
      switch readDoNotDisturb(environment, deadline) {
      case .read(let daemon): presence.doNotDisturb = daemon.isPaused ? daemon.name : nil
      case .failed(let problem): problems.append(problem)
      case .unavailable: break
      }
    }
    return (presence, problems)
  }

  /// What `routine doctor` says about one kind of reading: the source it would use (`nil`:
  /// none), and what it reads now or why there is none.
  struct Diagnosis: Equatable {
    var source: String?
    var text: String
  }

  /// For `routine doctor`: which idle source would be used here and what it reads now (or why
  /// none is available: then nothing is held for idleness), and the same for do not disturb.
  static func diagnose(environment: [String: String]) -> (
    idle: Diagnosis, doNotDisturb: Diagnosis
  ) {
    let deadline = Deadline(seconds: budget * 2)
    let found = firstIdleSource(environment, deadline)
    let idle =
      found.presence.map { Diagnosis(source: $0.source, text: describe($0)) }
      ?? Diagnosis(
        source: nil,
        text:
          "no source of idleness (\(found.reasons.joined(separator: "; "))): nothing is held for idleness"
      )
    let doNotDisturb: Diagnosis
    switch readDoNotDisturb(environment, deadline) {
    case .read(let daemon):
      doNotDisturb = Diagnosis(
        source: daemon.name, text: "\(daemon.name) is \(daemon.isPaused ? "" : "not ")paused")
    case .failed(let problem), .unavailable(let problem):
      doNotDisturb = Diagnosis(
        source: nil, text: "\(problem): nothing is held for do not disturb")
    }
    return (idle, doNotDisturb)
  }

  /// The first idle source that answers, in order; the problems of those that failed before
  /// it, and why each source before it did not answer (problems and absences, in order).
  private static func firstIdleSource(_ environment: [String: String], _ deadline: Deadline) -> (
    presence: Presence?, problems: [String], reasons: [String]
  ) {
    var problems: [String] = []
    var reasons: [String] = []
    for source in IdleSource.allCases {
      switch source.read(environment, deadline) {
      case .read(let presence): return (presence, problems, reasons)
      case .failed(let problem):
        problems.append(problem)
        reasons.append(problem)
      case .unavailable(let reason): reasons.append(reason)
      }
    }
    return (nil, problems, reasons)
  }

  /// "the X screen saver extension on :0: no input for 12 s, screen not locked".
  static func describe(_ presence: Presence) -> String {
    let idle = presence.idleSeconds.map { "no input for \($0) s" } ?? "idleness unknown"
    return
      "\(presence.source ?? "nothing"): \(idle), screen \(presence.isLocked ? "locked" : "not locked")"
  }

  /// What one source gave.
  enum Reading<Value> {
    /// It answered.
    case read(Value)
    /// It is not there (no display, no such service): the next one is asked, nothing is
    /// recorded. Why, as a phrase, for `routine doctor`.
    case unavailable(String)
    /// It is there but failed (timed out, answered nonsense): the problem, recorded.
    case failed(String)
  }

  /// A point in time after which no source is asked any more.
  struct Deadline {
    let end: Date

    init(seconds: TimeInterval) { end = Date().addingTimeInterval(seconds) }

    /// What is left for one question, at most ``PresenceReader/questionLimit``; `nil` when
    /// nothing is.
    var limit: TimeInterval? {
      let left = end.timeIntervalSinceNow
      return left > 0.05 ? min(left, PresenceReader.questionLimit) : nil
    }
  }

  /// Where idleness can come from, in the order they are tried.
  enum IdleSource: CaseIterable {
    case xScreenSaver
    case logind
    case screenSaverService

    func read(_ environment: [String: String], _ deadline: Deadline) -> Reading<Presence> {
      switch self {
      case .xScreenSaver: readX(environment, deadline)
      case .logind: readLogind(environment, deadline)
      case .screenSaverService: readScreenSaverService(environment, deadline)
      }
    }
  }

  /// The X screen saver extension on `DISPLAY`: needs the variable (and the cookie: `XAUTHORITY`
  /// or `~/.Xauthority`), which cron does not set.
  ///
  /// Xlib waits for the server without a timeout: a server that accepts the connection and
  /// never answers (stopped, or stuck) would hold delivery. The reading runs on a thread of its
  /// own; past the time left, it is abandoned (the thread stays blocked until the server
  /// answers or goes away) and counts as a problem.
  static func readX(_ environment: [String: String], _ deadline: Deadline) -> Reading<Presence> {
    guard let display = environment["DISPLAY"], !display.isEmpty else {
      return .unavailable("DISPLAY is not set, so the X screen saver extension cannot be asked")
    }
    guard let limit = deadline.limit else {
      return .failed(outOfTime("the X screen saver extension"))
    }
    let answer = XAnswer()
    answer.work = { XScreenSaver.read(display: display, environment: environment) }
    // A thread of its own, started directly: a hop to a dispatch queue in `deliver` waited
    // 10 to 30 ms for a worker (measured with strace), a Foundation Thread a millisecond or
    // more to set up; pthread_create starts it within microseconds.
    guard startDetachedThread(answer) else {
      return .failed("a thread to ask the X server on \(display) could not be started")
    }
    guard answer.done.wait(timeout: .now() + limit) == .success, let result = answer.result else {
      return .failed(
        "the X server on \(display) did not answer within \(Int(limit.rounded(.up))) s"
      )
    }
    switch result {
    case .success(let reading):
      return .read(
        Presence(
          source: "the X screen saver extension on \(display)",
          idleSeconds: Int64(reading.idleMilliseconds / 1000), isLocked: reading.isOn))
    case .failure(let unavailable):
      return .unavailable(unavailable.reason)
    }
  }

  /// What the thread that asks the X server hands back; read only after `done` is signalled.
  private final class XAnswer: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var work: (() -> Result<XScreenSaver.Reading, XScreenSaver.Unavailable>)?
    var result: Result<XScreenSaver.Reading, XScreenSaver.Unavailable>?

    func run() {
      result = work?()
      done.signal()
    }
  }

  /// Runs `answer` on a detached POSIX thread (retained until it ends: an abandoned reading
  /// keeps its thread blocked on the server, and must not touch freed memory).
  private static func startDetachedThread(_ answer: XAnswer) -> Bool {
    let context = Unmanaged.passRetained(answer).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let started = pthread_create(
      &thread, nil,
      { pointer in
        #if canImport(Glibc)
          let answer = Unmanaged<XAnswer>.fromOpaque(pointer!).takeRetainedValue()
        #else
          let answer = Unmanaged<XAnswer>.fromOpaque(pointer).takeRetainedValue()
        #endif
        answer.run()
        return nil
      }, context)
    guard started == 0 else {
      Unmanaged<XAnswer>.fromOpaque(context).release()
      return false
    }
    #if canImport(Glibc)
      pthread_detach(thread)
    #else
      if let thread { pthread_detach(thread) }
    #endif
    return true
  }

  /// logind's idle and lock hints of the session `auto` (the caller's, or the user's display
  /// session: also from cron) on the system bus. The desktop sets `IdleHint` after its own idle
  /// delay, so the idleness read here starts late by that delay, and is 0 while it is not set.
  static func readLogind(_ environment: [String: String], _ deadline: Deadline)
    -> Reading<Presence>
  {
    guard let limit = deadline.limit else { return .failed(outOfTime("logind")) }
    let reply = DBusQuery.call(
      .system, destination: "org.freedesktop.login1",
      path: "/org/freedesktop/login1/session/auto",
      method: "org.freedesktop.DBus.Properties.GetAll",
      arguments: ["org.freedesktop.login1.Session"],
      environment: environment, limit: limit)
    switch reply {
    case .failure(let failure) where failure.isAbsence:
      return .unavailable("logind cannot tell (\(failure.description))")
    case .failure(let failure):
      return .failed("logind did not answer: \(failure.description)")
    case .success(let values):
      return logindPresence(values, nowMicroseconds: realtimeMicroseconds()).map { .read($0) }
        ?? .failed("logind's reply had no IdleHint, IdleSinceHint or LockedHint")
    }
  }

  /// The presence logind's session properties (`GetAll`, flattened) describe at `now`
  /// (microseconds of `CLOCK_REALTIME`, the clock of `IdleSinceHint`).
  static func logindPresence(_ values: [DBusQuery.Value], nowMicroseconds: Int64) -> Presence? {
    guard let idleHint = DBusQuery.value(after: "IdleHint", in: values)?.bool,
      let since = DBusQuery.value(after: "IdleSinceHint", in: values)?.integer,
      let locked = DBusQuery.value(after: "LockedHint", in: values)?.bool
    else { return nil }
    let id = DBusQuery.value(after: "Id", in: values)?.string
    let idle = idleHint && since > 0 ? max(0, (nowMicroseconds - since) / 1_000_000) : 0
    return Presence(
      source: id.map { "logind session \($0)" } ?? "logind", idleSeconds: idle, isLocked: locked)
  }

  /// The freedesktop screen saver service on the session bus: `GetActive` (the lock, in
  /// GNOME, KDE, xfce4-screensaver, ...) and, where it answers, KDE's `GetSessionIdleTime`.
  static func readScreenSaverService(_ environment: [String: String], _ deadline: Deadline)
    -> Reading<Presence>
  {
    var absence = "no org.freedesktop.ScreenSaver on the session bus"
    for path in ["/org/freedesktop/ScreenSaver", "/ScreenSaver"] {
      guard let limit = deadline.limit else {
        return .failed(outOfTime("org.freedesktop.ScreenSaver"))
      }
      let active = DBusQuery.call(
        .session, destination: "org.freedesktop.ScreenSaver", path: path,
        method: "org.freedesktop.ScreenSaver.GetActive", environment: environment, limit: limit)
      switch active {
      case .failure(let failure) where failure.isAbsence:
        absence = "org.freedesktop.ScreenSaver cannot tell (\(failure.description))"
        // Some desktops serve it at /ScreenSaver only: try there too.
        if case .error = failure, !failure.isMissingService { continue }
        return .unavailable(absence)
      case .failure(let failure):
        return .failed("org.freedesktop.ScreenSaver did not answer: \(failure.description)")
      case .success(let values):
        guard let locked = values.first?.bool else {
          return .failed("org.freedesktop.ScreenSaver's GetActive answered no boolean")
        }
        var idle: Int64?
        if let limit = deadline.limit,
          case .success(let seconds) = DBusQuery.call(
            .session, destination: "org.freedesktop.ScreenSaver", path: path,
            method: "org.freedesktop.ScreenSaver.GetSessionIdleTime", environment: environment,
            limit: limit)
        {
          idle = seconds.first?.integer
        }
        return .read(
          Presence(source: "org.freedesktop.ScreenSaver", idleSeconds: idle, isLocked: locked))
      }
    }
    return .unavailable(absence)
  }

  /// A notification daemon and whether it is paused.
  struct DoNotDisturb: Equatable {
    var name: String
    var isPaused: Bool
  }

  /// Whether the notification daemon is paused, and which one said so. dunst's
  /// `paused` (what `dunstctl is-paused` reads), then the notification spec's `Inhibited`
  /// (1.3: KDE and others), then GNOME's `show-banners` setting.
  static func readDoNotDisturb(_ environment: [String: String], _ deadline: Deadline) -> Reading<
    DoNotDisturb
  > {
    let notifications = "org.freedesktop.Notifications"
    let path = "/org/freedesktop/Notifications"
    for (interface, property) in [
      ("org.dunstproject.cmd0", "paused"), (notifications, "Inhibited"),
    ] {
      guard let limit = deadline.limit else { return .failed(outOfTime("the notification daemon")) }
      let reply = DBusQuery.property(
        .session, destination: notifications, path: path, interface: interface, name: property,
        environment: environment, limit: limit)
      switch reply {
      case .success(.bool(let paused)):
        if property == "paused" { return .read(DoNotDisturb(name: "dunst", isPaused: paused)) }
        // Its name is worth a question only when it is inhibited (for the record).
        let name = paused ? daemonName(environment, deadline) : "the notification daemon"
        return .read(DoNotDisturb(name: name, isPaused: paused))
      case .success:
        return .failed("the notification daemon's \(property) is not a boolean")
      case .failure(let failure) where failure.isMissingService:
        return .unavailable("no notification daemon on the session bus (\(failure.description))")
      case .failure(let failure) where failure.isAbsence:
        if case .error = failure { continue }
        return .unavailable("the notification daemon cannot be asked (\(failure.description))")
      case .failure(let failure):
        return .failed("the notification daemon did not answer: \(failure.description)")
      }
    }
    guard let gsettings = ChildProcess.find("gsettings", path: environment["PATH"]),
      let limit = deadline.limit
    else {
      return .unavailable(
        "the notification daemon has neither dunst's paused nor the notification spec's Inhibited")
    }
    var environment = environment
    if let bus = DesktopSession.bus(environment) { environment["DBUS_SESSION_BUS_ADDRESS"] = bus }
    guard
      let result = try? ChildProcess.run(
        gsettings, ["get", "org.gnome.desktop.notifications", "show-banners"],
        environment: environment, input: Data(), timeout: limit)
    else { return .failed("gsettings did not answer within \(Int(limit.rounded(.up))) s") }
    switch result.output.trimmingCharacters(in: .whitespacesAndNewlines) {
    case "false": return .read(DoNotDisturb(name: "GNOME", isPaused: true))
    case "true": return .read(DoNotDisturb(name: "GNOME", isPaused: false))
    default:
      return .unavailable(
        "the notification daemon has neither dunst's paused nor the notification spec's Inhibited, and GNOME's show-banners cannot be read"
      )
    }
  }

  /// The name to report for a daemon that says it is inhibited.
  private static func daemonName(_ environment: [String: String], _ deadline: Deadline) -> String {
    guard let limit = deadline.limit,
      case .success(let values) = DBusQuery.call(
        .session, destination: "org.freedesktop.Notifications",
        path: "/org/freedesktop/Notifications",
        method: "org.freedesktop.Notifications.GetServerInformation", environment: environment,
        limit: limit),
      let name = values.first?.string
    else { return "the notification daemon" }
    return name
  }

  private static func outOfTime(_ source: String) -> String {
    "\(source) was not asked: reading presence took more than \(Int(budget)) s"
  }

  /// Microseconds since 1970 on `CLOCK_REALTIME`, the clock of logind's hints.
  static func realtimeMicroseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
  }
}
