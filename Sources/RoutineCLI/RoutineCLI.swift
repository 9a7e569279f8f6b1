import Foundation
import RoutineCore
import RoutineStore

/// The `routine` command line: parses, dispatches, and maps errors to exit statuses.
public enum RoutineCLI {
  /// The version printed by `routine --version`.
  public static let version = "0.1.0"

  static let commands: [any Command.Type] = [
    LogCommand.self, ImportCommand.self, EventsCommand.self, AnalyzeCommand.self,
    BacktestCommand.self, PlanCommand.self, PendingCommand.self, AgendaCommand.self,
    ClearCommand.self, SettingsCommand.self, SampleCommand.self, HelpCommand.self,
  ]

  /// The parser for every command.
  public static let parser = ArgumentParser(commands: commands.map { $0.spec })

  /// Runs one invocation and returns its exit status. `arguments` exclude the program name.
  public static func run(
    _ arguments: [String], environment: ProcessEnvironment, output: Output, errors: Output
  ) -> Int32 {
    defer {
      output.flush()
      errors.flush()
    }
    let parsed: ParsedArguments
    do {
      parsed = try parser.parse(arguments)
    } catch {
      errors.line("error: \(error.message)")
      if let name = error.command, let spec = parser.command(named: name) {
        errors.line("usage: \(spec.usage)")
      }
      return ExitCode.usage.rawValue
    }
    guard let name = parsed.command, let command = commands.first(where: { $0.spec.name == name })
    else {
      if parsed.flag("help") {
        output.write(HelpFormatter.overview(parser.commands))
        return ExitCode.ok.rawValue
      }
      errors.write(HelpFormatter.overview(parser.commands))
      return ExitCode.usage.rawValue
    }
    if parsed.flag("help") {
      output.write(HelpFormatter.help(for: command.spec))
      return ExitCode.ok.rawValue
    }
    let context = Context(
      arguments: parsed, environment: environment, output: output, errors: errors)
    do {
      return try command.run(context).rawValue
    } catch {
      let (code, message) = ErrorReport.describe(error)
      errors.line("error: \(message)")
      if let usage = error as? UsageError, let name = usage.command ?? parsed.command,
        let spec = parser.command(named: name)
      {
        errors.line("usage: \(spec.usage)")
      }
      return code.rawValue
    }
  }
}

/// `routine help [COMMAND]`
enum HelpCommand: Command {
  static let spec = CommandSpec(
    name: "help", summary: "Show help for routine or for one command.",
    arguments: [ArgumentSpec("COMMAND", "The command to explain.", required: false)], globals: [])

  static func run(_ context: Context) throws -> ExitCode {
    guard let name = context.arguments.arguments.first else {
      context.output.write(HelpFormatter.overview(RoutineCLI.parser.commands))
      return .ok
    }
    guard let command = RoutineCLI.parser.command(named: name) else {
      throw UsageError("unknown command '\(name)'; see 'routine help'")
    }
    context.output.write(HelpFormatter.help(for: command))
    return .ok
  }
}
