import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The X screen saver extension (libXss): how long the X server has seen no input, and whether
/// its screen saver is on.
///
/// libX11 and libXss are opened with `dlopen` when first needed, not linked: routine builds on
/// a machine without their headers (no libxss-dev), runs on a headless server without any X
/// library, and a `routine` that never reads idleness never loads them (docs/delivery.md).
enum XScreenSaver {
  /// What the server said.
  struct Reading: Equatable {
    /// Milliseconds since the last keyboard or pointer input.
    var idleMilliseconds: UInt64
    /// The screen saver is on (`ScreenSaverOn`): the screen is blanked or locked.
    var isOn: Bool
  }

  /// Asks the X server `display` (`:0`); why not, as a phrase, when it cannot.
  ///
  /// Xlib finds the server's cookie through the process's `XAUTHORITY` (or `$HOME/.Xauthority`),
  /// not through `environment`: when `environment` names another `XAUTHORITY` than the
  /// process has (a test running the CLI in its process, never the `routine` binary), it is set
  /// for the time of the connection and put back.
  static func read(display: String, environment: [String: String]) -> Result<Reading, Unavailable> {
    let library: Library
    switch Library.shared {
    case .success(let loaded): library = loaded
    case .failure(let failure): return .failure(failure)
    }
    guard
      let connection = withAuthority(
        environment["XAUTHORITY"], { library.openDisplay(display) })
    else {
      // Xlib does not say which: nothing listens there, or the server refused the cookie.
      return .failure(
        Unavailable(
          reason:
            "the X server on \(display) cannot be reached (not running, or it refused routine's XAUTHORITY)"
        ))
    }
    defer { _ = library.closeDisplay(connection) }
    var event: Int32 = 0
    var error: Int32 = 0
    guard library.queryExtension(connection, &event, &error) != 0 else {
      return .failure(
        Unavailable(reason: "the X server on \(display) has no screen saver extension"))
    }
    guard let info = library.allocInfo() else {
      return .failure(Unavailable(reason: "XScreenSaverAllocInfo failed"))
    }
    defer { _ = library.free(info) }
    guard library.queryInfo(connection, library.defaultRootWindow(connection), info) != 0 else {
      return .failure(
        Unavailable(reason: "the X server on \(display) did not say how long it is idle"))
    }
    let answer = info.assumingMemoryBound(to: Info.self).pointee
    return .success(
      Reading(idleMilliseconds: UInt64(answer.idle), isOn: answer.state == screenSaverOn))
  }

  /// Why the extension cannot be asked.
  struct Unavailable: Error, Equatable {
    var reason: String
  }

  /// `ScreenSaverOn` of `<X11/extensions/saver.h>`.
  private static let screenSaverOn: Int32 = 1

  /// `XScreenSaverInfo` of `<X11/extensions/scrnsaver.h>`; Swift lays these fields out as C
  /// does (`Window` and `unsigned long` are both `unsigned long`).
  private struct Info {
    var window: UInt
    var state: Int32
    var kind: Int32
    var tilOrSince: UInt
    var idle: UInt
    var eventMask: UInt
  }

  private static let authorityLock = NSLock()

  private static func withAuthority<T>(_ authority: String?, _ body: () -> T) -> T {
    guard let authority, getenv("XAUTHORITY").map({ String(cString: $0) }) != authority else {
      return body()
    }
    authorityLock.lock()
    defer { authorityLock.unlock() }
    let previous = getenv("XAUTHORITY").map { String(cString: $0) }
    setenv("XAUTHORITY", authority, 1)
    defer {
      if let previous { setenv("XAUTHORITY", previous, 1) } else { unsetenv("XAUTHORITY") }
    }
    return body()
  }

  /// The functions of libX11 and libXss, looked up once per process.
  private struct Library: @unchecked Sendable {
    typealias ErrorHandler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32

    let openDisplay: @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    let closeDisplay: @convention(c) (OpaquePointer?) -> Int32
    let defaultRootWindow: @convention(c) (OpaquePointer?) -> UInt
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Int32
    let queryExtension:
      @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) ->
        Int32
    let allocInfo: @convention(c) () -> UnsafeMutableRawPointer?
    let queryInfo: @convention(c) (OpaquePointer?, UInt, UnsafeMutableRawPointer?) -> Int32

    static let shared: Result<Library, Unavailable> = load()

    private static func load() -> Result<Library, Unavailable> {
      // Never closed: the handles live as long as the process, and a second read costs only
      // the connection. Lazy binding: of libX11's hundreds of functions, a reading calls six.
      guard let x11 = dlopen("libX11.so.6", RTLD_LAZY | RTLD_LOCAL) else {
        return .failure(Unavailable(reason: "libX11.so.6 is not installed"))
      }
      guard let xss = dlopen("libXss.so.1", RTLD_LAZY | RTLD_LOCAL) else {
        return .failure(
          Unavailable(reason: "libXss.so.1 is not installed (apt install libxss1)"))
      }
      func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, as type: T.Type) -> T? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
      }
      guard
        let openDisplay = symbol(
          x11, "XOpenDisplay", as: (@convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?).self),
        let closeDisplay = symbol(
          x11, "XCloseDisplay", as: (@convention(c) (OpaquePointer?) -> Int32).self),
        let defaultRootWindow = symbol(
          x11, "XDefaultRootWindow", as: (@convention(c) (OpaquePointer?) -> UInt).self),
        let free = symbol(
          x11, "XFree", as: (@convention(c) (UnsafeMutableRawPointer?) -> Int32).self),
        let setErrorHandler = symbol(
          x11, "XSetErrorHandler",
          as: (@convention(c) (ErrorHandler?) -> ErrorHandler?).self),
        let queryExtension = symbol(
          xss, "XScreenSaverQueryExtension",
          as: (@convention(c) (
            OpaquePointer?, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>
          ) -> Int32).self),
        let allocInfo = symbol(
          xss, "XScreenSaverAllocInfo", as: (@convention(c) () -> UnsafeMutableRawPointer?).self),
        let queryInfo = symbol(
          xss, "XScreenSaverQueryInfo",
          as: (@convention(c) (OpaquePointer?, UInt, UnsafeMutableRawPointer?) -> Int32).self)
      else {
        return .failure(Unavailable(reason: "libX11 or libXss lacks a function routine needs"))
      }
      // Xlib's default error handler prints and exits the process. The calls here report
      // failure through their status (XScreenSaverQueryInfo returns 0), so an X error (the
      // server going away between calls) is ignored rather than taking delivery down.
      _ = setErrorHandler { _, _ in 0 }
      return .success(
        Library(
          openDisplay: openDisplay, closeDisplay: closeDisplay,
          defaultRootWindow: defaultRootWindow, free: free, queryExtension: queryExtension,
          allocInfo: allocInfo, queryInfo: queryInfo))
    }
  }
}
