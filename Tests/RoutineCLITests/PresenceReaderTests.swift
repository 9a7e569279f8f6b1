import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

#if canImport(Glibc)
  import Glibc
#endif

/// Reading the person's presence from real parts: a virtual X server for the screen saver
/// extension, dunst for do not disturb, and small D-Bus services (python3-gi) standing in for
/// logind, org.freedesktop.ScreenSaver and a daemon with the notification spec's `Inhibited`,
/// each on a private bus.
@Suite(.serialized)
struct PresenceReaderTests {
  static let system = "/usr/bin:/bin"

  static var hasX: Bool {
    DesktopHarness.isAvailable
      && ["xdotool", "xset"].allSatisfy { ChildProcess.find($0, path: system) != nil }
      && libraryLoads("libXss.so.1") && libraryLoads("libX11.so.6")
  }

  static func libraryLoads(_ name: String) -> Bool {
    guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { return false }
    dlclose(handle)
    return true
  }

  /// A python3 with GObject introspection, to serve stand-in D-Bus services.
  static let python: String? = {
    guard ChildProcess.find("dbus-daemon", path: system) != nil,
      let python = ChildProcess.find("python3", path: system),
      let result = try? ChildProcess.run(
        python, ["-c", "from gi.repository import Gio, GLib"], environment: ["PATH": system],
        input: Data(), timeout: 20),
      result.status == 0
    else { return nil }
    return python
  }()

  static let fakeServiceReason: Comment =
    "needs dbus-daemon and python3-gi (python3 -c 'from gi.repository import Gio') to serve stand-in D-Bus services"

  // MARK: - The X screen saver extension

  /// Runs an X client tool (xdotool, xset) against `display`.
  func x(_ tool: String, _ arguments: [String], display: String) throws {
    let result = try ChildProcess.run(
      ChildProcess.find(tool, path: Self.system) ?? tool, arguments,
      environment: ["PATH": Self.system, "DISPLAY": display], input: Data(), timeout: 10)
    #expect(result.status == 0, "\(tool) \(arguments): \(result.errors)")
  }

  @Test(.enabled(if: hasX, "needs Xvfb, dunst, xdotool, xset (x11-xserver-utils) and libxss1"))
  func idlenessGrowsWithoutInputAndInputResetsIt() throws {
    let desktop = try DesktopHarness()
    try x("xdotool", ["mousemove", "10", "10"], display: desktop.display)
    let moved = XScreenSaver.read(display: desktop.display, environment: [:])
    let fresh = try #require(try? moved.get())
    #expect(fresh.idleMilliseconds < 1000)
    #expect(!fresh.isOn)
    Thread.sleep(forTimeInterval: 2)
    let later = try #require(
      try? XScreenSaver.read(display: desktop.display, environment: [:]).get())
    #expect(later.idleMilliseconds >= 1500)
    #expect(later.idleMilliseconds < 10_000)
    let reading = PresenceReader.read(
      environment: desktop.sessionVariables.merging(
        ["PATH": Self.system], uniquingKeysWith: { $1 }),
      idle: true, doNotDisturb: false)
    #expect(reading.presence.source == "the X screen saver extension on \(desktop.display)")
    #expect((reading.presence.idleSeconds ?? -1) >= 1)
    #expect(reading.presence.doNotDisturb == nil)
    #expect(reading.problems.isEmpty)
    try x("xdotool", ["mousemove", "30", "40"], display: desktop.display)
    let reset = try #require(
      try? XScreenSaver.read(display: desktop.display, environment: [:]).get())
    #expect(reset.idleMilliseconds < 1000)
  }

  @Test(.enabled(if: hasX, "needs Xvfb, dunst, xdotool, xset (x11-xserver-utils) and libxss1"))
  func theScreenSaverOnCountsAsLocked() throws {
    let desktop = try DesktopHarness()
    let environment = desktop.sessionVariables.merging(
      ["PATH": Self.system], uniquingKeysWith: { $1 })
    try x("xset", ["s", "activate"], display: desktop.display)
    let locked = PresenceReader.read(environment: environment, idle: true, doNotDisturb: false)
    #expect(locked.presence.isLocked)
    #expect(locked.presence.source == "the X screen saver extension on \(desktop.display)")
    try x("xset", ["s", "reset"], display: desktop.display)
    let unlocked = PresenceReader.read(environment: environment, idle: true, doNotDisturb: false)
    #expect(!unlocked.presence.isLocked)
  }

  @Test(.enabled(if: hasX, "needs Xvfb, dunst, xdotool, xset (x11-xserver-utils) and libxss1"))
  func anotherXauthorityIsUsedForTheConnectionAndPutBack() throws {
    let desktop = try DesktopHarness()
    let before = getenv("XAUTHORITY").map { String(cString: $0) }
    // The virtual server checks no cookie: a file that does not exist still connects.
    let reading = XScreenSaver.read(
      display: desktop.display, environment: ["XAUTHORITY": "/nonexistent/routine-xauthority"])
    #expect((try? reading.get()) != nil)
    #expect(getenv("XAUTHORITY").map { String(cString: $0) } == before)
  }

  @Test(.enabled(if: DesktopHarness.isAvailable, DesktopHarness.skipReason))
  func aPausedDunstIsDoNotDisturb() throws {
    let desktop = try DesktopHarness()
    let environment = desktop.sessionVariables.merging(
      ["PATH": Self.system], uniquingKeysWith: { $1 })
    try desktop.control(["set-paused", "true"])
    let paused = PresenceReader.read(environment: environment, idle: false, doNotDisturb: true)
    #expect(paused.presence.doNotDisturb == "dunst")
    #expect(paused.presence.source == nil)
    #expect(paused.problems.isEmpty)
    let diagnosis = PresenceReader.diagnose(environment: environment)
    #expect(diagnosis.doNotDisturb == .init(source: "dunst", text: "dunst is paused"))
    try desktop.control(["set-paused", "false"])
    let resumed = PresenceReader.read(environment: environment, idle: false, doNotDisturb: true)
    #expect(resumed.presence.doNotDisturb == nil)
    #expect(resumed.problems.isEmpty)
  }

  @Test(.enabled(if: hasX, "needs Xvfb, dunst, xdotool, xset (x11-xserver-utils) and libxss1"))
  func doctorNamesTheXSourceAndWhatItReads() throws {
    let desktop = try DesktopHarness()
    let diagnosis = PresenceReader.diagnose(
      environment: desktop.sessionVariables.merging(["PATH": Self.system], uniquingKeysWith: { $1 })
    )
    #expect(diagnosis.idle.source == "the X screen saver extension on \(desktop.display)")
    #expect(diagnosis.idle.text.contains("no input for "))
    #expect(diagnosis.idle.text.hasSuffix("screen not locked"))
    #expect(diagnosis.doNotDisturb == .init(source: "dunst", text: "dunst is not paused"))
  }

  // MARK: - Nothing to ask, and sources that misbehave

  /// A directory to put on `PATH`, holding `tools` (links to the real ones) and `scripts`.
  func toolDirectory(links tools: [String] = [], scripts: [String: String] = [:]) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-presence-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for tool in tools {
      let real = try #require(ChildProcess.find(tool, path: Self.system))
      try FileManager.default.createSymbolicLink(
        atPath: directory.appendingPathComponent(tool).path, withDestinationPath: real)
    }
    for (name, body) in scripts {
      let file = directory.appendingPathComponent(name)
      try "#!/bin/sh\n\(body)\n".write(to: file, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }
    return directory
  }

  /// Buses that do not exist: neither the machine's session nor its system bus is asked.
  static let deadBuses = [
    "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/routine-session-bus",
    "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/routine-system-bus",
  ]

  @Test func aDeadDisplayAndNoToolsFallThroughAtOnceToNoSource() throws {
    #expect(!FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X999"))
    let empty = try toolDirectory()
    defer { try? FileManager.default.removeItem(at: empty) }
    let environment = Self.deadBuses.merging(
      ["DISPLAY": ":999", "PATH": empty.path], uniquingKeysWith: { $1 })
    let started = Date()
    let reading = PresenceReader.read(environment: environment, idle: true, doNotDisturb: true)
    #expect(Date().timeIntervalSince(started) < 0.5)
    #expect(reading.presence == .unknown)
    #expect(reading.problems.isEmpty)
    let diagnosis = PresenceReader.diagnose(environment: environment)
    #expect(diagnosis.idle.source == nil)
    #expect(
      diagnosis.idle.text.hasSuffix("nothing is held for idleness"), "\(diagnosis.idle.text)")
    if Self.libraryLoads("libX11.so.6"), Self.libraryLoads("libXss.so.1") {
      #expect(diagnosis.idle.text.contains("the X server on :999 cannot be reached"))
    }
    #expect(diagnosis.idle.text.contains("neither gdbus nor dbus-send is installed"))
    #expect(diagnosis.doNotDisturb.source == nil)
  }

  @Test func withoutDisplayTheXSourceIsNotTried() {
    let reading = PresenceReader.readX(
      ["PATH": Self.system], PresenceReader.Deadline(seconds: PresenceReader.budget))
    guard case .unavailable(let reason) = reading else {
      Issue.record("expected no X source, got \(reading)")
      return
    }
    #expect(reason.contains("DISPLAY is not set"))
  }

  @Test(.enabled(if: ChildProcess.find("python3", path: system) != nil, "needs python3"))
  func anXServerThatNeverAnswersIsAbandonedWithinTheBudget() throws {
    // A socket where an X server's would be, that accepts connections and never answers.
    let number = try #require(
      (300..<400).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") })
    let socket = "/tmp/.X11-unix/X\(number)"
    let ready = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-silent-x-\(UUID().uuidString)")
    let server = Process()
    server.executableURL = URL(
      fileURLWithPath: try #require(ChildProcess.find("python3", path: Self.system)))
    server.arguments = [
      "-c",
      """
      import os, socket, sys, time
      os.makedirs('/tmp/.X11-unix', exist_ok=True)
      s = socket.socket(socket.AF_UNIX)
      s.bind(sys.argv[1])
      s.listen(5)
      open(sys.argv[2], 'w').write('ready')
      time.sleep(30)
      """, socket, ready.path,
    ]
    try server.run()
    defer {
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
      try? FileManager.default.removeItem(atPath: socket)
      try? FileManager.default.removeItem(at: ready)
    }
    #expect(DesktopHarness.eventually(10) { FileManager.default.fileExists(atPath: ready.path) })
    let empty = try toolDirectory()
    defer { try? FileManager.default.removeItem(at: empty) }
    let started = Date()
    let reading = PresenceReader.read(
      environment: ["DISPLAY": ":\(number)", "PATH": empty.path], idle: true, doNotDisturb: false)
    let elapsed = Date().timeIntervalSince(started)
    #expect(elapsed < PresenceReader.questionLimit + 0.5, "took \(elapsed) s")
    #expect(reading.presence == .unknown)
    #expect(reading.problems == ["the X server on :\(number) did not answer within 1 s"])
  }

  @Test func aHangingGDBusCountsAsPresentWithinTheBudget() throws {
    let tools = try toolDirectory(scripts: ["gdbus": "exec /bin/sleep 30"])
    defer { try? FileManager.default.removeItem(at: tools) }
    let environment = Self.deadBuses.merging(["PATH": tools.path], uniquingKeysWith: { $1 })
    let started = Date()
    let reading = PresenceReader.read(environment: environment, idle: true, doNotDisturb: true)
    let elapsed = Date().timeIntervalSince(started)
    #expect(elapsed < PresenceReader.budget + 0.7, "took \(elapsed) s")
    #expect(reading.presence == .unknown)
    #expect(reading.problems.count >= 2, "\(reading.problems)")
    #expect(reading.problems.first?.hasPrefix("logind did not answer: ") == true)
    #expect(reading.problems.contains { $0.contains("took more than 2 s") })
  }

  @Test func aGDBusPrintingGarbageCountsAsPresentWithItsProblem() throws {
    let tools = try toolDirectory(scripts: ["gdbus": "echo 'this is not a reply'"])
    defer { try? FileManager.default.removeItem(at: tools) }
    let environment = Self.deadBuses.merging(["PATH": tools.path], uniquingKeysWith: { $1 })
    let reading = PresenceReader.read(environment: environment, idle: true, doNotDisturb: true)
    #expect(reading.presence == .unknown)
    #expect(
      reading.problems.first == "logind did not answer: gdbus printed 'this is not a reply'")
    #expect(
      reading.problems.last
        == "the notification daemon did not answer: gdbus printed 'this is not a reply'")
  }

  // MARK: - Replies and errors as the tools print them

  /// logind's session properties as `gdbus call ... GetAll` prints them (shortened).
  static let logindGDBus = """
    ({'Id': <'3'>, 'User': <(uint32 1000, objectpath '/org/freedesktop/login1/user/_1000')>, \
    'Name': <'alice'>, 'Timestamp': <uint64 1700000000123456>, 'Display': <':0'>, \
    'Remote': <false>, 'IdleHint': <true>, 'IdleSinceHint': <uint64 1700000300000000>, \
    'IdleSinceHintMonotonic': <uint64 5000000>, 'LockedHint': <false>, 'Desktop': <'it\\'s "mine"'>},)
    """

  /// The same as `dbus-send --print-reply` prints them.
  static let logindDBusSend = """
    method return time=1700000400.123456 sender=:1.2 -> destination=:1.80 serial=1234 reply_serial=2
       array [
          dict entry(
             string "Id"
             variant                string "3"
          )
          dict entry(
             string "User"
             variant                struct {
                   uint32 1000
                   object path "/org/freedesktop/login1/user/_1000"
                }
          )
          dict entry(
             string "IdleHint"
             variant                boolean true
          )
          dict entry(
             string "IdleSinceHint"
             variant                uint64 1700000300000000
          )
          dict entry(
             string "LockedHint"
             variant                boolean false
          )
       ]
    """

  @Test(arguments: [logindGDBus, logindDBusSend])
  func logindsHintsGiveTheSecondsSinceTheSessionWentIdle(_ reply: String) throws {
    let values = try #require(DBusQuery.parseGDBus(reply) ?? DBusQuery.parseDBusSend(reply))
    let presence = PresenceReader.logindPresence(values, nowMicroseconds: 1_700_000_420_500_000)
    #expect(
      presence == Presence(source: "logind session 3", idleSeconds: 120, isLocked: false))
  }

  @Test func logindNotIdleReadsZeroWhateverItsLastIdleTime() throws {
    let reply = Self.logindGDBus.replacingOccurrences(
      of: "'IdleHint': <true>", with: "'IdleHint': <false>")
    let values = try #require(DBusQuery.parseGDBus(reply))
    #expect(
      PresenceReader.logindPresence(values, nowMicroseconds: 1_700_000_420_000_000)?.idleSeconds
        == 0)
    #expect(
      PresenceReader.logindPresence([.string("Id"), .string("3")], nowMicroseconds: 0) == nil)
  }

  @Test func gdbusRepliesAreReadIntoValues() {
    #expect(
      DBusQuery.parseGDBus("('dunst', 'knopwob', '1.9.0', '1.2')\n")
        == [.string("dunst"), .string("knopwob"), .string("1.9.0"), .string("1.2")])
    #expect(DBusQuery.parseGDBus("(<true>,)\n") == [.bool(true)])
    #expect(DBusQuery.parseGDBus("(uint32 42,)") == [.integer(42)])
    #expect(
      DBusQuery.parseGDBus("(<byte 0x1f>, -3, 1.5)") == [.integer(31), .integer(-3), .double(1.5)])
    #expect(DBusQuery.parseGDBus("(@as [],)") == [])
    #expect(DBusQuery.parseGDBus("('unterminated,)") == nil)
    #expect(DBusQuery.parseGDBus("this is not a reply") == nil)
    #expect(DBusQuery.parseGDBus("(something odd)") == nil)
    let logind = DBusQuery.parseGDBus(Self.logindGDBus)
    #expect(
      logind.flatMap { DBusQuery.value(after: "Desktop", in: $0) } == .string("it's \"mine\""))
  }

  @Test func dbusSendRepliesAreReadIntoValues() {
    #expect(
      DBusQuery.parseDBusSend(
        """
        method return time=1.0 sender=:1.1 -> destination=:1.2 serial=3 reply_serial=2
           string "dunst"
           string "knopwob"
        """) == [.string("dunst"), .string("knopwob")])
    #expect(
      DBusQuery.parseDBusSend(
        "method return time=1.0 sender=:1.1 -> destination=:1.2 serial=3 reply_serial=2\n   variant       boolean true\n"
      ) == [.bool(true)])
    #expect(DBusQuery.parseDBusSend("   boolean true\n") == nil)
    #expect(
      DBusQuery.parseDBusSend("method return time=1.0\n   boolean maybe\n") == nil)
  }

  @Test func toolErrorsAreToldApartFromAbsentServices() {
    let unknown = DBusQuery.failure(
      "Error: GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.login1 was not provided by any .service files\n"
    )
    #expect(
      unknown
        == .error(
          name: "org.freedesktop.DBus.Error.ServiceUnknown",
          message: "The name org.freedesktop.login1 was not provided by any .service files"))
    #expect(unknown.isAbsence && unknown.isMissingService)
    let noSession = DBusQuery.failure(
      "Error org.freedesktop.login1.NoSessionForPID: PID 123 does not belong to any known session\n"
    )
    #expect(noSession.isAbsence && !noSession.isMissingService)
    let timeout = DBusQuery.failure("Error: Timeout was reached\n")
    #expect(timeout == .noAnswer("Error: Timeout was reached"))
    #expect(!timeout.isAbsence)
    let noReply = DBusQuery.failure(
      "Error org.freedesktop.DBus.Error.NoReply: Did not receive a reply.\n")
    #expect(!noReply.isAbsence)
    let dead = DBusQuery.failure(
      "Error connecting: Could not connect: No such file or directory\n")
    #expect(dead == .unreachable("Error connecting: Could not connect: No such file or directory"))
    #expect(dead.isAbsence)
    #expect(
      DBusQuery.failure(
        "Failed to open connection to \"system\" message bus: Failed to connect to socket /x: No such file or directory\n"
      ).isAbsence)
  }

  // MARK: - Stand-in services on private buses

  /// Serves `objects` (path → interface → properties and methods, each a GVariant type and a
  /// JSON value) as `name` on the bus at `address`, until the returned process is killed.
  func serve(_ name: String, on address: String, _ objects: [String: Any]) throws -> Process {
    let python = try #require(Self.python)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-fake-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let script = directory.appendingPathComponent("serve.py")
    try Self.fakeService.write(to: script, atomically: true, encoding: .utf8)
    let ready = directory.appendingPathComponent("ready")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
      script.path, address, name, ready.path,
      String(decoding: try JSONSerialization.data(withJSONObject: objects), as: UTF8.self),
    ]
    process.environment = ["PATH": Self.system]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    #expect(
      DesktopHarness.eventually(10) { FileManager.default.fileExists(atPath: ready.path) },
      "the stand-in service \(name) did not start")
    return process
  }

  func stop(_ process: Process) {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  static let fakeService = """
    import json, sys
    from gi.repository import Gio, GLib

    address, name, ready, objects = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    connection = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)

    def tuples(value):
        return tuple(tuples(v) for v in value) if isinstance(value, list) else value

    for path, interfaces in objects.items():
        for interface, members in interfaces.items():
            properties = members.get("properties", {})
            methods = members.get("methods", {})
            xml = '<node><interface name="%s">' % interface
            for key, (signature, _) in properties.items():
                xml += '<property name="%s" type="%s" access="read"/>' % (key, signature)
            for key, (signatures, _) in methods.items():
                xml += '<method name="%s">' % key
                xml += ''.join('<arg type="%s" direction="out"/>' % s for s in signatures)
                xml += '</method>'
            xml += '</interface></node>'
            info = Gio.DBusNodeInfo.new_for_xml(xml).interfaces[0]

            def call(conn, sender, path, interface, method, parameters, invocation, methods=methods):
                signatures, values = methods[method]
                invocation.return_value(GLib.Variant('(%s)' % ''.join(signatures), tuples(values)))

            def get(conn, sender, path, interface, key, properties=properties):
                signature, value = properties[key]
                return GLib.Variant(signature, tuples(value))

            connection.register_object(path, info, call, get, None)

    connection.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
        'RequestName', GLib.Variant('(su)', (name, 4)), None, Gio.DBusCallFlags.NONE, -1, None)
    open(ready, 'w').write('ready')
    GLib.MainLoop().run()
    """

  @Test(.enabled(if: python != nil, fakeServiceReason), arguments: ["gdbus", "dbus-send"])
  func logindOnTheSystemBusGivesIdlenessAndTheLock(tool: String) throws {
    let bus = try DesktopHarness(daemon: false)
    let since = PresenceReader.realtimeMicroseconds() - 300_000_000
    let logind = try serve(
      "org.freedesktop.login1", on: bus.busAddress,
      [
        "/org/freedesktop/login1/session/auto": [
          "org.freedesktop.login1.Session": [
            "properties": [
              "Id": ["s", "7"], "User": ["(uo)", [1000, "/org/freedesktop/login1/user/_1000"]],
              "IdleHint": ["b", true], "IdleSinceHint": ["t", since], "LockedHint": ["b", true],
            ]
          ]
        ]
      ])
    defer { stop(logind) }
    let tools = try toolDirectory(links: [tool])
    defer { try? FileManager.default.removeItem(at: tools) }
    // From cron: no DISPLAY, no session bus; only the system bus.
    let environment = [
      "PATH": tools.path, "DBUS_SYSTEM_BUS_ADDRESS": bus.busAddress,
      "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/routine-session-bus",
    ]
    let reading = PresenceReader.read(environment: environment, idle: true, doNotDisturb: false)
    #expect(reading.problems.isEmpty, "\(reading.problems)")
    #expect(reading.presence.source == "logind session 7")
    #expect(reading.presence.isLocked)
    #expect((300...305).contains(reading.presence.idleSeconds ?? 0), "\(reading.presence)")
    let diagnosis = PresenceReader.diagnose(environment: environment)
    #expect(diagnosis.idle.source == "logind session 7")
    #expect(diagnosis.idle.text.hasSuffix("screen locked"))
  }

  @Test(.enabled(if: python != nil, fakeServiceReason))
  func theScreenSaverServiceAtItsShortPathGivesTheLockAndKDEsIdleTime() throws {
    let session = try DesktopHarness(daemon: false)
    let saver = try serve(
      "org.freedesktop.ScreenSaver", on: session.busAddress,
      [
        "/ScreenSaver": [
          "org.freedesktop.ScreenSaver": [
            "methods": ["GetActive": [["b"], [true]], "GetSessionIdleTime": [["u"], [42]]]
          ]
        ]
      ])
    defer { stop(saver) }
    let environment = [
      "PATH": Self.system, "DBUS_SESSION_BUS_ADDRESS": session.busAddress,
      "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/routine-system-bus",
    ]
    let reading = PresenceReader.read(environment: environment, idle: true, doNotDisturb: false)
    #expect(reading.problems.isEmpty, "\(reading.problems)")
    #expect(
      reading.presence
        == Presence(source: "org.freedesktop.ScreenSaver", idleSeconds: 42, isLocked: true))
  }

  @Test(.enabled(if: python != nil, fakeServiceReason), arguments: [true, false])
  func anInhibitedDaemonIsDoNotDisturbByItsName(inhibited: Bool) throws {
    let session = try DesktopHarness(daemon: false)
    let daemon = try serve(
      "org.freedesktop.Notifications", on: session.busAddress,
      [
        "/org/freedesktop/Notifications": [
          "org.freedesktop.Notifications": [
            "properties": ["Inhibited": ["b", inhibited]],
            "methods": [
              "GetServerInformation": [
                ["s", "s", "s", "s"], ["plasmashell", "KDE", "6.0", "1.3"],
              ]
            ],
          ]
        ]
      ])
    defer { stop(daemon) }
    let environment = [
      "PATH": Self.system, "DBUS_SESSION_BUS_ADDRESS": session.busAddress,
      "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/routine-system-bus",
    ]
    // The stand-in service is a Python process: on a loaded machine its first answer can take
    // longer than a question's second (the fail-safe then says so, as it should); ask again.
    var reading = PresenceReader.read(environment: environment, idle: false, doNotDisturb: true)
    if reading.problems.allSatisfy({ $0.contains("did not finish within") }),
      !reading.problems.isEmpty
    {
      reading = PresenceReader.read(environment: environment, idle: false, doNotDisturb: true)
    }
    #expect(reading.problems.isEmpty, "\(reading.problems)")
    #expect(reading.presence.doNotDisturb == (inhibited ? "plasmashell" : nil))
    #expect(DesktopSession.daemon(environment) == .answered("plasmashell"))
  }
}
