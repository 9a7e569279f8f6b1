import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// A directory of fake players: scripts that record their arguments, one line per play, and
/// sleep a while as a sound would.
private final class FakePlayers: @unchecked Sendable {
  let directory: URL
  var log: String { directory.appendingPathComponent("plays.log").path }

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-players-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  var bin: String { directory.appendingPathComponent("bin").path }

  /// Installs `name` on this PATH: it logs `name ARGS` (and, with `reportMode`, the last
  /// argument's permissions), then runs `body`.
  @discardableResult
  func install(_ name: String, body: String = "sleep 0.3", reportMode: Bool = false) throws
    -> String
  {
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let path = "\(bin)/\(name)"
    let mode = reportMode ? "echo \"mode $(stat -c %a \"$last\")\" >> '\(log)'" : ""
    try """
    #!/bin/sh
    PATH=/usr/bin:/bin
    for last in "$@"; do :; done
    echo "$(basename "$0") $*" >> '\(log)'
    \(mode)
    \(body)
    """.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return path
  }

  var plays: [String] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(
      String.init)
  }

  /// A sound theme directory holding `files` (names in `freedesktop/stereo`) under `base`.
  @discardableResult
  func theme(_ base: String, _ files: [String]) throws -> String {
    let root = directory.appendingPathComponent(base).path
    let stereo = "\(root)/sounds/freedesktop/stereo"
    try FileManager.default.createDirectory(atPath: stereo, withIntermediateDirectories: true)
    for file in files {
      _ = FileManager.default.createFile(atPath: "\(stereo)/\(file)", contents: Data("x".utf8))
    }
    return root
  }
}

struct AlarmSoundResolutionTests {
  @Test func themeDirectoriesFollowTheXDGBaseDirectories() {
    #expect(
      AlarmSound.themeDirectories(["HOME": "/home/ann"]) == [
        "/home/ann/.local/share/sounds", "/usr/local/share/sounds", "/usr/share/sounds",
      ])
    #expect(
      AlarmSound.themeDirectories([
        "HOME": "/home/ann", "XDG_DATA_HOME": "/data/ann",
        "XDG_DATA_DIRS": "/opt/share/:relative:/usr/share",
      ]) == ["/data/ann/sounds", "/opt/share/sounds", "/usr/share/sounds"])
  }

  @Test func theUsersDirectoryComesFirstAndADisabledFileSilencesTheSound() throws {
    let fake = try FakePlayers()
    let user = try fake.theme("user", ["alarm-clock-elapsed.wav"])
    let system = try fake.theme("system", ["alarm-clock-elapsed.oga", "bell.oga", "bell.wav"])
    let environment = ["XDG_DATA_HOME": user, "XDG_DATA_DIRS": system]
    #expect(
      AlarmSound.lookUp(theme: "alarm-clock-elapsed", environment: environment)
        == .found("\(user)/sounds/freedesktop/stereo/alarm-clock-elapsed.wav"))
    // Within a directory, Ogg before WAV.
    #expect(
      AlarmSound.lookUp(theme: "bell", environment: environment)
        == .found("\(system)/sounds/freedesktop/stereo/bell.oga"))
    try fake.theme("user", ["bell.disabled"])
    #expect(
      AlarmSound.lookUp(theme: "bell", environment: environment)
        == .disabled("\(user)/sounds/freedesktop/stereo/bell.disabled"))
  }

  @Test func aMissingNameFallsBackToItsShorterNamesThenToNothing() throws {
    let fake = try FakePlayers()
    let system = try fake.theme("system", ["alarm-clock.oga"])
    let environment = ["HOME": "/nonexistent", "XDG_DATA_DIRS": system]
    #expect(
      AlarmSound.lookUp(theme: "alarm-clock-elapsed", environment: environment)
        == .found("\(system)/sounds/freedesktop/stereo/alarm-clock.oga"))
    #expect(
      AlarmSound.lookUp(theme: "phone-incoming-call", environment: environment)
        == .missing(searched: [
          "/nonexistent/.local/share/sounds/freedesktop/stereo",
          "\(system)/sounds/freedesktop/stereo",
        ]))
  }

  @Test func theFirstPlayerThatCanPlayTheSoundIsChosen() throws {
    let fake = try FakePlayers()
    let system = try fake.theme("system", ["alarm-clock-elapsed.oga"])
    let oga = "\(system)/sounds/freedesktop/stereo/alarm-clock-elapsed.oga"
    var environment = ["HOME": "/nonexistent", "XDG_DATA_DIRS": system, "PATH": fake.bin]
    let aplay = try fake.install("aplay")
    // aplay plays WAV only: the built-in tone stands in for the theme's Ogg file.
    guard
      case .play(let alone) = AlarmSound.plan(
        setting: "alarm-clock-elapsed", environment: environment)
    else { Issue.record("no sound"); return }
    #expect(alone.player == .init(kind: .aplay, path: aplay))
    #expect(alone.source == .tone)
    #expect(alone.fallback?.contains("aplay cannot play \(oga)") == true)
    #expect(alone.player.arguments(for: alone.source, tone: "/tmp/t.wav") == ["-q", "/tmp/t.wav"])
    let pwPlay = try fake.install("pw-play")
    #expect(
      AlarmSound.plan(setting: "alarm-clock-elapsed", environment: environment)
        == .play(
          AlarmSound(
            player: .init(kind: .pwPlay, path: pwPlay),
            source: .theme(name: "alarm-clock-elapsed", file: oga), fallback: nil)))
    let paplay = try fake.install("paplay")
    guard
      case .play(let pulse) = AlarmSound.plan(
        setting: "alarm-clock-elapsed", environment: environment)
    else { Issue.record("no sound"); return }
    #expect(pulse.player.path == paplay)
    #expect(pulse.player.arguments(for: pulse.source, tone: "") == [oga])
    let canberra = try fake.install("canberra-gtk-play")
    guard
      case .play(let desktop) = AlarmSound.plan(
        setting: "alarm-clock-elapsed", environment: environment)
    else { Issue.record("no sound"); return }
    #expect(desktop.player.path == canberra)
    #expect(
      desktop.player.arguments(for: desktop.source, tone: "")
        == ["-i", "alarm-clock-elapsed", "-d", "routine alarm"])
    // A theme without the sound: the tone, by the first player.
    environment["XDG_DATA_DIRS"] = "/nonexistent"
    guard
      case .play(let missing) = AlarmSound.plan(
        setting: "alarm-clock-elapsed", environment: environment)
    else { Issue.record("no sound"); return }
    #expect(missing.source == .tone)
    #expect(missing.player.kind == .canberra)
    #expect(missing.fallback?.contains("sound-theme-freedesktop") == true)
  }

  @Test func aNamedFileIsPlayedByAPlayerThatReadsIt() throws {
    let fake = try FakePlayers()
    let song = fake.directory.appendingPathComponent("wake up.flac").path
    _ = FileManager.default.createFile(atPath: song, contents: Data("x".utf8))
    let environment = ["PATH": fake.bin]
    try fake.install("aplay")
    try fake.install("canberra-gtk-play")
    // Neither libcanberra nor aplay reads FLAC.
    guard case .play(let onlyTone) = AlarmSound.plan(setting: song, environment: environment)
    else { Issue.record("no sound"); return }
    #expect(onlyTone.source == .tone)
    #expect(onlyTone.player.kind == .canberra)
    let paplay = try fake.install("paplay")
    #expect(
      AlarmSound.plan(setting: song, environment: environment)
        == .play(
          AlarmSound(player: .init(kind: .paplay, path: paplay), source: .file(song), fallback: nil)
        ))
    guard case .play(let gone) = AlarmSound.plan(setting: song + ".gone", environment: environment)
    else { Issue.record("no sound"); return }
    #expect(gone.source == .tone)
    #expect(gone.fallback == "the sound file '\(song).gone' cannot be read")
  }

  @Test func withoutAPlayerOrWithTheSoundOffTheAlarmIsSilentAndDoctorSaysWhy() throws {
    let fake = try FakePlayers()
    let environment = ["PATH": fake.bin]
    #expect(
      AlarmSound.plan(setting: "alarm-clock-elapsed", environment: environment)
        == .silent(
          reason: "no sound player: none of canberra-gtk-play, paplay, pw-play or aplay is on PATH",
          isChosen: false))
    let missing = AlarmSound.diagnose(setting: "alarm-clock-elapsed", environment: environment)
    #expect(!missing.ok)
    #expect(
      missing.text
        == "alarms ring silently: no sound player: none of canberra-gtk-play, paplay, pw-play or aplay is on PATH"
    )
    try fake.install("paplay")
    let off = AlarmSound.diagnose(setting: nil, environment: environment)
    #expect(off.ok)
    #expect(off.text == "alarms ring silently: the alarm sound is off (settings --alarm-sound)")
  }

  @Test func doctorAsksTheSoundServer() throws {
    let fake = try FakePlayers()
    let system = try fake.theme("system", ["alarm-clock-elapsed.oga"])
    let environment = ["HOME": "/nonexistent", "XDG_DATA_DIRS": system, "PATH": fake.bin]
    try fake.install("paplay")
    try fake.install("pactl", body: "echo 'Connection failure: Connection refused' >&2; exit 1")
    let down = AlarmSound.diagnose(setting: "alarm-clock-elapsed", environment: environment)
    #expect(!down.ok)
    #expect(
      down.text
        == "alarms ring silently: paplay needs a PulseAudio or PipeWire sound server, and 'pactl info' found none: Connection failure: Connection refused"
    )
    try fake.install("pactl", body: "echo 'Server Name: pulseaudio'")
    let up = AlarmSound.diagnose(setting: "alarm-clock-elapsed", environment: environment)
    #expect(up.ok)
    #expect(
      up.text
        == "paplay plays the theme sound 'alarm-clock-elapsed' (\(system)/sounds/freedesktop/stereo/alarm-clock-elapsed.oga) until the alarm is answered"
    )
  }
}

@Suite(.serialized)
struct AlarmSoundRingTests {
  /// Whether process `pid` exists (a zombie counts: it has not been reaped).
  static func exists(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }

  @Test func theSoundPlaysAgainUntilAnsweredAndThePlayerIsKilledAtOnce() throws {
    let fake = try FakePlayers()
    let pids = fake.directory.appendingPathComponent("pids").path
    let player = try fake.install("paplay", body: "echo $$ >> '\(pids)'; exec sleep 0.4")
    let answered = Flag()
    let ring = AlarmSoundRing(
      sound: AlarmSound(player: .init(kind: .paplay, path: player), source: .file("/s.oga")),
      limit: 30, environment: ["PATH": "/usr/bin:/bin"], pollInterval: 0.1,
      isAnswered: { answered.value })
    ring.start()
    #expect(DesktopHarness.eventually(5) { fake.plays.count >= 3 })
    let started = Date()
    answered.value = true
    #expect(ring.wait() == .stopped)
    #expect(Date().timeIntervalSince(started) < 1.5)
    #expect(fake.plays.allSatisfy { $0 == "paplay /s.oga" })
    let players = ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(
      separator: "\n"
    ).compactMap { pid_t($0) }
    #expect(players.count >= 3)
    #expect(players.allSatisfy { !Self.exists($0) }, "every player ended and was reaped")
  }

  @Test func stopKillsALongPlayAndItsProcessGroup() throws {
    let fake = try FakePlayers()
    let pids = fake.directory.appendingPathComponent("pids").path
    // A player with a child of its own, as a shell wrapper would have.
    let player = try fake.install(
      "pw-play", body: "sleep 30 & echo $! >> '\(pids)'; echo $$ >> '\(pids)'; wait")
    let ring = AlarmSoundRing(
      sound: AlarmSound(player: .init(kind: .pwPlay, path: player), source: .file("/s.oga")),
      limit: 60, environment: [:], isAnswered: { false })
    ring.start()
    #expect(
      DesktopHarness.eventually(5) {
        ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n").count
          == 2
      })
    let started = Date()
    ring.stop()
    #expect(ring.wait() == .stopped)
    #expect(Date().timeIntervalSince(started) < 1.5)
    let players = ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(
      separator: "\n"
    ).compactMap { pid_t($0) }
    #expect(DesktopHarness.eventually(2) { players.allSatisfy { !Self.exists($0) } })
  }

  @Test func aRingEndsByItselfBeforeTheNextOne() throws {
    let fake = try FakePlayers()
    let player = try fake.install("paplay", body: "sleep 0.2")
    let started = Date()
    let ring = AlarmSoundRing(
      sound: AlarmSound(player: .init(kind: .paplay, path: player), source: .file("/s.oga")),
      limit: 2.5, environment: [:], isAnswered: { false })
    ring.start()
    #expect(ring.wait() == .timedOut)
    let took = Date().timeIntervalSince(started)
    #expect(took >= 2.5 && took < 4)
    // Each play is padded to a second: a player that ends at once is not started in a loop.
    #expect((2...3).contains(fake.plays.count))
  }

  @Test func theToneIsAPrivateFileRemovedAfterwards() throws {
    let fake = try FakePlayers()
    let player = try fake.install("aplay", body: "sleep 0.2", reportMode: true)
    let temporary = fake.directory.appendingPathComponent("tmp").path
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    let ring = AlarmSoundRing(
      sound: AlarmSound(player: .init(kind: .aplay, path: player), source: .tone),
      limit: 30, environment: ["TMPDIR": temporary], isAnswered: { false })
    ring.start()
    #expect(DesktopHarness.eventually(5) { fake.plays.count >= 2 })
    ring.stop()
    #expect(ring.wait() == .stopped)
    let play = try #require(fake.plays.first)
    #expect(play.hasPrefix("aplay -q \(temporary)/routine-alarm-"))
    #expect(play.hasSuffix(".wav"))
    #expect(fake.plays[1] == "mode 600")
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
  }

  @Test func aPlayerThatFailsEndsTheRingWithItsReason() throws {
    let fake = try FakePlayers()
    let player = try fake.install(
      "paplay", body: "echo 'Connection failure: Connection refused' >&2; exit 1")
    let ring = AlarmSoundRing(
      sound: AlarmSound(player: .init(kind: .paplay, path: player), source: .file("/s.oga")),
      limit: 30, environment: [:], isAnswered: { false })
    ring.start()
    #expect(
      ring.wait() == .failed("paplay exited with status 1: Connection failure: Connection refused"))
    #expect(fake.plays.count == 1)
  }
}

struct AlarmSoundSignalTests {
  @Test func stoppingRoutineWhileAnAlarmSoundsStopsThePlayerAndRemovesTheTone() throws {
    let fake = try FakePlayers()
    let pids = fake.directory.appendingPathComponent("pids").path
    try fake.install("paplay", body: "echo $$ >> '\(pids)'; exec sleep 30")
    let temporary = fake.directory.appendingPathComponent("tmp").path
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    // No sound theme: the built-in tone, in a file of its own.
    let environment = [
      "PATH": fake.bin, "HOME": fake.directory.path, "XDG_DATA_DIRS": "/nonexistent",
      "TMPDIR": temporary, "TZ": "UTC",
    ]
    let now = Timestamp(
      secondsSince1970: Int64(Date().timeIntervalSince1970) / 60 * 60, utcOffsetSeconds: 0)
    let routine = try Sandbox.binary().path
    let waiting = try AlarmSoundServer.spawn(
      routine,
      [
        "await-answer", "reminder-1-weekday-1", "--occurrence", now.iso8601, "--store",
        fake.directory.appendingPathComponent("none.db").path, "--alarm", "0", "--",
        "/bin/sleep", "30",
      ], environment: environment, ownGroup: true)
    defer {
      kill(-waiting, SIGKILL)
      AlarmSoundServer.reap(waiting)
    }
    #expect(DesktopHarness.eventually(10) { fake.plays.count == 1 })
    let player = try #require(
      DesktopHarness.eventually(5) {
        !((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").isEmpty
      }
        ? pid_t(
          try String(contentsOfFile: pids, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)) : nil)
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).count == 1)
    kill(waiting, SIGTERM)
    var status: Int32 = 0
    #expect(waitpid(waiting, &status, 0) == waiting)
    #expect(status & 0x7f == SIGTERM, "routine ends by the signal, as it would have")
    #expect(
      DesktopHarness.eventually(3) { kill(player, 0) == -1 && errno == ESRCH },
      "the player is gone")
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
  }
}

/// A flag set by one thread and read by another.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = false
  var value: Bool {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
