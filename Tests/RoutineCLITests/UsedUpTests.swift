import Foundation
import Testing

@testable import RoutineCLI

/// Issue 30: one-time reminders that are over leave `reminders` and `pending` (and come back
/// with `--all`), but not before delivery has judged their firing.
struct UsedUpTests {
  func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

  @Test func aOneTimeReminderLeavesTheListingsOnceItsFiringIsDecided() throws {
    let sandbox = Sandbox(now: "2026-05-01T06:00:00Z", zone: "Europe/Berlin")
    #expect(
      sandbox.run("reminders", "add", "--text", "Call mum", "--at", "2026-05-01 09:00").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Water", "--at", "10:00").status == 0)
    func listed(_ command: String..., at now: String) -> String {
      sandbox.run(command + ["--now", now]).stdout
    }
    // Before and just after its time, undelivered: still there.
    for now in ["2026-05-01T06:59:00Z", "2026-05-01T07:00:10Z"] {
      #expect(listed("reminders", at: now).contains("Call mum"), "\(now)")
      #expect(listed("pending", at: now).contains("Call mum"), "\(now)")
    }
    #expect(sandbox.run("deliver", "--now", "2026-05-01T07:00:20Z").stdout.contains("Call mum"))
    let reminders = listed("reminders", at: "2026-05-01T07:01:00Z")
    #expect(!reminders.contains("Call mum") && reminders.contains("Water"))
    #expect(
      lines(reminders).contains(
        "1 used-up one-time reminder not shown ('routine reminders --all' lists it)."))
    let pending = listed("pending", at: "2026-05-01T07:01:00Z")
    #expect(!pending.contains("Call mum") && pending.contains("Water"))
    let all = listed("reminders", "--all", at: "2026-05-01T07:01:00Z")
    #expect(lines(all).contains { $0.contains("Call mum") && $0.hasSuffix("used up") }, "\(all)")
    #expect(listed("pending", "--all", at: "2026-05-01T07:01:00Z").contains("Call mum"))
    // JSON: left out too, and marked with --all.
    let json = sandbox.run("reminders", "--json", "--all", "--now", "2026-05-01T07:01:00Z").json
    let rows = try #require(json["reminders"] as? [[String: Any]])
    #expect(rows.map { $0["usedUp"] as? Bool } == [true, false])
    let plain = sandbox.run("reminders", "--json", "--now", "2026-05-01T07:01:00Z").json
    #expect((plain["reminders"] as? [[String: Any]])?.count == 1)
    let pendingJSON = sandbox.run("pending", "--json", "--now", "2026-05-01T07:01:00Z")
    #expect((pendingJSON.json["requests"] as? [[String: Any]])?.count == 1)
    // It is still answerable and in the history.
    #expect(
      sandbox.run("respond", "reminder-1", "done", "--now", "2026-05-01T07:02:00Z").status == 0)
    #expect(
      sandbox.run("history", "--now", "2026-05-01T08:00:00Z").stdout.contains("Call mum"))
  }

  @Test func anUndeliveredOneIsOverADayAfterItsTime() {
    let sandbox = Sandbox(now: "2026-05-01T06:00:00Z", zone: "Europe/Berlin")
    #expect(
      sandbox.run("reminders", "add", "--text", "Call mum", "--at", "2026-05-01 09:00").status == 0)
    #expect(
      sandbox.run("reminders", "--now", "2026-05-02T06:59:00Z").stdout.contains("Call mum"))
    let later = sandbox.run("reminders", "--now", "2026-05-02T07:00:01Z").stdout
    #expect(!later.contains("Call mum"))
    // With nothing else left, the listing says why it is empty rather than "no reminders yet".
    #expect(!later.contains("No reminders yet"))
    #expect(later.contains("1 used-up one-time reminder not shown"))
  }

  @Test func aRepeatingOrDisabledReminderIsNeverUsedUp() {
    let sandbox = Sandbox(now: "2026-05-01T06:00:00Z", zone: "Europe/Berlin")
    #expect(
      sandbox.run("reminders", "add", "--text", "Call mum", "--at", "2026-05-01 09:00").status == 0)
    #expect(sandbox.run("reminders", "disable", "reminder-1").status == 0)
    let listed = sandbox.run("reminders", "--now", "2026-05-03T07:00:00Z").stdout
    #expect(listed.contains("Call mum") && listed.contains("disabled"))
  }
}
