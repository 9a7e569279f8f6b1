import Foundation
import RoutineCore
import RoutineStore

/// What an alarm plays while it rings, and through which program: the sound the setting names
/// (`settings --alarm-sound`), found as the freedesktop sound theme specification finds it,
/// played by the first player on `PATH` that can play it (docs/delivery.md).
struct AlarmSound: Sendable, Equatable {
  /// A program that plays a sound file once and exits.
  struct Player: Sendable, Equatable {
    /// The players routine knows, in the order it looks for them: libcanberra's own (it
    /// follows the desktop's sound theme and volume), then PulseAudio's and PipeWire's, then
    /// plain ALSA's, which plays WAV files only.
    enum Kind: String, CaseIterable, Sendable {
      case canberra = "canberra-gtk-play"
      case paplay
      case pwPlay = "pw-play"
      case aplay
    }

    var kind: Kind
    /// Its full path.
    var path: String

    /// Whether it can play `source`. libcanberra reads WAV and Ogg Vorbis; `paplay` and
    /// `pw-play` read through libsndfile, which tells a file's format from its content (a file
    /// it cannot read fails when played, and the delivery notes it); `aplay` reads WAV only.
    func canPlay(_ source: Source) -> Bool {
      switch (kind, source) {
      case (_, .tone): true
      case (.paplay, _), (.pwPlay, _): true
      case (.canberra, .theme): true
      case (.canberra, .file(let path)): ["wav", "oga", "ogg"].contains(Self.suffix(of: path))
      case (.aplay, .theme(_, let path)), (.aplay, .file(let path)): Self.suffix(of: path) == "wav"
      }
    }

    /// The arguments that play `source` (at `tone`, the built-in tone's file) once.
    func arguments(for source: Source, tone: String) -> [String] {
      let file: String
      switch source {
      case .theme(let name, let path):
        // libcanberra finds the theme's sound itself: the desktop's theme, if it has one.
        if kind == .canberra { return ["-i", name, "-d", "routine alarm"] }
        file = path
      case .file(let path): file = path
      case .tone: file = tone
      }
      switch kind {
      case .canberra: return ["-f", file, "-d", "routine alarm"]
      case .aplay: return ["-q", file]
      case .paplay, .pwPlay: return [file]
      }
    }

    private static func suffix(of path: String) -> String {
      (path as NSString).pathExtension.lowercased()
    }
  }

  /// What is played.
  enum Source: Sendable, Equatable {
    /// A sound of the sound theme, by its name, and the file it was found at.
    case theme(name: String, file: String)
    /// A file the person named.
    case file(String)
    /// The built-in tone (``AlarmTone``), written to a private file for the player.
    case tone
  }

  var player: Player
  var source: Source
  /// Why the built-in tone plays instead of the sound the setting names, when it does.
  var fallback: String?

  /// What an alarm does about sound.
  enum Plan: Sendable, Equatable {
    /// It plays `sound`.
    case play(AlarmSound)
    /// It rings silently, for `reason`; `isChosen` when the person chose so (the setting is
    /// off, or their sound theme disables the sound).
    case silent(reason: String, isChosen: Bool)
  }

  /// Where a sound theme's sound was looked for, and what was found.
  enum ThemeLookup: Sendable, Equatable {
    /// The sound's file.
    case found(String)
    /// A `NAME.disabled` file turns the sound off.
    case disabled(String)
    /// Nothing in these directories.
    case missing(searched: [String])
  }

  /// The sound theme routine reads (the specification's fallback theme, which every other
  /// theme inherits from).
  static let theme = "freedesktop"
  /// The file extensions of a theme's sound, in the order they are tried; `disabled` first,
  /// so that a user's `NAME.disabled` silences the system's file.
  static let themeExtensions = ["disabled", "oga", "ogg", "wav"]

  /// The directories holding sound themes, most important first: `$XDG_DATA_HOME/sounds`
  /// (default `~/.local/share/sounds`), then `sounds` in each of `$XDG_DATA_DIRS` (default
  /// `/usr/local/share:/usr/share`).
  static func themeDirectories(_ environment: [String: String]) -> [String] {
    var bases: [String] = []
    if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
      bases.append(home)
    } else if let home = environment["HOME"], !home.isEmpty {
      bases.append(home + "/.local/share")
    }
    let shared =
      environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "/usr/local/share:/usr/share"
    // The specification ignores relative entries: they would depend on the working directory.
    bases += shared.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    var seen: Set<String> = []
    return bases.map { ($0.hasSuffix("/") ? String($0.dropLast()) : $0) + "/sounds" }
      .filter { seen.insert($0).inserted }
  }

  /// Finds the theme sound `name`: in each theme directory's `freedesktop/stereo`, with each
  /// of ``themeExtensions``; then, as the sound naming specification falls back, under the
  /// name without its last dash-separated part (`alarm-clock-elapsed`, `alarm-clock`,
  /// `alarm`).
  static func lookUp(theme name: String, environment: [String: String]) -> ThemeLookup {
    let directories = themeDirectories(environment).map { "\($0)/\(theme)/stereo" }
    var candidate = Substring(name)
    while !candidate.isEmpty {
      for directory in directories {
        for suffix in themeExtensions {
          let path = "\(directory)/\(candidate).\(suffix)"
          guard FileManager.default.fileExists(atPath: path) else { continue }
          if suffix == "disabled" { return .disabled(path) }
          if FileManager.default.isReadableFile(atPath: path) { return .found(path) }
        }
      }
      guard let dash = candidate.lastIndex(of: "-") else { break }
      candidate = candidate[..<dash]
    }
    return .missing(searched: directories)
  }

  /// The players on `PATH` (`/usr/bin:/bin` without one), in the order of ``Player/Kind``.
  static func players(_ environment: [String: String]) -> [Player] {
    Player.Kind.allCases.compactMap { kind in
      ChildProcess.find(kind.rawValue, path: environment["PATH"]).map {
        Player(kind: kind, path: $0)
      }
    }
  }

  /// The names of the players, for messages: "canberra-gtk-play, paplay, pw-play or aplay".
  static var playerNames: String {
    let names = Player.Kind.allCases.map(\.rawValue)
    return names.dropLast().joined(separator: ", ") + " or " + names.last!
  }

  /// What an alarm plays under `setting` (``PlannerSettings/alarmSound``: a theme name, a file
  /// when it holds a `/`, `nil` for off) in `environment`. The built-in tone stands in when the
  /// theme's sound is not installed, when the named file cannot be read, or when no player
  /// can play either: an alarm the person asked to hear is heard whenever a player exists.
  static func plan(setting: String?, environment: [String: String]) -> Plan {
    guard let setting else {
      return .silent(reason: "the alarm sound is off (settings --alarm-sound)", isChosen: true)
    }
    let players = players(environment)
    guard let first = players.first else {
      return .silent(reason: "no sound player: none of \(playerNames) is on PATH", isChosen: false)
    }
    let wanted: Source
    var fallback: String?
    if setting.contains("/") {
      if FileSystem.kind(of: setting) == .regularFile,
        FileManager.default.isReadableFile(atPath: setting)
      {
        wanted = .file(setting)
      } else {
        wanted = .tone
        fallback = "the sound file '\(setting)' cannot be read"
      }
    } else {
      switch lookUp(theme: setting, environment: environment) {
      case .found(let path): wanted = .theme(name: setting, file: path)
      case .disabled(let path):
        return .silent(reason: "the sound theme turns '\(setting)' off (\(path))", isChosen: true)
      case .missing(let searched):
        wanted = .tone
        fallback =
          "the sound theme has no '\(setting)' (looked in \(searched.joined(separator: ", ")); Debian's package sound-theme-freedesktop installs it)"
      }
    }
    if let player = players.first(where: { $0.canPlay(wanted) }) {
      return .play(AlarmSound(player: player, source: wanted, fallback: fallback))
    }
    return .play(
      AlarmSound(
        player: first, source: .tone,
        fallback: "\(first.kind.rawValue) cannot play \(wanted.file ?? setting) (WAV only)"))
  }

  /// For `routine doctor`: which player plays which sound, or why alarms ring silently; `ok`
  /// is false when an alarm would not play what the setting names (no player, no sound server,
  /// a file that cannot be read, the theme's sound missing). The sound server is asked with
  /// `pactl info` for the PulseAudio and PipeWire players (both servers answer it).
  static func diagnose(setting: String?, environment: [String: String]) -> (
    ok: Bool, text: String
  ) {
    switch plan(setting: setting, environment: environment) {
    case .silent(let reason, let isChosen):
      return (isChosen, "alarms ring silently: \(reason)")
    case .play(let sound):
      let what: String
      switch sound.source {
      case .theme(let name, let file): what = "the theme sound '\(name)' (\(file))"
      case .file(let path): what = "'\(path)'"
      case .tone: what = "the built-in tone"
      }
      var text = "\(sound.player.kind.rawValue) plays \(what) until the alarm is answered"
      if let fallback = sound.fallback { text += ": \(fallback)" }
      if let problem = serverProblem(sound.player, environment: environment) {
        return (false, "alarms ring silently: \(problem)")
      }
      return (sound.fallback == nil, text)
    }
  }

  /// Why `player` cannot be heard, when its sound server does not answer.
  static func serverProblem(_ player: Player, environment: [String: String]) -> String? {
    switch player.kind {
    case .aplay: return nil
    case .canberra, .paplay, .pwPlay:
      if let pactl = ChildProcess.find("pactl", path: environment["PATH"]) {
        let result = try? ChildProcess.run(
          pactl, ["info"], environment: environment, input: Data(), timeout: 5)
        guard let result, result.status != 0 else { return nil }
        // canberra-gtk-play falls back to ALSA without a server.
        if player.kind == .canberra { return nil }
        let detail = result.errors.split(separator: "\n").first.map { ": \($0)" } ?? ""
        return
          "\(player.kind.rawValue) needs a PulseAudio or PipeWire sound server, and 'pactl info' found none\(detail)"
      }
      guard player.kind == .pwPlay else { return nil }
      let runtime = environment["PIPEWIRE_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"]
      let socket =
        "\(runtime ?? "/run/user/\(getuid())")/\(environment["PIPEWIRE_REMOTE"] ?? "pipewire-0")"
      return FileManager.default.fileExists(atPath: socket)
        ? nil : "pw-play needs a PipeWire server, and there is none at '\(socket)'"
    }
  }
}

extension AlarmSound.Source {
  /// The file played, when it is not the built-in tone.
  var file: String? {
    switch self {
    case .theme(_, let file): file
    case .file(let path): path
    case .tone: nil
    }
  }
}
