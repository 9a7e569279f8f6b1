import Foundation
import RoutineCore
import RoutineStore

/// The `routine` command line: parses, dispatches, and maps errors to exit statuses.
public enum RoutineCLI {
  /// The version printed by `routine --version`.
  public static let version = "0.2.0"

  /// The top-level commands, in the overview's order; each lists its own subcommands
  /// (`Command.subcommands`), so this is the whole tree.
  static let commands: [any Command.Type] = [
    LogCommand.self, UndoCommand.self, ImportCommand.self, ExportCommand.self, BackupCommand.self,
    EventsCommand.self, KindsCommand.self, AnalyzeCommand.self, BacktestCommand.self,
    PlanCommand.self, PendingCommand.self, AgendaCommand.self, RemindersCommand.self,
    HabitsCommand.self, TasksCommand.self, DeliverCommand.self, WatchCommand.self,
    RespondCommand.self, AwaitAnswerCommand.self, HistoryCommand.self, WhyCommand.self,
    StatusCommand.self, DoctorCommand.self, ClearCommand.self, ReportCommand.self,
    SettingsCommand.self, SampleCommand.self, HelpCommand.self, CompletionsCommand.self,
    CompleteCommand.self,
  ]

  /// Every command, subcommands included, depth first: what dispatch looks a name up in.
  static let allCommands: [any Command.Type] = flattened(commands)

  private static func flattened(_ commands: [any Command.Type]) -> [any Command.Type] {
    commands.flatMap { [$0] + flattened($0.subcommands) }
  }

  /// The parser for every command.
  public static let parser = ArgumentParser(commands: commands.map { $0.spec })

  /// Runs one invocation and returns its exit status. `arguments` exclude the program name.
  public static func run(
    _ arguments: [String], environment: ProcessEnvironment, output: Output, errors: Output
  ) -> Int32 {
    defer { errors.flush() }
    let status = dispatch(arguments, environment: environment, output: output, errors: errors)
    output.finish()
    // A result that could not be written is a failure, whatever the command thought.
    if let failure = output.failure, !output.isFailureReported {
      errors.line("error: cannot write the output: \(failure)")
      return ExitCode.ioError.rawValue
    }
    return status.rawValue
  }

  private static func dispatch(
    _ arguments: [String], environment: ProcessEnvironment, output: Output, errors: Output
  ) -> ExitCode {
    let parsed: ParsedArguments
    do {
      parsed = try parser.parse(arguments)
    } catch {
      report(error.message, usageOf: error.command, to: errors)
      return .usage
    }
    if parsed.flag("version") {
      output.line("routine \(version)")
      return .ok
    }
    guard let name = parsed.command,
      let command = allCommands.first(where: { $0.spec.name == name })
    else {
      if parsed.flag("help") {
        output.write(HelpFormatter.overview(parser.commands))
        return .ok
      }
      errors.write(HelpFormatter.overview(parser.commands))
      return .usage
    }
    if parsed.flag("help") {
      output.write(HelpFormatter.help(for: command.spec))
      return .ok
    }
    let context = Context(
      arguments: parsed, environment: environment, output: output, errors: errors)
    // A mistyped --tz is an error whether or not the command needs a zone: silently ignored, it
    // would be believed to work.
    if case .failure(let error) = context.optionZone {
      report(error.message, usageOf: error.command ?? command.spec.name, to: errors)
      return error.exitCode
    }
    do {
      return try command.run(context)
    } catch {
      let (code, message) = ErrorReport.describe(error)
      // A usage error names its command, or "" when it is about the environment (no usage line).
      report(message, usageOf: (error as? UsageError).map { $0.command ?? name }, to: errors)
      return code
    }
  }

  /// Prints `error: message` (escaped: it may quote a file name or an event name) and, for a
  /// usage error, the command's usage line.
  private static func report(_ message: String, usageOf command: String?, to errors: Output) {
    errors.line("error: \(TerminalText.escaped(message))")
    if let command, let spec = parser.command(named: command) {
      errors.line("usage: \(spec.usage)")
    }
  }
}
