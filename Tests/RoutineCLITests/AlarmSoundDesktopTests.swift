import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// A private PulseAudio server whose only sink is a null sink: what plays into it can be
/// recorded from its monitor and measured, and nothing is heard. Nothing touches the user's
/// own sound server.
final class AlarmSoundServer: @unchecked Sendable {
  static let tools = ["pulseaudio", "pactl", "parecord", "sox"]

  static var isAvailable: Bool {
    tools.allSatisfy { ChildProcess.find($0, path: "/usr/local/bin:/usr/bin:/bin") != nil }
  }

  static let skipReason: Comment =
    "needs pulseaudio, pulseaudio-utils and sox (with dunst, libnotify-bin, xvfb and dbus-x11)"

  let directory: URL
  /// The server's process id.
  private var server: pid_t = 0

  var socket: String { directory.appendingPathComponent("pulse").path }
  /// What a client of this server has in its environment.
  var variables: [String: String] { ["PULSE_SERVER": "unix:\(socket)"] }

  private var clientEnvironment: [String: String] {
    [
      "PATH": "/usr/bin:/bin", "HOME": directory.appendingPathComponent("home").path,
      "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path,
    ].merging(variables, uniquingKeysWith: { $1 })
  }

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-sound-\(UUID().uuidString)")
    for name in ["home", "run"] {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent(name), withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    }
    // No configuration of the machine's, no D-Bus, no exit when idle; as root (CI) it warns,
    // and runs as a per-user server all the same.
    let log = directory.appendingPathComponent("pulseaudio.log")
    server = try Self.spawn(
      ChildProcess.find("pulseaudio", path: "/usr/local/bin:/usr/bin:/bin")!,
      [
        "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
        "--system=false", "-L", "module-null-sink sink_name=null",
        "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
      ], environment: clientEnvironment.filter { $0.key != "PULSE_SERVER" }, log: log.path)
    let ready = DesktopHarness.eventually(10) {
      (try? self.pactl(["info"]))?.contains("Default Sink: null") == true
    }
    guard ready else {
      throw CocoaError(
        .executableLoad,
        userInfo: [
          NSLocalizedDescriptionKey: (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        ])
    }
  }

  deinit {
    if server > 0 {
      kill(server, SIGKILL)
      Self.reap(server)
    }
    try? FileManager.default.removeItem(at: directory)
  }

  /// Starts `program` with standard streams on /dev/null, no signal blocked and default signal
  /// actions: a test runner's threads block most signals, and a child inherits the mask (a
  /// recorder that ignores SIGINT, a server that never sees its children end).
  static func spawn(
    _ program: String, _ arguments: [String], environment: [String: String], log: String? = nil,
    ownGroup: Bool = false
  ) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(
      &attributes,
      Int16(
        POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))
    posix_spawnattr_setpgroup(&attributes, 0)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    sigdelset(&all, SIGKILL)
    sigdelset(&all, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, descriptor == 0 ? "/dev/null" : log ?? "/dev/null",
        descriptor == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_APPEND, 0o600)
    }
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard status == 0 else { throw CocoaError(.executableLoad) }
    return pid
  }

  /// Waits for the child `pid` to end.
  static func reap(_ pid: pid_t) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
  }

  @discardableResult
  func pactl(_ arguments: [String]) throws -> String {
    let result = try ChildProcess.run(
      "/usr/bin/pactl", arguments, environment: clientEnvironment, input: Data(), timeout: 10)
    guard result.status == 0 else { throw CocoaError(.fileReadUnknown) }
    return result.output
  }

  /// The names of the streams playing into the server (the file's name, for `paplay`).
  func streams() throws -> [String] {
    try pactl(["list", "sink-inputs"]).split(separator: "\n").compactMap { line in
      let text = line.trimmingCharacters(in: .whitespaces)
      guard text.hasPrefix("media.name = ") else { return nil }
      return
        (String(text.dropFirst("media.name = ".count)).trimmingCharacters(
          in: CharacterSet(charactersIn: "\"")) as NSString).lastPathComponent
    }
  }

  /// How loud a recording is: sox's RMS and maximum amplitudes (1 is full scale).
  struct Loudness: CustomStringConvertible {
    var rms: Double
    var maximum: Double
    /// The length of the recording.
    var seconds: Double
    var description: String { "RMS \(rms), maximum \(maximum) over \(seconds) s" }
    /// Whether it is silent: a recording of a second or more with nothing louder than `level`
    /// (a null sink with nothing playing records exact zeros).
    func isSilent(below level: Double = 0.001) -> Bool {
      seconds >= 1 && rms < level && maximum < level
    }
  }

  /// Records the null sink's monitor for `seconds` and measures it with `sox stat`.
  func record(_ seconds: Double) throws -> Loudness {
    let file = directory.appendingPathComponent("recording-\(UUID().uuidString).wav").path
    let recorder = try Self.spawn(
      "/usr/bin/parecord",
      ["--device=null.monitor", "--latency-msec=50", "--file-format=wav", file],
      environment: clientEnvironment)
    // From the moment it records.
    _ = DesktopHarness.eventually(5) {
      (try? self.pactl(["list", "short", "source-outputs"]))?.isEmpty == false
    }
    usleep(useconds_t(seconds * 1_000_000))
    // parecord writes the WAV header's sizes as it ends.
    kill(recorder, SIGINT)
    Self.reap(recorder)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let stat = try ChildProcess.run(
      ChildProcess.find("sox", path: "/usr/local/bin:/usr/bin:/bin")!, [file, "-n", "stat"],
      environment: ["PATH": "/usr/bin:/bin"], input: Data(), timeout: 30)
    func value(_ label: String) -> Double {
      stat.errors.split(separator: "\n").first { $0.hasPrefix(label) }
        .flatMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        ?? -1
    }
    return Loudness(
      rms: value("RMS     amplitude"), maximum: value("Maximum amplitude"),
      seconds: value("Length (seconds)"))
  }

  /// The players that still run against this server (their environment names it).
  func players() -> [String] {
    let names = AlarmSound.Player.Kind.allCases.map(\.rawValue)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.filter { Int32($0) != nil }.compactMap { pid in
      guard
        let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
          .trimmingCharacters(in: .newlines), names.contains(name),
        let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
        String(decoding: environ, as: UTF8.self).contains("PULSE_SERVER=unix:\(socket)")
      else { return nil }
      return "\(name) (\(pid))"
    }
  }
}

/// The alarm's sound end to end: a real alarm delivered to a real desktop (dbus, Xvfb, dunst)
/// plays into a private PulseAudio server's null sink, whose monitor is recorded and measured.
@Suite(
  .serialized,
  .enabled(
    if: DesktopHarness.isAvailable && AlarmSoundServer.isAvailable, AlarmSoundServer.skipReason))
struct AlarmSoundDesktopTests {
  /// An alarm due a minute ago (within the grace period of the real clock), in a sandbox
  /// wired to `desktop` and `server`.
  func alarm(_ desktop: DesktopHarness, _ server: AlarmSoundServer) -> Sandbox {
    let sandbox = NotifySendTests().sandbox("Pills", style: "alarm")
    sandbox.variables.merge(desktop.sessionVariables, uniquingKeysWith: { $1 })
    sandbox.variables.merge(server.variables, uniquingKeysWith: { $1 })
    return sandbox
  }

  func deliver(_ sandbox: Sandbox, _ desktop: DesktopHarness) throws {
    let run = try sandbox.runBinary("deliver", "--sink", "notify-send")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      DesktopHarness.eventually {
        (try? desktop.control(["count", "displayed"]))?.trimmingCharacters(
          in: .whitespacesAndNewlines) == "1"
      }, "the alarm is on screen")
  }

  /// The await-answer processes waiting for `sandbox`'s notifications.
  func waiting(_ sandbox: Sandbox) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.filter { Int32($0) != nil }.filter { pid in
      guard let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else {
        return false
      }
      let words = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      return words.contains("await-answer") && words.contains(sandbox.storePath)
    }
  }

  /// Closes the notifications on screen (a daemon that goes away does not end
  /// `notify-send --wait`), and checks that routine's waiting process ends with them.
  func close(_ sandbox: Sandbox, _ desktop: DesktopHarness) throws {
    try desktop.control(["close-all"])
    #expect(DesktopHarness.eventually(5) { waiting(sandbox).isEmpty }, "await-answer ended")
  }

  @Test func theAlarmSoundsUntilItsButtonIsPressed() throws {
    let desktop = try DesktopHarness()
    let server = try AlarmSoundServer()
    let sandbox = alarm(desktop, server)
    try deliver(sandbox, desktop)
    // The theme's sound (sound-theme-freedesktop), or the built-in tone where it is missing.
    let theme = AlarmSound.lookUp(theme: "alarm-clock-elapsed", environment: sandbox.variables)
    #expect(
      DesktopHarness.eventually(5) {
        guard let streams = try? server.streams(), streams.count == 1 else { return false }
        if case .found(let file) = theme {
          return streams[0] == (file as NSString).lastPathComponent
        }
        return streams[0].hasPrefix("routine-alarm-")
      })
    // A player's stream reaches the null sink's monitor a few seconds late (paplay asks for two
    // seconds of buffer): a recording of five takes in three of sound.
    let ringing = try server.record(5)
    print("ringing: \(ringing)")
    #expect(ringing.rms > 0.02, "\(ringing)")
    #expect(ringing.maximum > 0.1, "\(ringing)")
    try desktop.press("done")
    let store = try EventStore(path: sandbox.storePath)
    #expect(
      try DesktopHarness.eventually {
        try store.connection.scalarInt("SELECT count(*) FROM answers WHERE action = 'done'") == 1
      })
    #expect(DesktopHarness.eventually(3) { (try? server.streams()) == [] })
    let answered = try server.record(3)
    print("answered: \(answered)")
    #expect(answered.isSilent(), "\(answered)")
    #expect(server.players().isEmpty)
    #expect(DesktopHarness.eventually(5) { waiting(sandbox).isEmpty })
  }

  @Test func answeringFromTheCommandLineOrLoggingTheActStopsTheSound() throws {
    for way in ["respond", "log"] {
      let desktop = try DesktopHarness()
      let server = try AlarmSoundServer()
      let sandbox = alarm(desktop, server)
      try deliver(sandbox, desktop)
      #expect(DesktopHarness.eventually(5) { (try? server.streams())?.count == 1 })
      let started = Date()
      let now = NotifySendTests.now()
      let answer =
        way == "respond"
        ? try sandbox.runBinary("respond", "reminder-1", "done", "--now", now)
        : try sandbox.runBinary("log", "Pills", "--now", now)
      #expect(answer.status == 0, "\(way): \(answer.stderr)")
      // The ring looks at the store once a second.
      #expect(DesktopHarness.eventually(5) { (try? server.streams()) == [] }, "\(way)")
      #expect(Date().timeIntervalSince(started) < 3, "\(way)")
      let after = try server.record(3)
      #expect(after.isSilent(), "\(way): \(after)")
      #expect(server.players().isEmpty, "\(way)")
      // The notification stays on screen until it is pressed or closed.
      #expect(
        (try? desktop.control(["count", "displayed"]))?.trimmingCharacters(
          in: .whitespacesAndNewlines) == "1")
      try close(sandbox, desktop)
    }
  }

  @Test func aNamedFileIsWhatPlays() throws {
    let desktop = try DesktopHarness()
    let server = try AlarmSoundServer()
    let sandbox = alarm(desktop, server)
    let file = sandbox.directory.appendingPathComponent("chime.wav").path
    let made = try ChildProcess.run(
      "/usr/bin/sox", ["-n", "-r", "44100", "-c", "1", file, "synth", "2", "sine", "440"],
      environment: ["PATH": "/usr/bin:/bin"], input: Data(), timeout: 30)
    #expect(made.status == 0, "\(made.errors)")
    #expect(
      sandbox.run("settings", "--alarm-sound", file, "--now", NotifySendTests.now()).status == 0)
    try deliver(sandbox, desktop)
    #expect(DesktopHarness.eventually(5) { (try? server.streams()) == ["chime.wav"] })
    let ringing = try server.record(5)
    print("named file: \(ringing)")
    #expect(ringing.rms > 0.1, "\(ringing)")
    // A pure sine's RMS is its peak over the square root of two: the file, not the theme's
    // sound (whose ratio is about a third), is what played.
    #expect(abs(ringing.rms / ringing.maximum - 0.5.squareRoot()) < 0.05, "\(ringing)")
    try desktop.press("done")
    #expect(DesktopHarness.eventually(5) { (try? server.streams()) == [] })
    #expect(server.players().isEmpty)
  }

  @Test func theBuiltInToneSoundsWhereTheThemeIsMissing() throws {
    let desktop = try DesktopHarness()
    let server = try AlarmSoundServer()
    let sandbox = alarm(desktop, server)
    let temporary = sandbox.directory.appendingPathComponent("tmp").path
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    sandbox.variables["XDG_DATA_DIRS"] = sandbox.directory.appendingPathComponent("none").path
    sandbox.variables["TMPDIR"] = temporary
    try deliver(sandbox, desktop)
    #expect(
      DesktopHarness.eventually(5) {
        (try? server.streams())?.first?.hasPrefix("routine-alarm-") == true
      })
    let ringing = try server.record(5)
    print("built-in tone: \(ringing)")
    #expect(ringing.rms > 0.1, "\(ringing)")
    #expect(ringing.maximum > 0.5, "\(ringing)")
    try desktop.press("done")
    #expect(DesktopHarness.eventually(5) { (try? server.streams()) == [] })
    #expect(DesktopHarness.eventually(5) { waiting(sandbox).isEmpty })
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
  }

  @Test func withTheSoundOffTheAlarmIsSilent() throws {
    let desktop = try DesktopHarness()
    let server = try AlarmSoundServer()
    let sandbox = alarm(desktop, server)
    #expect(
      sandbox.run("settings", "--alarm-sound", "off", "--now", NotifySendTests.now()).status == 0)
    try deliver(sandbox, desktop)
    let ringing = try server.record(4)
    #expect(ringing.isSilent(), "\(ringing)")
    #expect(try server.streams().isEmpty)
    try close(sandbox, desktop)
  }

  @Test func withoutAPlayerTheAlarmIsShownSilentlyAndDoctorSaysWhy() throws {
    let desktop = try DesktopHarness()
    let server = try AlarmSoundServer()
    let sandbox = alarm(desktop, server)
    // A PATH with notify-send and nothing that plays sound.
    let bin = sandbox.directory.appendingPathComponent("bin").path
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: "\(bin)/notify-send",
      withDestinationPath: ChildProcess.find("notify-send", path: "/usr/bin:/bin")!)
    sandbox.variables["PATH"] = bin
    try deliver(sandbox, desktop)
    let ringing = try server.record(4)
    #expect(ringing.isSilent(), "\(ringing)")
    let store = try EventStore(path: sandbox.storePath)
    #expect(
      try DesktopHarness.eventually(5) {
        try store.connection.scalarInt(
          "SELECT count(*) FROM deliveries WHERE reason LIKE '%rang silently: no sound player%'")
          == 1
      })
    let doctor = AlarmSound.diagnose(
      setting: PlannerSettings.defaultAlarmSound, environment: sandbox.variables)
    #expect(!doctor.ok)
    #expect(doctor.text.contains("no sound player"))
    try close(sandbox, desktop)
  }
}
