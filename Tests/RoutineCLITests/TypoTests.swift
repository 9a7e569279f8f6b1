import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// A new kind or an action near a known one is named (docs/cli.md, "A typo is named").
struct TypoTests {
  func coffee() -> Sandbox {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("log", "Coffee", "--at", "07:00").status == 0)
    return sandbox
  }

  @Test func withoutATerminalATypoIsLoggedAsTypedWithAWarning() throws {
    let sandbox = coffee()
    let typo = sandbox.run("log", "Coffe", "--at", "08:00")
    #expect(typo.status == 0)
    #expect(typo.stdout == "Logged Coffe at Mon 2026-04-27 08:00 (+02:00).\n")
    #expect(
      typo.stderr
        == "warning: 'Coffe' is a new kind, near 'Coffee'; logged as typed ('routine kinds rename Coffe Coffee' merges it, 'routine undo' removes it)\n"
    )
    // The same through the binary, with standard input not a terminal.
    let script = try sandbox.runBinary("log", "Wkae Up", "--at", "06:00")
    #expect(script.status == 0)
    #expect(script.stderr.isEmpty)
    #expect(sandbox.run("log", "Wake Up", "--at", "06:30").status == 0)
    let near = try sandbox.runBinary("log", "Wkae Up", "--at", "06:40")
    // 'Wkae Up' is stored now: logging it again is no typo.
    #expect(near.stderr.isEmpty)
    let other = try sandbox.runBinary("log", "Wake Upp", "--at", "06:50")
    #expect(other.stderr.contains("'Wake Upp' is a new kind, near 'Wake Up'"), "\(other.stderr)")
    #expect(other.stderr.contains("'routine kinds rename \"Wake Upp\" \"Wake Up\"' merges it"))
  }

  @Test func aKnownKindAnyCaseAndAFarOneAreNoTypo() {
    let sandbox = coffee()
    #expect(sandbox.run("log", "coffee", "--at", "08:00").stderr.isEmpty)
    #expect(sandbox.run("log", "Tea", "--at", "08:00").stderr.isEmpty)
    #expect(sandbox.run("log", "Cofe", "--at", "08:00").stderr.isEmpty)
  }

  @Test func onATerminalLogAsks() {
    let sandbox = coffee()
    sandbox.interactiveAnswers = ["u"]
    let used = sandbox.run("log", "Coffe", "--at", "08:00")
    #expect(
      used.stderr
        == "'Coffe' is a new kind, near 'Coffee'. Log [t]yped as 'Coffe', [u]se 'Coffee', or [c]ancel? [c] "
    )
    #expect(used.stdout == "Logged Coffee at Mon 2026-04-27 08:00 (+02:00).\n")
    sandbox.interactiveAnswers = ["t"]
    #expect(
      sandbox.run("log", "Coffe", "--at", "08:10").stdout
        == "Logged Coffe at Mon 2026-04-27 08:10 (+02:00).\n")
    #expect(sandbox.run("undo", "--yes").status == 0)
    sandbox.interactiveAnswers = [""]
    let cancelled = sandbox.run("log", "Coffe", "--at", "08:20")
    #expect(cancelled.status == 0)
    #expect(cancelled.stdout == "Nothing logged.\n")
    sandbox.interactiveAnswers = nil
    #expect(
      sandbox.run("events").stdout
        == "2026-04-27T07:00:00+02:00  Coffee  (cli)\n2026-04-27T08:00:00+02:00  Coffee  (cli)\n")
  }

  /// A NoAlc check-in delivered at 09:00 (its actions: steady, easy, wild, ...).
  func delivered() -> Sandbox {
    let sandbox = Sandbox(now: "2026-05-05T08:00:00+02:00")
    #expect(sandbox.run("reminders", "add", "--activity", "noalc", "--at", "09:00").status == 0)
    #expect(sandbox.run("deliver", "--now", "2026-05-05T09:00:30+02:00").status == 0)
    return sandbox
  }

  @Test func anActionNearAnOfferedOneIsNamedAndRefusedWithoutATerminal() {
    let sandbox = delivered()
    let typo = sandbox.run(
      "respond", "reminder-1-weekday-3", "wlid", "--now", "2026-05-05T09:01:00+02:00")
    #expect(typo.status == 65)
    #expect(typo.stderr.hasPrefix("error: 'reminder-1-weekday-3' offers "), "\(typo.stderr)")
    #expect(typo.stderr.hasSuffix(", not 'wlid'; did you mean 'wild'?\n"), "\(typo.stderr)")
    #expect(!sandbox.run("events").stdout.contains("Alcohol"))
  }

  @Test func onATerminalRespondAsksAboutTheNearAction() {
    let sandbox = delivered()
    sandbox.interactiveAnswers = ["n"]
    let declined = sandbox.run(
      "respond", "reminder-1-weekday-3", "stedy", "--now", "2026-05-05T09:01:00+02:00")
    #expect(declined.status == 0)
    #expect(
      declined.stderr.hasSuffix(", not 'stedy'. Answer 'steady'? [y/N] "), "\(declined.stderr)")
    #expect(declined.stdout == "Nothing answered.\n")
    sandbox.interactiveAnswers = ["y"]
    let answered = sandbox.run(
      "respond", "reminder-1-weekday-3", "stedy", "--now", "2026-05-05T09:01:00+02:00")
    #expect(answered.status == 0, "\(answered.stderr)")
    #expect(answered.stdout == "Logged Alcohol (steady) for Mon 2026-05-04.\n")
  }
}
