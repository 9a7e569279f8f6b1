import Foundation
import Testing

@testable import RoutineCLI

/// Issue 30, boundaries: every setting's lower bound is taken and one below it refused (the store
/// unchanged), and a store at every lower bound at once plans, delivers and snoozes.
struct SettingBoundsTests {
  static let lowest: [(option: String, key: String, value: String, below: String)] = [
    ("--lead", "leadMinutes", "0", "-1"), ("--buffer", "bufferMinutes", "0", "-1"),
    ("--window", "windowDays", "1", "0"), ("--weekly", "weeklyDays", "0", "-1"),
    ("--grace", "graceMinutes", "0", "-1"), ("--snooze", "snoozeMinutes", "1", "0"),
    ("--daily-cap", "dailyCap", "0", "-1"), ("--threshold", "threshold", "0", "-0.01"),
  ]

  @Test func eachLowerBoundIsTakenAndOneBelowIsRefused() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("settings", "--lead", "7").status == 0)
    for setting in Self.lowest {
      let before = sandbox.run("settings", "--json").json
      let refused = sandbox.run("settings", "\(setting.option)=\(setting.below)")
      #expect(refused.status == 64, "\(setting.option) \(setting.below)")
      #expect(refused.stderr.contains(setting.option), "\(refused.stderr)")
      #expect(
        NSDictionary(dictionary: sandbox.run("settings", "--json").json)
          == NSDictionary(dictionary: before))
      #expect(sandbox.run("settings", setting.option, setting.value).status == 0)
      let stored = sandbox.run("settings", "--json").json[setting.key]
      #expect((stored as? NSNumber)?.doubleValue == Double(setting.value), "\(setting.key)")
    }
  }

  @Test func atEveryLowerBoundAtOnceTheLoopStillWorks() throws {
    let sandbox = Sandbox(now: "2026-04-27T04:00:00+02:00")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    #expect(sandbox.run("import", sample).status == 0)
    // The window's lower bound alone learns from one day; the rest at their lowest.
    var arguments = ["settings"]
    for setting in Self.lowest where setting.option != "--window" {
      arguments += [setting.option, setting.value]
    }
    #expect(sandbox.run(arguments).status == 0)
    #expect(sandbox.run("plan").status == 0)
    let wake = try #require(
      (sandbox.run("pending", "--json").json["requests"] as? [[String: Any]])?.first {
        ($0["id"] as? String)?.hasPrefix("routine_WakeUp-weekday-2") == true
      })
    let trigger = try #require(wake["trigger"] as? [String: Any])
    let (hour, minute) = (trigger["hour"] as! Int, trigger["minute"] as! Int)
    let at = String(format: "2026-04-27T%02d:%02d:20+02:00", hour, minute)
    // Grace 0: cron's run 20 seconds after the minute still delivers it, on time.
    let delivered = sandbox.run("deliver", "--now", at).stdout
    #expect(delivered.contains("routine_WakeUp-weekday-2"), "\(delivered)")
    #expect(delivered.contains("\"late\":false"))
    // Snooze 1: back a minute later.
    #expect(
      sandbox.run("respond", "routine_WakeUp-weekday-2", "snooze", "--now", at).stdout.contains(
        "comes back"))
    let later = String(format: "2026-04-27T%02d:%02d:30+02:00", hour, minute + 1)
    #expect(sandbox.run("deliver", "--now", later).stdout.contains("Time for Wake Up"))
    #expect(sandbox.run("settings", "--window", "1").status == 0)
    #expect(sandbox.run("plan").status == 0)
  }
}
