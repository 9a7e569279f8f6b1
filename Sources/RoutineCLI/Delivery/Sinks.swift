import Foundation
import RoutineCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The notification as JSON, the shape `--sink stdout` prints and `--sink exec` sends on stdin
/// (docs/formats.md).
func notificationJSON(_ notification: DeliveredNotification) -> JSON {
  .object([
    ("id", .string(notification.id)),
    ("occurrence", .string(notification.occurrence.iso8601)),
    ("category", .string(notification.category.rawValue)),
    ("title", .string(notification.title)),
    ("body", .string(notification.body)),
    (
      "actions",
      .array(
        notification.actions.map {
          .object([("id", .string($0.id)), ("title", .string($0.title))])
        })
    ),
    ("late", .bool(notification.isLate)),
    ("attempt", .integer(notification.attempt)),
    ("alarm", .bool(notification.isAlarm)),
  ])
}

/// `--sink stdout`: one JSON object per line on standard output.
struct StandardOutputSink: NotificationSink {
  let output: Output
  let kind = SinkKind.stdout

  func deliver(_ notification: DeliveredNotification) throws -> String? {
    output.line(notificationJSON(notification).compact())
    output.flush()
    // Not shown is a failed delivery, which history records: not a run that changed nothing.
    if let failure = output.failure {
      throw SinkError(code: .ioError, description: "cannot write to standard output: \(failure)")
    }
    return nil
  }
}

/// A failure of a sink: a sentence, and the exit status (69 for a missing program or service).
struct SinkError: Error, CustomStringConvertible {
  var code: ExitCode
  var description: String
}

/// `--sink exec --exec CMD`: runs the user's command once per notification, `/bin/sh -c CMD`
/// with the notification in environment variables and as JSON on standard input. Nothing of the
/// notification is ever put into the command line itself: a kind named `$(rm -rf ~)` reaches the
/// command as data. The first line the command prints, if it is one of the notification's
/// actions, answers it.
struct ExecSink: NotificationSink {
  let command: String
  let environment: [String: String]
  /// Where the command's own error output goes: routine's, so that a cron log keeps it.
  let errors: Output
  let kind = SinkKind.exec
  /// How long a command may take.
  static let timeout: TimeInterval = 120

  func deliver(_ notification: DeliveredNotification) throws -> String? {
    var variables = environment
    variables["ROUTINE_ID"] = notification.id
    variables["ROUTINE_OCCURRENCE"] = notification.occurrence.iso8601
    variables["ROUTINE_CATEGORY"] = notification.category.rawValue
    variables["ROUTINE_TITLE"] = notification.title
    variables["ROUTINE_BODY"] = notification.body
    variables["ROUTINE_ACTIONS"] = notification.actions.map(\.id).joined(separator: " ")
    variables["ROUTINE_ACTION_TITLES"] = notification.actions.map { "\($0.id)=\($0.title)" }
      .joined(separator: "\n")
    variables["ROUTINE_LATE"] = notification.isLate ? "true" : "false"
    variables["ROUTINE_ALARM"] = notification.isAlarm ? "true" : "false"
    variables["ROUTINE_ATTEMPT"] = "\(notification.attempt)"
    let result = try ChildProcess.run(
      "/bin/sh", ["-c", command], environment: variables,
      input: Data((notificationJSON(notification).compact() + "\n").utf8), timeout: ExecSink.timeout
    )
    // Line by line, escaped: the command may echo an event name with escape sequences in it.
    // Nothing written, nothing relayed (not even an empty line for cron to mail).
    let relayed =
      result.errors.isEmpty
      ? []
      : result.errors.split(
        separator: "\n", omittingEmptySubsequences: false
      ).dropLast(result.errors.hasSuffix("\n") ? 1 : 0)
    for line in relayed {
      errors.line(TerminalText.escaped(String(line)))
    }
    guard result.status == 0 else {
      let detail = result.errors.split(separator: "\n").first.map { ": \($0)" } ?? ""
      throw SinkError(
        code: .ioError,
        description:
          "the command \(command.debugDescription) exited with status \(result.status)\(detail)")
    }
    let answer = result.output.split(separator: "\n").first.map {
      $0.trimmingBlanks
    }
    guard let answer, !answer.isEmpty else { return nil }
    let offered = notification.actions.map(\.id) + [NotificationCategory.open.id]
    return offered.contains(answer) ? answer : nil
  }
}

/// `--sink notify-send`: a desktop notification with its buttons, through libnotify's
/// `notify-send --wait`. Waiting for the button is left to a detached process of routine's own
/// (`routine await-answer`), which answers the chosen button: delivery goes on at once.
struct NotifySendSink: NotificationSink {
  let program: String
  let environment: [String: String]
  /// routine itself, to start the process that waits for the answer.
  let routine: String
  let storePath: String
  let kind = SinkKind.notifySend
  /// Whether the desktop session can show a notification: asked once per run, when the first
  /// notification is due. A run with nothing due starts no process, and cron running every
  /// minute while nobody is logged in fills no log.
  private let session = SessionState()

  private final class SessionState: @unchecked Sendable {
    var checked: Result<[String: String], SinkError>?
  }

  /// The sink, when `notify-send` is installed (an installation problem is reported at once,
  /// whether or not anything is due).
  static func make(environment: [String: String], storePath: String) throws -> NotifySendSink {
    guard let program = DesktopSession.notifySend(environment) else {
      throw SinkError(code: .unavailable, description: DesktopSession.missingNotifySend)
    }
    return NotifySendSink(
      program: program, environment: environment, routine: ChildProcess.executablePath(),
      storePath: storePath)
  }

  /// The environment for `notify-send`: with the session bus (from `DBUS_SESSION_BUS_ADDRESS`,
  /// or the usual `/run/user/UID/bus`, so that cron can deliver to the desktop), once a
  /// notification daemon answered on it.
  private func sessionEnvironment() throws -> [String: String] {
    if session.checked == nil {
      if let bus = DesktopSession.bus(environment) {
        var environment = environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus
        switch DesktopSession.daemon(environment) {
        case .answered, .cannotAsk: session.checked = .success(environment)
        case .silent(let problem):
          session.checked = .failure(SinkError(code: .unavailable, description: problem))
        }
      } else {
        session.checked = .failure(
          SinkError(code: .unavailable, description: DesktopSession.missingBus))
      }
    }
    return try session.checked!.get()
  }

  /// The `notify-send` arguments for `notification`.
  static func arguments(_ notification: DeliveredNotification) -> [String] {
    var arguments = ["--app-name=routine", "--wait"]
    arguments.append(notification.isAlarm ? "--urgency=critical" : "--urgency=normal")
    if notification.isAlarm { arguments.append("--hint=string:sound-name:alarm-clock-elapsed") }
    // A desktop shows text as it is: bidirectional formatting characters from a kind's name
    // would reorder it (BidiControls).
    for action in notification.actions {
      arguments.append("--action=\(action.id)=\(BidiControls.removed(from: action.title))")
    }
    // The body may be read as markup by the daemon; the summary is plain text.
    let body = BidiControls.removed(from: notification.body).replacingOccurrences(
      of: "&", with: "&amp;"
    )
    .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    return arguments + ["--", BidiControls.removed(from: notification.title), body]
  }

  func deliver(_ notification: DeliveredNotification) throws -> String? {
    let environment = try sessionEnvironment()
    let arguments =
      [
        "await-answer", notification.id, "--occurrence", notification.occurrence.iso8601,
        "--store", storePath,
      ] + (notification.isAlarm ? ["--alarm", "\(notification.attempt)"] : []) + ["--", program]
      + NotifySendSink.arguments(notification)
    try ChildProcess.startDetached(routine, arguments, environment: environment)
    return nil
  }
}

/// Child processes, without a shell.
enum ChildProcess {
  struct Finished {
    var status: Int32
    var output: String
    var errors: String
  }

  /// Runs `program` with `arguments`, `input` on its standard input, and waits (at most
  /// `timeout` seconds, then it is killed and the run fails).
  static func run(
    _ program: String, _ arguments: [String], environment: [String: String], input: Data,
    timeout: TimeInterval
  ) throws -> Finished {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.environment = environment
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    do {
      try process.run()
    } catch {
      throw SinkError(code: .unavailable, description: "cannot start \(program): \(error)")
    }
    writeIgnoringBrokenPipe(input, to: stdin.fileHandleForWriting)
    let collected = Collected()
    let group = DispatchGroup()
    for (pipe, isOutput) in [(stdout, true), (stderr, false)] {
      group.enter()
      DispatchQueue.global().async {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        collected.set(data, isOutput: isOutput)
        group.leave()
      }
    }
    if finished.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      throw SinkError(
        code: .ioError, description: "\(program) did not finish within \(Int(timeout)) seconds")
    }
    group.wait()
    return Finished(
      status: process.terminationStatus, output: String(decoding: collected.output, as: UTF8.self),
      errors: String(decoding: collected.errors, as: UTF8.self))
  }

  /// Writes `data` to a child's standard input on a thread of its own, and closes it. A child
  /// that exits without reading (an `--exec` command that only echoes) must not take routine
  /// down: the write would raise SIGPIPE, whose default action ends the process. The thread
  /// blocks SIGPIPE, so the write fails with EPIPE instead, and takes the pending signal before
  /// it ends. (Ignoring SIGPIPE for the whole process would turn `routine plan | head` into an
  /// error.)
  private static func writeIgnoringBrokenPipe(_ data: Data, to handle: FileHandle) {
    let thread = Thread {
      var pipeSignal = sigset_t()
      sigemptyset(&pipeSignal)
      sigaddset(&pipeSignal, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
      try? handle.write(contentsOf: data)
      try? handle.close()
      var pending = sigset_t()
      sigpending(&pending)
      if sigismember(&pending, SIGPIPE) == 1 {
        var taken: Int32 = 0
        sigwait(&pipeSignal, &taken)
      }
    }
    thread.start()
  }

  /// What two reading threads collect.
  private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var output = Data()
    private(set) var errors = Data()

    func set(_ data: Data, isOutput: Bool) {
      lock.lock()
      defer { lock.unlock() }
      if isOutput { output = data } else { errors = data }
    }
  }

  /// Starts `program` in a session of its own, with standard input, output and error on
  /// `/dev/null`, and does not wait for it: it outlives this process (cron does not wait for
  /// it). A short-lived `sh` in between starts it in the background and exits, so that the
  /// program is never this process's child: a long-running `routine watch` collects no zombies.
  /// The arguments reach it as `"$@"`, never as shell text.
  static func startDetached(_ program: String, _ arguments: [String], environment: [String: String])
    throws
  {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // POSIX_SPAWN_SETSID (glibc 2.26, macOS 10.15): a session of its own, so that nothing
    // waits for it and no terminal's hang-up reaches it.
    #if canImport(Darwin)
      resetSignals(&attributes, flags: Int16(POSIX_SPAWN_SETSID))
    #else
      resetSignals(&attributes, flags: Int16(0x80))
    #endif
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    // Nothing else either: a descriptor inherited from whoever started routine (the pipe cron
    // reads the job's output from) would stay open as long as the notification, and the job
    // would seem to run until someone answered.
    for descriptor in openDescriptors() where descriptor > 2 {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    let shell = ["/bin/sh", "-c", "\"$@\" &", "sh", program] + arguments
    let argv = shell.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
    guard status == 0 else {
      throw SinkError(
        code: .unavailable,
        description: "cannot start \(program): \(String(cString: strerror(status)))")
    }
    var exit: Int32 = 0
    while waitpid(pid, &exit, 0) == -1, errno == EINTR {}
  }

  /// Sets `flags` on `attributes`, and signals as a new program expects them: none blocked,
  /// the usual ones at their defaults. routine may run with signals blocked or ignored (a test
  /// runner's threads block most; `routine watch` takes its own), and a child that inherited a
  /// blocked SIGTERM could not be stopped: an alarm's player, the process that waits for a
  /// notification's answer.
  static func resetSignals(_ attributes: inout posix_spawnattr_t, flags: Int16) {
    posix_spawnattr_setflags(
      &attributes, flags | Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF))
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
  }

  /// The file descriptors open in this process.
  private static func openDescriptors() -> [Int32] {
    #if os(Linux)
      let directory = "/proc/self/fd"
    #else
      let directory = "/dev/fd"
    #endif
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    // The listing's own descriptor is among the names and closed by now: keep the open ones.
    return names.compactMap { Int32($0) }.filter { fcntl($0, F_GETFD) != -1 }
  }

  /// The full path of `name` on `path` (a `PATH` value), if it is an executable there.
  static func find(_ name: String, path: String?) -> String? {
    for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// This program's path.
  static func executablePath() -> String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return path
      }
    #endif
    return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
  }
}
