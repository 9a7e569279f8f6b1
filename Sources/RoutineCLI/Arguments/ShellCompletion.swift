/// Completion scripts for bash, zsh and fish, generated from the same declarations as `--help`.
///
/// Each script is a table of the declarations (commands, subcommands, options, what each value and
/// argument takes) and one function that walks the words typed so far through it. What the store
/// holds (reminder ids, kinds, habits, tasks) and the zone names come from
/// `routine __complete SOURCE` when the cursor is on such a value.
public enum ShellCompletion {
  /// The shells there is a script for.
  public static let shells = ["bash", "zsh", "fish"]

  /// The script for `shell` (one of ``shells``), or `nil` for another name.
  public static func script(for shell: String, commands: [CommandSpec]) -> String? {
    let table = Table(commands: commands)
    switch shell {
    case "bash": return bash(table)
    case "zsh": return zsh(table)
    case "fish": return fish(table)
    default: return nil
    }
  }

  /// What a value or an argument takes, as the scripts read it: the first word names where its
  /// values come from (a ``CompletionSource``, `-` for nowhere, `flag` for an option without a
  /// value); the other words are the choices its placeholder lists.
  static func takes(_ source: CompletionSource?, _ choices: [String]) -> String {
    ([source?.rawValue ?? "-"] + choices).joined(separator: " ")
  }

  /// The declarations, flattened for the scripts' case tables.
  struct Table {
    /// Visible top-level commands with their summaries.
    var commands: [(word: String, summary: String)] = []
    /// Every word that names a top-level command (aliases and hidden ones too), and its name.
    var names: [(word: String, name: String)] = []
    /// Subcommands by parent.
    var subcommands: [(parent: String, words: [(word: String, summary: String)])] = []
    /// Options by command, globals last in each.
    var options: [(command: String, options: [(name: String, help: String)])] = []
    /// What each option of each command takes: `command:--name`.
    var values: [(key: String, takes: String)] = []
    /// What each argument takes: `command:index`, and `command:*` for a repeated last one.
    var arguments: [(key: String, takes: String)] = []

    init(commands specs: [CommandSpec]) {
      for spec in specs {
        if !spec.isHidden { commands.append((spec.name, spec.summary)) }
        names.append((spec.name, spec.name))
        for alias in spec.aliases { names.append((alias, spec.name)) }
      }
      // Global options before any command.
      for option in GlobalOption.all {
        values.append(
          (
            ":--\(option.name)",
            option.valueName == nil
              ? "flag" : ShellCompletion.takes(option.completes, option.choices)
          ))
      }
      for spec in specs.flatMap(\.allCommands) {
        if !spec.subcommands.isEmpty {
          subcommands.append(
            (
              spec.name,
              spec.subcommands.filter { !$0.isHidden }.map { (String($0.word), $0.summary) }
            )
          )
        }
        func adding(_ globals: [OptionSpec]) -> [OptionSpec] {
          spec.options
            + globals.filter { global in !spec.options.contains { $0.name == global.name } }
        }
        // Offered: what its help lists; understood while walking: every global option.
        let listed = adding(spec.globals + [GlobalOption.named("help")!])
        options.append((spec.name, listed.map { ($0.name, $0.help) }))
        for option in adding(GlobalOption.all) {
          let takes =
            option.valueName == nil
            ? "flag" : ShellCompletion.takes(option.completes, option.choices)
          values.append(("\(spec.name):--\(option.name)", takes))
        }
        for (index, argument) in spec.arguments.enumerated() {
          let repeated = argument.isRepeatable && index == spec.arguments.count - 1
          // `help`'s commands and topics are known here, not where `help` is declared.
          let takes =
            argument.completes == .command
            ? ShellCompletion.takes(nil, commands.map(\.word) + HelpTopic.all.map(\.name))
            : ShellCompletion.takes(argument.completes, argument.choices)
          arguments.append(("\(spec.name):\(repeated ? "*" : String(index))", takes))
        }
      }
    }
  }

  // MARK: bash and zsh

  /// The lookup functions bash and zsh share (`case` reads the same in both): each sets REPLY.
  private static func lookups(_ table: Table) -> String {
    func quoted(_ text: String) -> String {
      "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
    func cases(_ rows: [(String, String)], fallback: String) -> String {
      rows.map { "    \(quoted($0.0))) REPLY=\(quoted($0.1)) ;;\n" }.joined()
        + "    *) REPLY=\(fallback) ;;\n"
    }
    // A repeated argument's pattern `cmd:*` must come after the command's numbered ones.
    let arguments = table.arguments.map { row -> (String, String) in
      (row.key.hasSuffix(":*") ? quoted(String(row.key.dropLast())) + "*" : quoted(row.key), row.1)
    }
    return """
      # The command a word names (an alias names its command), or nothing.
      _routine_command() {
        case $1 in
      \(cases(table.names.map { ($0.word, $0.name) }, fallback: "''"))  esac
      }
      # The subcommands of command $1 (the commands themselves for '').
      _routine_subcommands() {
        case $1 in
      \(cases([("", table.commands.map(\.word).joined(separator: " "))] + table.subcommands.map { ($0.parent, $0.words.map(\.word).joined(separator: " ")) }, fallback: "''"))  esac
      }
      # The options of command $1.
      _routine_options() {
        case $1 in
      \(cases(table.options.map { ($0.command, $0.options.map { "--" + $0.name }.joined(separator: " ")) }, fallback: "'--help --version'"))  esac
      }
      # What option $2 of command $1 takes: 'flag', or a source (or -) and choices.
      _routine_value() {
        case "$1:$2" in
      \(cases(table.values, fallback: "'-'"))  esac
      }
      # What argument $2 (from 0) of command $1 takes.
      _routine_argument() {
        case "$1:$2" in
      \(arguments.map { "    \($0.0)) REPLY=\(quoted($0.1)) ;;\n" }.joined())    *) REPLY='' ;;
        esac
      }
      # Walks words 1 to $1-1 of _routine_words: sets _routine_cmd (the command, with its
      # subcommand), _routine_nargs (the arguments before the cursor), _routine_before (the last
      # of them) and _routine_store (--store).
      _routine_walk() {
        local i=1 w
        _routine_cmd='' _routine_nargs=0 _routine_store='' _routine_before=''
        local ended=''
        while (( i < $1 )); do
          w=${_routine_words[i]}
          if [[ -z $ended && $w == -- ]]; then
            ended=1
          elif [[ -z $ended && $w == --* ]]; then
            _routine_value "$_routine_cmd" "${w%%=*}"
            if [[ $w != *=* && $REPLY != flag ]]; then
              (( i++ ))
              # bash splits --name=VALUE at '=' (COMP_WORDBREAKS).
              if [[ ${_routine_words[i]} == = ]]; then (( i++ )); fi
              [[ ${w%%=*} == --store ]] && _routine_store=${_routine_words[i]}
            elif [[ $w == --store=* ]]; then
              _routine_store=${w#--store=}
            fi
          elif [[ -z $ended && $w == -* && $w != - ]]; then
            :
          elif [[ -z $_routine_cmd ]]; then
            _routine_command "$w"
            _routine_cmd=$REPLY
          elif (( _routine_nargs == 0 )) && _routine_subcommands "$_routine_cmd" \\
            && [[ " $REPLY " == *" $w "* ]]; then
            _routine_cmd="$_routine_cmd $w"
          else
            (( _routine_nargs++ ))
            _routine_before=$w
          fi
          (( i++ ))
        done
        # A path typed with ~ reaches completion unexpanded; routine would read '~' literally.
        if [[ $_routine_store == '~/'* ]]; then _routine_store=$HOME/${_routine_store#'~/'}; fi
      }
      """
  }

  private static func bash(_ table: Table) -> String {
    """
    # bash completion for routine. Generated by 'routine completions bash'; install it as
    # ~/.local/share/bash-completion/completions/routine, or source it from ~/.bashrc.

    \(lookups(table))
    # Adds the values of source $1 (a kind, a reminder id, a zone...) that start with $2, quoted.
    _routine_dynamic() {
      local value quoted prefix=$2 lines
      if [[ $1 == files ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t lines < <(compgen -f -- "$prefix")
        COMPREPLY+=("${lines[@]}")
        return
      fi
      # Typed inside quotes ("Wa): the shell closes them; else each value is escaped (Wake\\ Up).
      local quote=''
      if [[ $prefix == \\"* || $prefix == \\'* ]]; then quote=${prefix:0:1}; prefix=${prefix:1}; fi
      prefix=${prefix//\\\\/}
      mapfile -t lines < <(routine ${_routine_store:+"--store=$_routine_store"} __complete "$1" ${_routine_before:+"$_routine_before"} 2>/dev/null)
      for value in "${lines[@]}"; do
        [[ $value == "$prefix"* ]] || continue
        if [[ -n $quote ]]; then
          COMPREPLY+=("$value")
        else
          printf -v quoted '%q' "$value"
          COMPREPLY+=("$quoted")
        fi
      done
    }
    # Completes the word at the cursor with what $1 says (a source and choices).
    _routine_takes() {
      local source=${1%% *} choices=''
      [[ $1 == *' '* ]] && choices=${1#* }
      [[ -n $choices ]] && COMPREPLY+=($(compgen -W "$choices" -- "$2"))
      [[ $source != - && $source != flag && -n $source ]] && _routine_dynamic "$source" "$2"
    }
    _routine() {
      local cur=${COMP_WORDS[COMP_CWORD]} prev='' option=''
      local -a _routine_words=("${COMP_WORDS[@]}")
      local _routine_cmd _routine_nargs _routine_store _routine_before
      COMPREPLY=()
      (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
      # --name VALUE, --name=VALUE (split at '=' by bash: '--name' '=' 'VALUE').
      # Without '=' in COMP_WORDBREAKS, --name=VALUE is one word: complete after the '='.
      local equals=''
      if [[ $cur == --*=* ]]; then
        option=${cur%%=*} equals="${cur%%=*}=" cur=${cur#*=}
        _routine_walk "$COMP_CWORD"
      elif [[ $cur == = && $prev == --* ]]; then
        option=$prev cur=''
        _routine_walk $(( COMP_CWORD - 1 ))
      elif [[ $prev == = ]] && (( COMP_CWORD > 1 )) && [[ ${COMP_WORDS[COMP_CWORD-2]} == --* ]]; then
        option=${COMP_WORDS[COMP_CWORD-2]}
        _routine_walk $(( COMP_CWORD - 2 ))
      else
        _routine_walk "$COMP_CWORD"
        if [[ $prev == --* && $prev != *=* ]]; then
          _routine_value "$_routine_cmd" "$prev"
          [[ $REPLY != flag ]] && option=$prev
        fi
      fi
      if [[ -n $option ]]; then
        _routine_value "$_routine_cmd" "$option"
        _routine_takes "$REPLY" "$cur"
        [[ -n $equals ]] && COMPREPLY=("${COMPREPLY[@]/#/$equals}")
        return 0
      fi
      if [[ $cur == -* ]]; then
        _routine_options "$_routine_cmd"
        COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
        return 0
      fi
      if [[ -z $_routine_cmd ]]; then
        _routine_subcommands ''
        COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
        return 0
      fi
      if (( _routine_nargs == 0 )) && _routine_subcommands "$_routine_cmd" && [[ -n $REPLY ]]; then
        COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
      fi
      _routine_argument "$_routine_cmd" "$_routine_nargs"
      _routine_takes "$REPLY" "$cur"
      return 0
    }
    complete -F _routine routine

    """
  }

  private static func zsh(_ table: Table) -> String {
    """
    #compdef routine
    # zsh completion for routine. Generated by 'routine completions zsh'; install it as _routine
    # in a directory on $fpath (before compinit runs), or source it after compinit.

    \(lookups(table))
    # Offers what $1 says (a source and choices); compadd quotes what it inserts (Wake\\ Up).
    _routine_takes() {
      local source=${1%% *} choices=''
      [[ $1 == *' '* ]] && choices=${1#* }
      [[ -n $choices ]] && compadd -- ${=choices}
      case $source in
        -|flag|'') ;;
        files) _files ;;
        *) compadd -- ${(f)"$(routine ${_routine_store:+"--store=$_routine_store"} __complete $source ${_routine_before:+"$_routine_before"} 2>/dev/null)"} ;;
      esac
    }
    _routine() {
      local cur=${words[CURRENT]} prev=${words[CURRENT-1]} option=''
      # The walk counts as bash does, from the first word after 'routine' (zsh's words[2]).
      local -a _routine_words
      _routine_words=("${(@)words[2,CURRENT]}")
      local _routine_cmd _routine_nargs _routine_store _routine_before
      _routine_walk $(( CURRENT - 1 ))
      if [[ $cur == --*=* ]]; then
        option=${cur%%=*}
        compset -P '*='
      elif [[ $prev == --* && $prev != *=* ]]; then
        _routine_value "$_routine_cmd" "$prev"
        [[ $REPLY != flag ]] && option=$prev
      fi
      if [[ -n $option ]]; then
        _routine_value "$_routine_cmd" "$option"
        _routine_takes "$REPLY"
        return 0
      fi
      if [[ $cur == -* ]]; then
        _routine_options "$_routine_cmd"
        compadd -- ${=REPLY}
        return 0
      fi
      if [[ -z $_routine_cmd ]]; then
        _routine_subcommands ''
        compadd -- ${=REPLY}
        return 0
      fi
      if (( _routine_nargs == 0 )) && _routine_subcommands "$_routine_cmd" && [[ -n $REPLY ]]; then
        compadd -- ${=REPLY}
      fi
      _routine_argument "$_routine_cmd" "$_routine_nargs"
      _routine_takes "$REPLY"
      return 0
    }
    # Autoloaded from $fpath, this file is the body of _routine; sourced, it registers it.
    if [[ $funcstack[1] == _routine ]]; then
      _routine "$@"
    else
      compdef _routine routine 2>/dev/null
    fi

    """
  }

  // MARK: fish

  private static func fish(_ table: Table) -> String {
    func quoted(_ text: String) -> String {
      "'"
        + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
          of: "'", with: "\\'") + "'"
    }
    func cases(_ rows: [(String, String)], fallback: String?) -> String {
      rows.map { "    case \(quoted($0.0))\n        echo \(quoted($0.1))\n" }.joined()
        + (fallback.map { "    case '*'\n        echo \($0)\n" } ?? "")
    }
    /// `word<TAB>description` lines, for fish to show beside each candidate.
    func described(_ rows: [(String, String)]) -> String {
      rows.map { "\($0.0)\t\($0.1)" }.joined(separator: "\n")
    }
    let arguments = table.arguments.map { row -> (String, String) in
      (row.key.hasSuffix(":*") ? String(row.key.dropLast()) + "*" : row.key, row.1)
    }
    return """
      # fish completion for routine. Generated by 'routine completions fish'; install it as
      # ~/.config/fish/completions/routine.fish.

      function __routine_command
          switch $argv[1]
      \(cases(table.names.map { ($0.word, $0.name) }, fallback: nil))    end
      end
      function __routine_subcommands
          switch "$argv[1]"
      \(cases([("", described(table.commands))] + table.subcommands.map { ($0.parent, described($0.words)) }, fallback: nil))    end
      end
      function __routine_options
          switch "$argv[1]"
      \(cases(table.options.map { ($0.command, described($0.options.map { ("--" + $0.name, $0.help) })) }, fallback: nil))    end
      end
      function __routine_value
          switch "$argv[1]:$argv[2]"
      \(cases(table.values, fallback: "-"))    end
      end
      function __routine_argument
          switch "$argv[1]:$argv[2]"
      \(cases(arguments, fallback: "''"))    end
      end
      # Prints what the word at the cursor may be: fish filters by what is typed, and quotes.
      function __routine_complete
          set -l words (commandline -opc)
          set -l cur (commandline -ct)
          set -l cmd ''
          set -l nargs 0
          set -l before ''
          set -l store ''
          set -l ended ''
          set -l i 2
          while test $i -le (count $words)
              set -l w $words[$i]
              if test -z "$ended"; and test "$w" = --
                  set ended 1
              else if test -z "$ended"; and string match -q -- '--*' $w
                  set -l name (string split -m1 = -- $w)[1]
                  if not string match -q -- '*=*' $w; and test (__routine_value "$cmd" $name) != flag
                      set i (math $i + 1)
                      test "$name" = --store; and set store $words[$i]
                  else if string match -q -- '--store=*' $w
                      set store (string replace -- --store= '' $w)
                  end
              else if test -z "$ended"; and string match -q -- '-?*' $w
              else if test -z "$cmd"
                  set cmd (__routine_command $w)
              else if test $nargs -eq 0; and contains -- $w (__routine_subcommands $cmd | string replace -r '\\t.*' '')
                  set cmd "$cmd $w"
              else
                  set nargs (math $nargs + 1)
                  set before $w
              end
              set i (math $i + 1)
          end
          # A path typed with ~ reaches completion unexpanded; routine would read '~' literally.
          set store (string replace -r -- '^~/' "$HOME/" $store)
          set -l option ''
          set -l prefix ''
          if string match -q -- '--*=*' $cur
              set option (string split -m1 = -- $cur)[1]
              set prefix "$option="
          else if test (count $words) -ge 2; and string match -q -- '--*' $words[-1]; and not string match -q -- '*=*' $words[-1]
              if test (__routine_value "$cmd" $words[-1]) != flag
                  set option $words[-1]
              end
          end
          set -l takes
          if test -n "$option"
              set takes (string split ' ' -- (__routine_value "$cmd" $option))
          else if string match -q -- '-*' $cur
              __routine_options "$cmd"
              return
          else if test -z "$cmd"
              __routine_subcommands ''
              return
          else
              if test $nargs -eq 0
                  __routine_subcommands "$cmd"
              end
              set takes (string split ' ' -- (__routine_argument "$cmd" $nargs))
          end
          test (count $takes) -gt 0; or return
          set -l source $takes[1]
          set -e takes[1]
          for choice in $takes
              echo $prefix$choice
          end
          switch $source
              case - flag ''
              case files
                  __fish_complete_path (string replace -- "$prefix" '' $cur)
              case '*'
                  set -l arguments __complete $source
                  test -n "$before"; and set arguments $arguments $before
                  test -n "$store"; and set arguments --store $store $arguments
                  for value in (routine $arguments 2>/dev/null)
                      echo $prefix$value
                  end
          end
      end
      complete -c routine -e
      complete -c routine -f -a '(__routine_complete)'

      """
  }
}
