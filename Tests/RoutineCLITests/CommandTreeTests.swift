import Testing

@testable import RoutineCLI

/// The command tree is declared once (`RoutineCLI.commands` and each `Command.subcommands`); the
/// parser's tree and the list dispatch searches are both derived from it and must agree.
struct CommandTreeTests {
  static let declared = RoutineCLI.parser.commands.flatMap(\.allCommands)

  @Test func everyDeclaredCommandRunsExactlyOneCommandTypeAndViceVersa() {
    for spec in Self.declared {
      let types = RoutineCLI.allCommands.filter { $0.spec.name == spec.name }
      #expect(types.count == 1, "'\(spec.name)' is run by \(types.count) command types")
    }
    let declaredNames = Set(Self.declared.map(\.name))
    for type in RoutineCLI.allCommands {
      #expect(
        declaredNames.contains(type.spec.name), "\(type) is not in the parser's tree")
    }
    #expect(RoutineCLI.allCommands.count == Self.declared.count)
  }

  @Test func commandNamesAndAliasesAreUnique() {
    let names = Self.declared.map(\.name)
    #expect(Set(names).count == names.count, "\(names.sorted())")
    let words = RoutineCLI.parser.commands.flatMap { [$0.name] + $0.aliases }
    #expect(Set(words).count == words.count, "\(words.sorted())")
  }

  @Test func eachSpecListsTheSpecsOfItsSubcommandTypesInOrder() {
    for type in RoutineCLI.allCommands {
      #expect(
        type.spec.subcommands.map(\.name) == type.subcommands.map { $0.spec.name },
        "\(type)'s spec and its subcommands differ")
      for child in type.subcommands {
        #expect(child.spec.name == "\(type.spec.name) \(child.spec.word)")
      }
    }
  }

  @Test func theTopLevelListHoldsNoSubcommand() {
    for type in RoutineCLI.commands {
      #expect(!type.spec.name.contains(" "), "\(type) is a subcommand")
    }
    #expect(RoutineCLI.parser.commands.map(\.name) == RoutineCLI.commands.map { $0.spec.name })
  }
}
