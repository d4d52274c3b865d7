import HabitKit

/// `habitctl completions bash|zsh|fish` and `habitctl manual`: the shell completions
/// and the man page, made from the command table and the help text (nothing is
/// written twice), installed by scripts/install.sh.
enum Completions {
    static let shells = ["bash", "zsh", "fish"]
    static let globalOptions = ["--db", "--json", "--help", "--version"]

    /// The first word of each command ("habit add" gives "habit"), in table order.
    static var topCommands: [String] {
        var seen: Set<String> = []
        return CommandTable.all.compactMap { entry in
            let word = String(entry.name.split(separator: " ").first ?? "")
            return seen.insert(word).inserted ? word : nil
        }
    }

    /// The second words of the commands that have them: "habit" -> add, list, ...
    static var subcommands: [(command: String, words: [String])] {
        topCommands.compactMap { top in
            let words = CommandTable.all.map(\.name).filter { $0.hasPrefix(top + " ") }.map { String($0.dropFirst(top.count + 1)) }
            return words.isEmpty ? nil : (top, words)
        }
    }

    static func run(_ args: [String], _ context: Context) throws(CLIError) {
        guard args.count == 1, let shell = args.first else { throw .usage("completions takes one of: \(shells.joined(separator: ", "))") }
        switch shell {
        case "bash": print(bash())
        case "zsh": print(zsh())
        case "fish": print(fish())
        default: throw .usage("no completions for '\(shell)'\(Suggestion.hint(shell, among: shells)); shells: \(shells.joined(separator: ", "))")
        }
    }

    static func bash() -> String {
        let cases = subcommands.map { "        \($0.command)) words=\"\($0.words.joined(separator: " "))\" ;;" }.joined(separator: "\n")
        return """
            # bash completion for habitctl (habitctl completions bash)
            _habitctl() {
                local cur="${COMP_WORDS[COMP_CWORD]}" command="" words="" i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case "${COMP_WORDS[i]}" in
                        --db) ((i++)) ;;
                        -*) ;;
                        *) command="${COMP_WORDS[i]}"; break ;;
                    esac
                done
                if [ "${COMP_WORDS[COMP_CWORD-1]}" = "--db" ]; then
                    COMPREPLY=($(compgen -f -- "$cur"))
                    return
                fi
                case "$command" in
                    "") words="\((topCommands + globalOptions).joined(separator: " "))" ;;
            \(cases)
                esac
                COMPREPLY=($(compgen -W "$words" -- "$cur"))
            }
            complete -F _habitctl habitctl
            """
    }

    static func zsh() -> String {
        let cases = subcommands.map { "      \($0.command)) _values 'subcommand' \($0.words.joined(separator: " ")) ;;" }.joined(separator: "\n")
        return """
            #compdef habitctl
            # zsh completion for habitctl (habitctl completions zsh)
            _habitctl() {
              local state
              _arguments \\
                '--db[the store file]:store:_files' \\
                '--json[machine-readable output]' \\
                '--help[usage]' \\
                '--version[the library version]' \\
                '1:command:->command' \\
                '*::argument:->argument'
              case $state in
                command) _values 'command' \(topCommands.joined(separator: " ")) ;;
                argument)
                  case $words[1] in
            \(cases)
                  esac ;;
              esac
            }
            _habitctl "$@"
            """
    }

    static func fish() -> String {
        var lines = [
            "# fish completion for habitctl (habitctl completions fish)",
            "complete -c habitctl -f",
            "complete -c habitctl -l db -r -F -d 'the store file'",
            "complete -c habitctl -l json -d 'machine-readable output'",
            "complete -c habitctl -l help -d 'usage'",
            "complete -c habitctl -l version -d 'the library version'",
            "complete -c habitctl -n __fish_use_subcommand -a '\(topCommands.joined(separator: " "))'",
        ]
        for (command, words) in subcommands {
            lines.append("complete -c habitctl -n '__fish_seen_subcommand_from \(command)' -a '\(words.joined(separator: " "))'")
        }
        return lines.joined(separator: "\n")
    }
}

/// `habitctl manual`: the man page, in roff, from the same text as --help.
enum Manual {
    static func run(_ args: [String], _ context: Context) throws(CLIError) {
        guard args.isEmpty else { throw .usage("manual takes no arguments") }
        print(page())
    }

    static func page() -> String {
        let version = HabitKitVersion.runningString
        var out = [
            ".TH HABITCTL 1 \"\" \"habitcore \(version)\" \"User Commands\"",
            ".SH NAME",
            "habitctl \\- habits and their ledger, from the shell",
            ".SH SYNOPSIS",
            ".B habitctl",
            "[\\-\\-db PATH] [\\-\\-json] COMMAND [ARGS]",
            ".SH DESCRIPTION",
            ".nf",
            roff(Help.main),
            ".fi",
            ".SH COMMANDS",
        ]
        for name in CommandTable.all.map(\.name) {
            guard let text = Help.commands[name] else { continue }
            out += [".SS \(name)", ".nf", roff(text), ".fi"]
        }
        out += [".SH SEE ALSO", "The C interface: include/habitcore.h, installed as habitcore.h (pkg-config habitcore)."]
        return out.joined(separator: "\n")
    }

    /// Text as roff shows it verbatim: backslashes escaped, no line read as a request.
    static func roff(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let escaped = line.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
        }.joined(separator: "\n")
    }
}
