import RoutineCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// A reader that goes away (`routine completions fish | head -2`) ends routine quietly, as SIGPIPE's
// default does, whatever disposition it inherited: a parent that ignores SIGPIPE (a test runner,
// some service managers) would otherwise turn it into "cannot write the output: Broken pipe".
// The pager ignores it again on purpose while it runs (Pager.swift).
signal(SIGPIPE, SIG_DFL)

exit(
  RoutineCLI.run(
    Array(CommandLine.arguments.dropFirst()), environment: .current,
    output: Output(descriptor: 1), errors: Output(descriptor: 2)))
