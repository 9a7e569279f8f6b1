import Foundation
import RoutineCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's tz database: a directory of TZif files (`$TZDIR`, else `/usr/share/zoneinfo`),
/// the zone rules cron, systemd, glibc and Python follow, updated with the system.
///
/// Foundation on Linux carries its own frozen copy of the rules (ICU) and never reads this
/// directory; its rules are used only for a zone the database does not have, or when there is no
/// database (docs/time.md, "Where zone rules come from").
///
/// - A name is looked up as a file first (`Europe/Berlin`), then part by part ignoring case
///   (`europe/berlin`, `us/eastern`, `zulu`). A name with an empty, `.` or `..` part, or that
///   starts with `/`, names nothing: it could only escape the directory. Links inside the
///   directory (symbolic or hard) are the database's own business and are followed.
/// - A zone keeps the name it was asked by, spelled as the database spells its file
///   (`US/Eastern`, not `America/New_York`): that is the name people chose and routine shows
///   and stores, and the rules are the same.
/// - A file that starts like a TZif file but is damaged is an error (``ZoneDataError``), never a
///   silent fall back to Foundation's older rules: the system's data is what the person expects.
///   A file that is not TZif at all (`zone.tab`, `tzdata.zi`) is no zone.
/// - `localtime`, `posixrules` and `right/...` are not zones to ask for: the first two are the
///   system's zone and a default for POSIX rules, the third counts leap seconds, which routine
///   does not.
///
/// Loaded zones are kept for the life of the process. The directory is given, never read from
/// the environment here: the CLI passes `$TZDIR`.
public final class ZoneDatabase: @unchecked Sendable {
  /// Where Debian, Fedora, Arch and most other systems keep the database.
  public static let defaultDirectory = "/usr/share/zoneinfo"

  /// The directory of TZif files.
  public let directory: String

  private let lock = NSLock()
  private var loaded: [String: Zone?] = [:]
  private var cachedVersion: String??
  private var cachedNames: [String]?

  /// The database in `directory`; the default directory when `nil` or empty (as `$TZDIR` is
  /// read). Reads nothing yet.
  public init(directory: String? = nil) {
    var path = directory.flatMap { $0.isEmpty ? nil : $0 } ?? ZoneDatabase.defaultDirectory
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    self.directory = path
  }

  private static let instancesLock = NSLock()
  nonisolated(unsafe) private static var instances: [String: ZoneDatabase] = [:]

  /// The process's one database for `directory` (its cache of loaded zones is shared).
  public static func shared(directory: String?) -> ZoneDatabase {
    let database = ZoneDatabase(directory: directory)
    instancesLock.lock()
    defer { instancesLock.unlock() }
    if let existing = instances[database.directory] { return existing }
    instances[database.directory] = database
    return database
  }

  /// Whether the directory exists.
  public var exists: Bool { FileSystem.kind(of: directory) == .directory }

  // MARK: Zones

  /// The zone `name` names: the database's, else Foundation's; `nil` when neither knows it.
  /// Throws when the database's file for it is damaged.
  public func zone(named name: String) throws(ZoneDataError) -> Zone? {
    if let zone = try databaseZone(named: name) { return zone }
    return ZoneDatabase.foundationZone(named: name)
  }

  /// The zone `name` names in this database only (no fall back), or `nil`.
  public func databaseZone(named name: String) throws(ZoneDataError) -> Zone? {
    lock.lock()
    let cached = loaded[name]
    lock.unlock()
    if let cached { return cached }
    var zone: Zone?
    if let parts = ZoneDatabase.parts(of: name) {
      let exact = parts.joined(separator: "/")
      zone = try load(exact)
      if zone == nil, let spelled = spelledName(parts), spelled != exact {
        zone = try load(spelled)
      }
    }
    lock.lock()
    loaded[name] = .some(zone)
    lock.unlock()
    return zone
  }

  /// Foundation's zone `name` (matched ignoring case), or `nil`: the fall back for a zone the
  /// database lacks. Loads Foundation's zone data (milliseconds), so only called then.
  ///
  /// Foundation also makes up zones from offsets (`GMT+5`, `UTC-3:30`), five hours *ahead* of
  /// UTC for `GMT+5`, where POSIX, glibc and the database's `Etc/GMT+5` mean five hours behind:
  /// those are refused, so that one name never means two offsets.
  public static func foundationZone(named name: String) -> Zone? {
    guard !name.isEmpty, !isOffsetName(name) else { return nil }
    if let zone = TimeZone(identifier: name) { return Zone(foundation: zone) }
    let lowered = name.lowercased()
    guard
      let spelled = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.lowercased() == lowered }),
      let zone = TimeZone(identifier: spelled)
    else { return nil }
    return Zone(foundation: zone)
  }

  /// Whether `name` is an offset from GMT or UTC in Foundation's manner (`GMT+5`, `utc-03:30`).
  public static func isOffsetName(_ name: String) -> Bool {
    let upper = name.uppercased()
    for prefix in ["GMT", "UTC", "UT"] where upper.hasPrefix(prefix) {
      let rest = upper.dropFirst(prefix.count)
      if let sign = rest.first, sign == "+" || sign == "-" { return true }
    }
    return false
  }

  /// The zone in the TZif file at the absolute `path` (`TZ=/usr/share/zoneinfo/Europe/Berlin`),
  /// as glibc reads it: that file, named by the part of the path after this database's
  /// directory or after a `zoneinfo` directory. `nil` when the path is under neither, or holds
  /// no TZif file.
  public func zone(atPath path: String) throws(ZoneDataError) -> Zone? {
    if path.hasPrefix(directory + "/") {
      return try databaseZone(named: String(path.dropFirst(directory.count + 1)))
    }
    guard let name = ZoneDatabase.nameAfterZoneinfo(in: path),
      let parts = ZoneDatabase.parts(of: name)
    else { return nil }
    return try ZoneDatabase.zone(inFile: path, named: parts.joined(separator: "/"))
  }

  /// The system's zone: the TZif file `localtime` (`/etc/localtime`), as glibc reads it without
  /// `$TZ`. Named by its link into a tz database (`/usr/share/zoneinfo/Europe/Berlin`), else by
  /// the first line of `timezoneFile` (Debian's `/etc/timezone`), else `localtime`. UTC when
  /// there is no such file, as for glibc; an error when it is not a valid TZif file.
  public func systemZone(
    localtime: String = "/etc/localtime", timezoneFile: String = "/etc/timezone"
  ) throws(ZoneDataError) -> Zone {
    let target = ZoneDatabase.linkTarget(of: localtime)
    let linkedName = target.flatMap { target in
      target.hasPrefix(directory + "/")
        ? String(target.dropFirst(directory.count + 1))
        : ZoneDatabase.nameAfterZoneinfo(in: target)
    }.map { $0.hasPrefix("posix/") ? String($0.dropFirst(6)) : $0 }
    let name =
      linkedName
      ?? ZoneDatabase.firstLine(of: timezoneFile).flatMap { ZoneDatabase.parts(of: $0) }.map {
        $0.joined(separator: "/")
      } ?? "localtime"
    guard let zone = try ZoneDatabase.zone(inFile: localtime, named: name, shownPath: target)
    else {
      guard FileSystem.kind(of: localtime) == .missing else {
        throw ZoneDataError(.notTZif, path: localtime)
      }
      return Zone.utc
    }
    return zone
  }

  // MARK: What the database is

  /// The version of the data (`2026a`): the first line of `tzdata.zi` (`# version 2026a`), else
  /// the file `+VERSION`; `nil` when neither says.
  public var version: String? {
    lock.lock()
    defer { lock.unlock() }
    if let cachedVersion { return cachedVersion }
    var found: String?
    if let line = ZoneDatabase.firstLine(of: FileSystem.path("tzdata.zi", in: directory)),
      line.hasPrefix("# version ")
    {
      found = String(line.dropFirst("# version ".count))
    } else if let line = ZoneDatabase.firstLine(of: FileSystem.path("+VERSION", in: directory)) {
      found = line
    }
    if found?.isEmpty == true { found = nil }
    cachedVersion = .some(found)
    return found
  }

  /// The version of Foundation's built-in copy of the rules.
  public static var foundationVersion: String { TimeZone.timeZoneDataVersion }

  /// The names of the zones and links in the database, sorted: from `tzdata.zi` (its `Z` and
  /// `L` lines), else `zone1970.tab` and `zone.tab`, else the TZif files found in the directory.
  /// Read only for suggestions (a few milliseconds).
  public var names: [String] {
    lock.lock()
    defer { lock.unlock() }
    if let cachedNames { return cachedNames }
    var found = Set<String>()
    if let text = try? String(
      contentsOfFile: FileSystem.path("tzdata.zi", in: directory), encoding: .utf8)
    {
      for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        if fields.first == "Z", fields.count > 1 { found.insert(String(fields[1])) }
        if fields.first == "L", fields.count > 2 { found.insert(String(fields[2])) }
      }
    }
    if found.isEmpty {
      for table in ["zone1970.tab", "zone.tab"] {
        guard
          let text = try? String(
            contentsOfFile: FileSystem.path(table, in: directory), encoding: .utf8)
        else { continue }
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
          let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
          if fields.count > 2 { found.insert(String(fields[2])) }
        }
      }
    }
    if found.isEmpty { found = Set(walk("", depth: 0)) }
    let names = found.filter { ZoneDatabase.parts(of: $0) != nil }.sorted()
    cachedNames = names
    return names
  }

  // MARK: Files

  /// The zone in the file `relative` (a valid name) of the directory, or `nil` when there is
  /// none there or it is not a TZif file.
  private func load(_ relative: String) throws(ZoneDataError) -> Zone? {
    try ZoneDatabase.zone(inFile: FileSystem.path(relative, in: directory), named: relative)
  }

  /// The zone in the TZif file at `path`, named `name`, its source shown as `shownPath` (else
  /// `path`); `nil` when there is no regular file there or it does not start like TZif.
  private static func zone(inFile path: String, named name: String, shownPath: String? = nil)
    throws(ZoneDataError) -> Zone?
  {
    guard let bytes = try readZoneFile(path), TZif.hasMagic(bytes) else { return nil }
    do {
      return Zone(identifier: name, rules: try TZif.rules(from: bytes), path: shownPath ?? path)
    } catch {
      throw ZoneDataError(error.problem, path: path)
    }
  }

  /// The bytes of the regular file at `path`, or `nil` when there is none. TZif files are a few
  /// kilobytes; one larger than 4 MiB is refused rather than read (`/dev/zero` is not a zone).
  static func readZoneFile(_ path: String) throws(ZoneDataError) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT || errno == ENOTDIR || errno == ELOOP { return nil }
      throw ZoneDataError(.unreadable(FileSystem.errorText()), path: path)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let size = Int(status.st_size)
    guard size <= 4 << 20 else {
      throw ZoneDataError(.invalid("it is \(size) bytes, more than any zone needs"), path: path)
    }
    var bytes = [UInt8](repeating: 0, count: size)
    var count = 0
    while count < size {
      let got = bytes.withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress! + count, size - count)
      }
      if got < 0, errno == EINTR { continue }
      guard got >= 0 else {
        throw ZoneDataError(.unreadable(FileSystem.errorText()), path: path)
      }
      if got == 0 { break }
      count += got
    }
    return Array(bytes[..<count])
  }

  /// The parts of a zone name that can only name a file inside the directory, or `nil`.
  static func parts(of name: String) -> [Substring]? {
    guard !name.isEmpty, !name.hasPrefix("/"), !name.utf8.contains(0) else { return nil }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
    guard name != "localtime", name != "posixrules", parts.first != "right" else { return nil }
    return parts
  }

  /// `parts` spelled as the directory's entries are, each matched ignoring case, or `nil`.
  private func spelledName(_ parts: [Substring]) -> String? {
    var spelled: [String] = []
    var current = directory
    for part in parts {
      let wanted = part.lowercased()
      let entries = ZoneDatabase.entries(of: current)
      guard
        let entry = entries.first(where: { $0 == part })
          ?? entries.first(where: { $0.lowercased() == wanted })
      else { return nil }
      spelled.append(entry)
      current = FileSystem.path(entry, in: current)
    }
    return spelled.joined(separator: "/")
  }

  /// The names in `directory` (without `.` and `..`), or none.
  private static func entries(of directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }

  /// The TZif files under `relative`, as names, a few levels deep.
  private func walk(_ relative: String, depth: Int) -> [String] {
    guard depth < 4 else { return [] }
    var names: [String] = []
    let path = relative.isEmpty ? directory : FileSystem.path(relative, in: directory)
    for entry in ZoneDatabase.entries(of: path) {
      let name = relative.isEmpty ? entry : relative + "/" + entry
      switch FileSystem.kind(of: FileSystem.path(name, in: directory)) {
      case .directory:
        names += walk(name, depth: depth + 1)
      case .regularFile:
        if let bytes = try? ZoneDatabase.readZoneFile(FileSystem.path(name, in: directory)),
          TZif.hasMagic(bytes)
        {
          names.append(name)
        }
      default: break
      }
    }
    return names
  }

  /// Where the symbolic link `path` points, as an absolute path with `.` and `..` resolved; `nil`
  /// when it is no link.
  static func linkTarget(of path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    let target = String(
      decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let absolute =
      target.hasPrefix("/") ? target : FileSystem.path(target, in: FileSystem.parent(of: path))
    var parts: [Substring] = []
    for part in absolute.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        _ = parts.popLast()
      } else {
        parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The `zoneinfo` directory a zone file at `path` is in (`/usr/share/zoneinfo` for
  /// `/usr/share/zoneinfo/Europe/Berlin`), or `nil`.
  public static func directory(holding path: String) -> String? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard let index = parts.lastIndex(of: "zoneinfo"), index + 1 < parts.count else { return nil }
    return parts[...index].joined(separator: "/")
  }

  /// The part of `path` after its last `zoneinfo` directory (`Europe/Berlin`), or `nil`.
  static func nameAfterZoneinfo(in path: String) -> String? {
    let parts = path.split(separator: "/")
    guard let index = parts.lastIndex(of: "zoneinfo"), index + 1 < parts.count else { return nil }
    return parts[(index + 1)...].joined(separator: "/")
  }

  /// The first line of the small text file at `path`, without blanks around it; `nil` when there
  /// is no such file or the line is empty.
  static func firstLine(of path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 256) }
    guard count > 0 else { return nil }
    var line = buffer[..<count].prefix { $0 != UInt8(ascii: "\n") }
    // Blanks around it (a line of /etc/timezone may end in a carriage return or spaces).
    let blanks: [UInt8] = [0x20, 0x09, 0x0D]
    while let first = line.first, blanks.contains(first) { line = line.dropFirst() }
    while let last = line.last, blanks.contains(last) { line = line.dropLast() }
    return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
  }
}
