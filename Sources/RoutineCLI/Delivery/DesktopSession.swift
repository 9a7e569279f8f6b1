import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a desktop notification needs on this machine, asked by the notify-send sink and by
/// `routine doctor`: the program, a D-Bus session bus, and a daemon answering on it.
enum DesktopSession {
  static let missingNotifySend =
    "notify-send is not installed; install libnotify-bin (Debian, Ubuntu) or libnotify (Fedora, Arch), or choose --sink stdout or exec"

  static var missingBus: String {
    "no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set and /run/user/\(getuid())/bus does not exist, so no notification daemon can be reached; run this from your desktop session or use 'routine watch' there (docs/delivery.md)"
  }

  /// `notify-send` on the `PATH`.
  static func notifySend(_ environment: [String: String]) -> String? {
    ChildProcess.find("notify-send", path: environment["PATH"])
  }

  /// The session bus address: `DBUS_SESSION_BUS_ADDRESS`, or the socket systemd makes for a
  /// logged-in user (what cron, which has no session variables, can use).
  static func bus(_ environment: [String: String]) -> String? {
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
    let socket = "/run/user/\(getuid())/bus"
    return FileManager.default.fileExists(atPath: socket) ? "unix:path=\(socket)" : nil
  }

  /// Whether a notification daemon answers on the bus.
  enum Daemon: Equatable {
    /// It answered with its name.
    case answered(String)
    /// It did not answer: why, as a sentence.
    case silent(String)
    /// Neither `gdbus` nor `dbus-send` is installed to ask.
    case cannotAsk
  }

  /// Asks the bus for the notification service's server information, with `dbus-send` or
  /// `gdbus` (whichever is installed), waiting at most two seconds.
  static func daemon(_ environment: [String: String]) -> Daemon {
    let reply = DBusQuery.call(
      .session, destination: "org.freedesktop.Notifications",
      path: "/org/freedesktop/Notifications",
      method: "org.freedesktop.Notifications.GetServerInformation", environment: environment,
      limit: 2)
    switch reply {
    case .success(let values):
      return .answered(values.first?.string ?? "a daemon")
    case .failure(.cannotAsk):
      return .cannotAsk
    case .failure(.noAnswer):
      return .silent("the D-Bus session could not be asked for a notification daemon")
    case .failure:
      return .silent(
        "no notification daemon answers on the D-Bus session (start one: dunst, mako, or your desktop's; install one with apt install dunst)"
      )
    }
  }
}
