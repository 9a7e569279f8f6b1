import Foundation
import RoutineCore
import RoutineStore

/// What one person's run printed and said, handed to the printer in person order.
struct CohortOutcome<Value: Sendable>: Sendable {
  /// Standard output, as printed (already escaped).
  var output = ""
  /// Warnings, each a sentence that names the person, without `warning: `.
  var warnings: [String] = []
  /// Why the person failed, with the status it calls for; `nil` when they did not.
  var failure: (code: ExitCode, message: String)?
  /// What the command keeps of the person (backtest: the figures it pools).
  var value: Value?
}

extension Cohort {
  /// The people analysed at once: one per core.
  static var workers: Int { ProcessInfo.processInfo.activeProcessorCount }

  /// Runs `work` for each person on every core and prints each outcome in person order as soon
  /// as it and everyone before it are done: warnings and errors on stderr, the output on stdout
  /// (`separated`: a blank line between people). Records of a cohort file that name no person
  /// are errors (warnings with `--skip-invalid`) printed first. `deliver` sees each outcome
  /// after it is printed. Returns the status of the first failure, in person order, or `.ok`.
  func run<Value>(
    _ context: Context, skipsInvalid: Bool, separated: Bool,
    work: @escaping @Sendable (Member) -> CohortOutcome<Value>,
    deliver: (Member, CohortOutcome<Value>) -> Void = { _, _ in }
  ) -> ExitCode {
    var status = ExitCode.ok
    for warning in warnings { context.warn(warning) }
    if let split {
      for error in split.unassigned {
        if skipsInvalid {
          context.warn("\(error) (skipped)")
        } else {
          context.errors.line("error: \(TerminalText.escaped(error.description))")
          status = .dataError
        }
      }
      let more = split.unassignedCount - split.unassigned.count
      if more > 0 {
        let sentence = "\(displayName(split.source)): \(more) more records name no person"
        if skipsInvalid {
          context.warn(sentence + " (skipped)")
        } else {
          context.errors.line("error: \(TerminalText.escaped(sentence))")
        }
      }
    }
    if members.isEmpty {
      context.warn("\(displayName(path)) holds no one's events")
      return status
    }
    let members = self.members
    var printed = 0
    CohortPool<CohortOutcome<Value>>.run(
      count: members.count, workers: Self.workers, ahead: 4 * Self.workers,
      work: { index in
        let member = members[index]
        defer { self.finished(member) }
        if member.files.count > 1 {
          var outcome = CohortOutcome<Value>()
          let files = member.files.map { "'\($0)'" }
          outcome.failure = (
            .dataError,
            "\(Self.label(member)): \(files.count) files name this person, "
              + "\(files.dropLast().joined(separator: ", ")) and \(files.last!); keep one "
              + "(or join them into one log)"
          )
          return outcome
        }
        return work(member)
      },
      idle: {
        context.errors.flush()
        context.output.flush()
      },
      deliver: { index, outcome in
        for warning in outcome.warnings { context.warn(warning) }
        if let failure = outcome.failure {
          context.errors.line("error: \(TerminalText.escaped(failure.message))")
          if status == .ok { status = failure.code }
        }
        if !outcome.output.isEmpty {
          if separated, printed > 0 { context.output.line() }
          context.output.writeVerbatim(outcome.output)
          printed += 1
        }
        deliver(members[index], outcome)
        // Nobody reads the rest (`> /dev/full`): stop, and exit with the write error.
        return context.output.failure == nil
      })
    return status
  }

  /// Reads `member`'s events near `days` as `--log` reads a file: the log (sorted), and the
  /// warnings `--log` would print, naming the person (skipped lines, an empty file).
  func load(
    _ member: Member, days: ClosedRange<LocalDate>, format: EventFileFormat?, zone: Zone?,
    skipsInvalid: Bool
  ) throws -> (log: EventLog, summary: EventLogLoader.Summary, warnings: [String]) {
    let reader = EventFileReader(
      path: member.readPath, format: format ?? split?.format, skipsInvalid: skipsInvalid,
      assumedZone: zone)
    var log = EventLog()
    let summary = try EventLogLoader(days: days).load([reader], into: &log)
    var warnings: [String] = []
    for skipped in summary.skipped {
      let (file, line) = located(skipped, of: member)
      warnings.append(
        "\(Self.label(member)) (\(displayName(file))) line \(line): \(skipped.message) (skipped)")
    }
    if !summary.emptyFiles.isEmpty {
      warnings.append("\(Self.label(member)): \(displayName(member.files[0])) holds no events")
    }
    log.sort()
    return (log, summary, warnings)
  }
}
