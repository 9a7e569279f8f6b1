import Foundation

#if canImport(Glibc)
  import Glibc
  import CSystem
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why `routine watch` woke up.
enum Wake: Equatable {
  /// The time it asked for came.
  case time
  /// The store's files changed (another process, or this one, wrote).
  case storeChanged
  /// The system clock was set: every time must be worked out again.
  case clockChanged
  /// SIGHUP: deliver and plan the wake again, now.
  case reload
  /// SIGTERM or SIGINT: stop.
  case stop(Int32)
}

/// Sleeps until a wall-clock instant, a change of the store, or a signal, with no wake-up in
/// between (the idle target of docs/performance.md).
///
/// On Linux: a `timerfd` on the wall clock, armed at an absolute time, so that a sleep across
/// a suspended laptop ends on time and a clock being set is noticed; `inotify` on the store's
/// directory; and a pipe the signal handlers write to. Elsewhere, a `poll` with a timeout,
/// looking at the store again every minute.
final class Waiter {
  private let directory: String
  private let names: Set<String>
  private var timer: Int32 = -1
  private var notify: Int32 = -1

  /// A waiter for the store at `storePath`, stopping on SIGTERM and SIGINT.
  init(storePath: String) throws {
    let url = URL(fileURLWithPath: storePath)
    directory = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    names = [name, name + "-wal"]
    try Signals.install()
    #if os(Linux)
      timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
      notify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
      guard timer >= 0, notify >= 0 else {
        throw CommandError(
          .failure, "cannot set up the watch: \(String(cString: strerror(errno)))")
      }
      let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
      guard inotify_add_watch(notify, directory, mask) >= 0 else {
        throw CommandError(
          .ioError, "cannot watch \(directory): \(String(cString: strerror(errno)))")
      }
    #endif
  }

  deinit {
    if timer >= 0 { close(timer) }
    if notify >= 0 { close(notify) }
  }

  /// Sleeps until `instant` (seconds since 1970) or something else wakes it.
  func wait(until instant: Int64) -> Wake {
    #if os(Linux)
      var spec = itimerspec()
      spec.it_value.tv_sec = Int(max(instant, 1))
      let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
      if timerfd_settime(timer, flags, &spec, nil) != 0 { return .time }
      var descriptors = [
        pollfd(fd: Signals.readEnd, events: Int16(POLLIN), revents: 0),
        pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
        pollfd(fd: notify, events: Int16(POLLIN), revents: 0),
      ]
      while true {
        let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
        if ready < 0, errno == EINTR { continue }
        if descriptors[0].revents != 0, let signal = Signals.take() {
          return signal == SIGHUP ? .reload : .stop(signal)
        }
        if descriptors[1].revents != 0 {
          var expirations: UInt64 = 0
          let count = read(timer, &expirations, 8)
          return count < 0 && errno == ECANCELED ? .clockChanged : .time
        }
        if descriptors[2].revents != 0 {
          if drainNotifications() { return .storeChanged }
          descriptors[2].revents = 0
          continue
        }
        if ready < 0 { return .time }
      }
    #else
      let now = Int64(Date().timeIntervalSince1970)
      let milliseconds = Int32(clamping: max(0, min(instant - now, 60)) * 1000)
      var descriptor = pollfd(fd: Signals.readEnd, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, milliseconds)
      if descriptor.revents != 0, let signal = Signals.take() {
        return signal == SIGHUP ? .reload : .stop(signal)
      }
      return Int64(Date().timeIntervalSince1970) >= instant ? .time : .storeChanged
    #endif
  }

  #if os(Linux)
    /// Reads every pending inotify event; whether one was about the store's files.
    private func drainNotifications() -> Bool {
      var touched = false
      let size = 4096
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
      defer { buffer.deallocate() }
      while true {
        let count = read(notify, buffer, size)
        guard count > 0 else { break }
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
          let header = MemoryLayout<inotify_event>.size
          if event.len > 0 {
            let name = String(
              cString: buffer.advanced(by: offset + header).assumingMemoryBound(to: CChar.self))
            if names.contains(name) { touched = true }
          }
          offset += header + Int(event.len)
        }
      }
      return touched
    }
  #endif
}

/// SIGTERM, SIGINT and SIGHUP, turned into bytes on a pipe: whichever thread a signal lands
/// on, the handler only writes one byte, which is safe in a signal handler.
enum Signals {
  nonisolated(unsafe) private static var pipeEnds: [Int32] = [-1, -1]
  nonisolated(unsafe) private static var installed = false

  static var readEnd: Int32 { pipeEnds[0] }

  static func install() throws {
    guard !installed else { return }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw CommandError(
        .failure, "cannot set up signal handling: \(String(cString: strerror(errno)))")
    }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    pipeEnds = ends
    writeEnd = ends[1]
    installed = true
    // A parent may have started routine with these signals blocked (the mask is inherited):
    // then SIGTERM would never reach the handler and the watch could not be stopped.
    var wanted = sigset_t()
    sigemptyset(&wanted)
    for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&wanted, signal) }
    pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
    for signal in [SIGTERM, SIGINT, SIGHUP] {
      #if canImport(Glibc)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
          var byte = UInt8(truncatingIfNeeded: number)
          _ = write(Signals.writeEnd, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(signal, &action, nil)
      #else
        Darwin.signal(signal) { number in
          var byte = UInt8(truncatingIfNeeded: number)
          _ = write(Signals.writeEnd, &byte, 1)
        }
      #endif
    }
  }

  nonisolated(unsafe) static var writeEnd: Int32 = -1

  /// The signal waiting on the pipe, if any.
  static func take() -> Int32? {
    var byte: UInt8 = 0
    return read(readEnd, &byte, 1) == 1 ? Int32(byte) : nil
  }
}
