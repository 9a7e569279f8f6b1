import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// `status --format waybar|polybar|tmux` and `export --format apple-json`: what other programs
/// read from routine.
struct StatusBarAndAppleTests {
  /// A store with two reminders today (Monday 2026-04-27, Berlin) whose titles hold each bar's
  /// markup characters.
  func sandbox(now: String) -> Sandbox {
    let sandbox = Sandbox(now: now)
    #expect(
      sandbox.run("reminders", "add", "--text", "Tea & <biscuits> 100% #1", "--at", "08:10").status
        == 0)
    #expect(sandbox.run("reminders", "add", "--activity", "Workout", "--at", "18:00").status == 0)
    return sandbox
  }

  @Test func waybarGetsItsJSONWithPangoEscapedTextAndAClassForHowSoon() throws {
    let soon = sandbox(now: "2026-04-27T08:00:00+02:00").run("status", "--format", "waybar")
    #expect(soon.status == 0)
    #expect(soon.stdout.split(separator: "\n").count == 1)
    let object = soon.json
    #expect(object["class"] as? String == "due-soon")
    #expect(object["alt"] as? String == "due-soon")
    #expect(object["text"] as? String == "08:10 Tea &amp; &lt;biscuits&gt; 100% #1")
    #expect(
      object["tooltip"] as? String
        == "2 of 2 left today:\n08:10 Tea &amp; &lt;biscuits&gt; 100% #1\n18:00 Workout")

    let later = sandbox(now: "2026-04-27T09:00:00+02:00").run("status", "--format", "waybar").json
    #expect(later["class"] as? String == "idle")
    #expect(later["tooltip"] as? String == "1 of 2 left today:\n18:00 Workout")

    // After the last one today: the next is tomorrow's, and the tooltip says nothing is left.
    let evening = sandbox(now: "2026-04-27T19:00:00+02:00").run("status", "--format", "waybar")
      .json
    #expect(evening["class"] as? String == "idle")
    #expect(evening["text"] as? String == "Tue 08:10 Tea &amp; &lt;biscuits&gt; 100% #1")
    #expect(
      evening["tooltip"] as? String
        == "Nothing left today.\nNext: Tue 08:10 Tea &amp; &lt;biscuits&gt; 100% #1")

    let empty = Sandbox().run("status", "--format", "waybar")
    #expect(empty.status == 0)
    #expect(empty.json["class"] as? String == "off")
    #expect(empty.json["text"] as? String == "no reminders")
  }

  @Test func polybarAndTmuxGetTheLineWithTheirMarkupEscaped() {
    let box = sandbox(now: "2026-04-27T08:00:00+02:00")
    #expect(
      box.run("status", "--format", "polybar").stdout
        == "08:10 Tea & <biscuits> 100%% #1 · 2 of 2 left today\n")
    #expect(
      box.run("status", "--format", "tmux").stdout
        == "08:10 Tea & <biscuits> 100% ##1 · 2 of 2 left today\n")
    #expect(
      box.run("status").stdout == "08:10 Tea & <biscuits> 100% #1 · 2 of 2 left today\n")
    let broken = Sandbox(now: "2026-04-27T08:00:00+02:00")
    #expect(broken.run("reminders", "add", "--text", "Two\nlines", "--at", "08:10").status == 0)
    for format in ["text", "polybar", "tmux"] {
      #expect(
        broken.run("status", "--format", format).stdout == "08:10 Two lines · 1 of 1 left today\n")
    }
    let wrong = box.run("status", "--format", "i3")
    #expect(wrong.status == 64)
    #expect(wrong.stderr.contains("expected text, waybar, polybar or tmux, found 'i3'"))
  }

  @Test func appleJSONHasOneEntryPerSystemRequestAndEveryCategoryWithItsOptions() throws {
    let box = Sandbox(now: "2026-04-27T08:00:00+02:00")
    #expect(
      box.run("reminders", "add", "--activity", "Workout", "--days", "mon,wed", "--at", "18:00")
        .status == 0)
    #expect(
      box.run(
        "reminders", "add", "--text", "Rent", "--repeat", "monthly", "--day", "31", "--at",
        "09:00"
      ).status == 0)
    #expect(box.run("settings", "--snooze", "10").status == 0)
    let run = box.run("export", "--format", "apple-json")
    #expect(run.status == 0, "\(run.stderr)")
    let document = run.json
    #expect(document["format"] as? String == "routine-apple-notifications")
    #expect(document["timeZone"] as? String == "Europe/Berlin")

    let categories = try #require(document["categories"] as? [[String: Any]])
    #expect(
      categories.compactMap { $0["identifier"] as? String }.sorted()
        == [
          "activity_reminder", "early_warning", "habit_reminder", "mindfulness", "noalc",
          "outlier_alert", "reminder", "routine_reminder", "task_reminder", "workout",
        ])
    let workout = try #require(categories.first { $0["identifier"] as? String == "workout" })
    let actions = try #require(workout["actions"] as? [[String: Any]])
    #expect(actions.compactMap { $0["identifier"] as? String } == ["start", "snooze", "dismiss"])
    #expect(actions.compactMap { $0["title"] as? String }[1] == "Remind me in 10 min")
    #expect(
      actions.compactMap { $0["options"] as? [String] } == [["foreground"], [], ["destructive"]])

    let requests = try #require(document["requests"] as? [[String: Any]])
    let identifiers = requests.compactMap { $0["identifier"] as? String }
    #expect(Set(identifiers).count == identifiers.count)
    // Monday and Wednesday, then the 31st and the 30ths and 28th of shorter months.
    #expect(identifiers.filter { $0.hasPrefix("reminder-1") }.count == 2)
    #expect(identifiers.contains("reminder-2"))
    #expect(identifiers.contains("reminder-2#2026-04-30"))
    let first = try #require(requests.first)
    let content = try #require(first["content"] as? [String: Any])
    #expect(content["categoryIdentifier"] as? String == "workout")
    let userInfo = try #require(content["userInfo"] as? [String: Any])
    #expect(userInfo["eventKind"] as? String == "Workout")
    #expect((userInfo["routineID"] as? String).map { identifiers.contains($0) } == true)
    let trigger = try #require(first["trigger"] as? [String: Any])
    #expect(trigger["type"] as? String == "calendar")
    #expect(trigger["repeats"] as? Bool == true)
    let components = try #require(trigger["dateComponents"] as? [String: Int])
    #expect(components == ["weekday": 2, "hour": 18, "minute": 0])
    #expect(first["nextFire"] as? String == "2026-04-27T18:00:00+02:00")
    let fires = requests.compactMap { $0["nextFire"] as? String }
    #expect(fires == fires.sorted())

    // To a file: the same document, private to its owner.
    let path = box.directory.appendingPathComponent("requests.json").path
    #expect(box.run("export", "--format", "apple-json", "--out", path).status == 0)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == run.stdout)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let clobber = box.run("export", "--format", "apple-json", "--out", box.storePath)
    #expect(clobber.status == 64)
  }
}

/// Bidirectional formatting characters from a kind's name or a reminder's text (a right-to-left
/// override shows the rest of the line backwards) are dropped wherever text is shown as it is:
/// every status format, the report, the calendar, a desktop notification.
struct BidirectionalMarksTests {
  static let marked = "\u{202E}Tea\u{202C} \u{2067}time\u{2069}\u{200F}\u{200E}\u{061C}"

  static func hasMarks(_ text: String) -> Bool {
    text.unicodeScalars.contains { BidiControls.contains($0) }
  }

  @Test func everyShownFormatDropsThem() throws {
    let box = Sandbox(now: "2026-04-27T08:00:00+02:00")
    #expect(box.run("reminders", "add", "--text", Self.marked, "--at", "08:10").status == 0)
    #expect(box.run("log", "Coffee\u{202E}", "--at", "07:00").status == 0)
    for format in ["text", "polybar", "tmux", "waybar"] {
      let line = box.run("status", "--format", format)
      #expect(line.status == 0)
      #expect(!Self.hasMarks(line.stdout), "\(format): \(line.stdout.debugDescription)")
      #expect(line.stdout.contains("08:10 Tea time"), "\(format)")
    }
    let calendar = box.run("export", "--format", "ics")
    #expect(!Self.hasMarks(calendar.stdout))
    #expect(calendar.stdout.contains("SUMMARY:Tea time\r\n"))
    let report = box.run("report")
    #expect(!Self.hasMarks(report.stdout))
    #expect(report.stdout.contains("Tea time"))
    // A terminal listing shows them, escaped, rather than applying them.
    let listing = box.run("reminders").stdout
    #expect(!Self.hasMarks(listing) && listing.contains("\\u{202E}Tea"))
  }

  @Test func aDesktopNotificationDropsThem() {
    let notification = DeliveredNotification(
      id: "r", occurrence: Timestamp(secondsSince1970: 0, utcOffsetSeconds: 0), attempt: 0,
      category: .routineReminder, title: Self.marked, body: Self.marked + " <b>",
      actions: [NotificationCategory.done],
      isLate: false, isAlarm: false)
    let arguments = NotifySendSink.arguments(notification)
    #expect(!arguments.contains(where: Self.hasMarks), "\(arguments)")
    #expect(arguments.suffix(2) == ["Tea time", "Tea time &lt;b&gt;"])
    #expect(arguments.contains("--action=done=Done"))
  }
}
