import RoutineCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

exit(
  RoutineCLI.run(
    Array(CommandLine.arguments.dropFirst()), environment: .current,
    output: Output(descriptor: 1), errors: Output(descriptor: 2)))
