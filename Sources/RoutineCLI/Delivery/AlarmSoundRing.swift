import Foundation
import RoutineCore
import RoutineStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One ring of an alarm, heard: plays an ``AlarmSound`` again and again, on a thread of its
/// own, until ``stop()`` is called, `isAnswered` says so, or `limit` seconds have passed (the
/// next ring's start: two rings never sound together).
///
/// Each play is a child process in a process group of its own, killed (SIGTERM to the group,
/// SIGKILL a second later) the moment the ring stops, and always waited for: no zombie. While a
/// ring sounds, SIGTERM, SIGINT and SIGHUP to routine kill the player first; a routine killed
/// outright (SIGKILL) leaves at most the one play under way, which ends by itself with its
/// sound: the loop is routine's, not the player's.
final class AlarmSoundRing: @unchecked Sendable {
  /// How a ring ended.
  enum Ending: Equatable, Sendable {
    /// Stopped: answered, closed, its act logged, or ``stop()``.
    case stopped
    /// Rang its full time unanswered.
    case timedOut
    /// The player failed (the sentence says how); the rest of the ring is silent.
    case failed(String)
  }

  let sound: AlarmSound
  let limit: TimeInterval
  let environment: [String: String]
  /// How often `isAnswered` is asked.
  let pollInterval: TimeInterval
  private let isAnswered: () -> Bool
  private let lock = NSLock()
  private var isStopped = false
  private var player: pid_t = 0
  private var ending: Ending?
  private let finished = DispatchSemaphore(value: 0)
  private var thread: Thread?

  /// A play shorter than this is padded with silence: a player that exits at once (a broken
  /// sound server that still says yes) must not be started thousands of times.
  static let shortestPlay: TimeInterval = 1

  init(
    sound: AlarmSound, limit: TimeInterval, environment: [String: String],
    pollInterval: TimeInterval = 1, isAnswered: @escaping () -> Bool
  ) {
    self.sound = sound
    self.limit = limit
    self.environment = environment
    self.pollInterval = pollInterval
    self.isAnswered = isAnswered
  }

  /// Starts ringing.
  func start() {
    let thread = Thread { [self] in
      let result = ring()
      lock.withLock { ending = result }
      finished.signal()
    }
    self.thread = thread
    thread.start()
  }

  /// Stops the ring at once: the player under way is killed.
  func stop() {
    let group = lock.withLock {
      isStopped = true
      return player
    }
    if group > 0 { kill(-group, SIGTERM) }
  }

  /// Waits until the ring has ended (after ``stop()``, at most about a second), and says how.
  func wait() -> Ending {
    finished.wait()
    finished.signal()
    return lock.withLock { ending ?? .stopped }
  }

  private var stopped: Bool { lock.withLock { isStopped } }

  private func ring() -> Ending {
    var toneFile: String?
    defer {
      if let toneFile {
        AlarmSoundSignals.forget(toneFile: toneFile)
        unlink(toneFile)
      }
    }
    if sound.source == .tone {
      do {
        toneFile = try Self.writeTone(environment)
      } catch {
        return .failed("cannot write the alarm's tone: \(error)")
      }
      AlarmSoundSignals.remember(toneFile: toneFile!)
    }
    let arguments = sound.player.arguments(for: sound.source, tone: toneFile ?? "")
    let deadline = Date().addingTimeInterval(limit)
    var nextPoll = Date().addingTimeInterval(pollInterval)
    func shouldEnd() -> Ending? {
      if stopped { return .stopped }
      if Date() >= deadline { return .timedOut }
      if Date() >= nextPoll {
        nextPoll = Date().addingTimeInterval(pollInterval)
        if isAnswered() { return .stopped }
      }
      return nil
    }
    while true {
      if let ending = shouldEnd() { return ending }
      let started = Date()
      let child: Child
      do {
        child = try Child.spawn(sound.player.path, arguments, environment: environment)
      } catch {
        return .failed("cannot start \(sound.player.kind.rawValue): \(error)")
      }
      lock.withLock { player = child.pid }
      AlarmSoundSignals.playing(child.pid)
      var status: Int32?
      var ended: Ending?
      while status == nil {
        status = child.exitStatus()
        guard status == nil else { break }
        if let ending = shouldEnd() {
          ended = ending
          child.terminate()
          break
        }
        usleep(50_000)
      }
      AlarmSoundSignals.playing(0)
      lock.withLock { player = 0 }
      if let ended { return ended }
      let errors = child.errors()
      // Killed by stop() between two looks: stopped, not failed.
      if stopped { return .stopped }
      if let status, status != 0 {
        let detail = errors.split(separator: "\n").first.map { ": \($0)" } ?? ""
        return .failed("\(sound.player.kind.rawValue) \(Child.describe(status))\(detail)")
      }
      while Date().timeIntervalSince(started) < Self.shortestPlay {
        if let ending = shouldEnd() { return ending }
        usleep(50_000)
      }
    }
  }

  /// Writes the built-in tone to a new private file (0600) in the temporary directory.
  static func writeTone(_ environment: [String: String]) throws -> String {
    let directory = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    let path =
      "\(directory.hasSuffix("/") ? String(directory.dropLast()) : directory)/routine-alarm-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).wav"
    guard try FileSystem.createFile(path, mode: 0o600) else {
      throw SinkError(code: .ioError, description: "'\(path)' exists already")
    }
    do {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      try handle.write(contentsOf: AlarmTone.wav())
    } catch {
      unlink(path)
      throw error
    }
    return path
  }

  /// A player under way: its process (the leader of its own process group) and the pipe its
  /// error output goes to.
  struct Child {
    let pid: pid_t
    let errorPipe: Int32

    /// Starts `program` with standard input and output on `/dev/null`, error output to a pipe,
    /// in a process group of its own.
    static func spawn(_ program: String, _ arguments: [String], environment: [String: String])
      throws -> Child
    {
      var pipeEnds: [Int32] = [0, 0]
      guard pipe(&pipeEnds) == 0 else {
        throw SinkError(code: .ioError, description: FileSystem.errorText())
      }
      for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      // A group of its own, and signals as a new program expects them: routine may have been
      // started with signals blocked (a test runner's threads block most), and a player that
      // inherited a blocked SIGTERM could not be stopped.
      ChildProcess.resetSignals(&attributes, flags: Int16(POSIX_SPAWN_SETPGROUP))
      posix_spawnattr_setpgroup(&attributes, 0)
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
      let argv = ([program] + arguments).map { strdup($0) } + [nil]
      let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
      }
      var pid: pid_t = 0
      let status = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
      close(pipeEnds[1])
      guard status == 0 else {
        close(pipeEnds[0])
        throw SinkError(code: .unavailable, description: String(cString: strerror(status)))
      }
      return Child(pid: pid, errorPipe: pipeEnds[0])
    }

    /// Its wait status once it has ended (and been reaped), else `nil`.
    func exitStatus() -> Int32? {
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { return status }
      // Reaped already (cannot happen: nothing else waits for it): ended.
      if result == -1, errno == ECHILD { return 0 }
      return nil
    }

    /// Kills its process group, SIGKILL after a second if SIGTERM was not enough, and reaps it.
    func terminate() {
      kill(-pid, SIGTERM)
      for _ in 0..<20 {
        if exitStatus() != nil { return finish() }
        usleep(50_000)
      }
      kill(-pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) == -1, errno == EINTR {}
      finish()
    }

    private func finish() { close(errorPipe) }

    /// What it wrote to its error output (what the pipe holds), and closes the pipe.
    func errors() -> String {
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(errorPipe, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes += chunk[..<count]
      }
      close(errorPipe)
      return String(decoding: bytes, as: UTF8.self)
    }

    /// "exited with status 1", "was killed by signal 9".
    static func describe(_ status: Int32) -> String {
      let signal = status & 0x7f
      return signal == 0
        ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(signal)"
    }
  }
}

/// What a signal handler needs to leave nothing behind when routine is stopped while an alarm
/// sounds: the player's process group, and the tone's file. Plain words read by an async
/// signal handler, which may only call async-signal-safe functions (`kill`, `unlink`).
enum AlarmSoundSignals {
  nonisolated(unsafe) private static var group: pid_t = 0
  nonisolated(unsafe) private static var tonePath: UnsafeMutablePointer<CChar>?
  nonisolated(unsafe) private static var isInstalled = false

  /// Notes the player under way (0: none), and installs the handlers the first time.
  static func playing(_ pid: pid_t) {
    group = pid
    guard !isInstalled else { return }
    isInstalled = true
    // Delivered to this thread even when routine was started with them blocked (inherited
    // from whoever started it): stopping routine must stop the sound.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handled, signal) }
    pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    for signal in [SIGTERM, SIGINT, SIGHUP] {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handle
        action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
      #else
        action.__sigaction_u.__sa_handler = handle
        action.sa_flags = SA_RESETHAND
      #endif
      sigemptyset(&action.sa_mask)
      sigaction(signal, &action, nil)
    }
  }

  static func remember(toneFile: String) { tonePath = strdup(toneFile) }

  static func forget(toneFile: String) {
    let path = tonePath
    tonePath = nil
    free(path)
  }

  /// Kills the player, removes the tone, then lets the signal do what it does by default
  /// (SA_RESETHAND put the default back): routine ends as it would have.
  private static let handle: @convention(c) (Int32) -> Void = { signal in
    if AlarmSoundSignals.group > 0 { kill(-AlarmSoundSignals.group, SIGTERM) }
    if let path = AlarmSoundSignals.tonePath { unlink(path) }
    raise(signal)
  }
}
