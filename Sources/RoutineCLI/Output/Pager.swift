import CSystem
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pager (`$PAGER`, else `less`) reading a listing from a pipe, on the terminal routine
/// writes to.
struct Pager {
  /// The pipe's end routine writes to.
  let input: Int32
  let pid: pid_t

  /// Starts `command` with `/bin/sh -c`, its standard input a new pipe and its standard output
  /// `output`; `nil` when it cannot start. `less` gets `LESS=FRX` unless the environment sets
  /// `LESS`: quit when it fits a screen, pass colour through, leave the text on the screen.
  static func start(_ command: String, environment: [String: String], output: Int32) -> Pager? {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    if output != 1 { posix_spawn_file_actions_adddup2(&actions, output, 1) }
    posix_spawn_file_actions_addclose(&actions, ends[1])
    posix_spawn_file_actions_addclose(&actions, ends[0])
    var variables = environment
    if variables["LESS"] == nil { variables["LESS"] = "FRX" }
    if variables["LV"] == nil { variables["LV"] = "-c" }
    let words: [String] = ["/bin/sh", "-c", command]
    let argv = words.map { strdup($0) } + [nil]
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    guard posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp) == 0 else {
      _ = Foundation.close(ends[0])
      _ = Foundation.close(ends[1])
      return nil
    }
    _ = Foundation.close(ends[0])
    // The pager quitting early makes writes fail with EPIPE rather than end routine: the rest
    // of the listing has nobody to read it, and that is not an error.
    signal(SIGPIPE, SIG_IGN)
    return Pager(input: ends[1], pid: pid)
  }

  /// Closes the pipe and waits for the pager to end.
  func close() {
    _ = Foundation.close(input)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
  }

  /// The rows of the terminal on `descriptor`, or `$LINES`, or 0 when neither says.
  static func rows(of descriptor: Int32, environment: [String: String]) -> Int {
    let rows = Int(routine_terminal_rows(descriptor))
    return rows > 0 ? rows : Int(environment["LINES"] ?? "") ?? 0
  }
}
