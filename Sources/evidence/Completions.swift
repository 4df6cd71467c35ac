import EvidenceStore

/// Shell completion scripts, made from the command tree: the commands under
/// each command, its options (those that take a value complete the value's
/// choices, or file names), and an argument's choices. One table of the
/// tree's paths feeds the three shells, so they offer the same words.
enum Completions {
    enum Shell: String, Vocabulary {
        case bash, zsh, fish
        static let field = "shell"
    }

    /// One command of the tree: its path ("claim add"), the commands under
    /// it, its options and the choices of its first argument.
    struct Node {
        var path: String
        var subcommands: [(name: String, abstract: String)]
        var options: [OptionSpec]
        var argumentChoices: [String]
    }

    static func nodes(_ root: CommandSpec, globalOptions: [OptionSpec]) -> [Node] {
        var nodes: [Node] = []
        func visit(_ spec: CommandSpec, path: [String]) {
            nodes.append(Node(
                path: path.joined(separator: " "), subcommands: spec.subcommands.map { ($0.name, $0.abstract) },
                options: spec.options + globalOptions + [Parser.helpOption],
                argumentChoices: spec.arguments.first?.choices ?? []))
            for subcommand in spec.subcommands { visit(subcommand, path: path + [subcommand.name]) }
        }
        visit(root, path: [])
        return nodes
    }

    static func script(_ shell: Shell, root: CommandSpec, globalOptions: [OptionSpec]) -> String {
        let nodes = nodes(root, globalOptions: globalOptions)
        switch shell {
        case .bash: return bash(nodes, header: "# Completion of evidence for bash: source it (or put it where bash-completion loads from).\n")
        case .zsh:
            // zsh runs the bash function through its bash compatibility.
            return "# Completion of evidence for zsh: source it from ~/.zshrc.\n"
                + "(( $+functions[compdef] )) || { autoload -U +X compinit && compinit }\n"
                + "autoload -U +X bashcompinit && bashcompinit\n"
                + bash(nodes, header: "")
        case .fish: return fish(nodes)
        }
    }

    /// A word as one single-quoted shell word.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingEvery("'", with: "'\\''") + "'"
    }

    // MARK: - bash (and zsh)

    private static func bash(_ nodes: [Node], header: String) -> String {
        var script = header + """
            # The command path of the words before the cursor: each word that names a
            # command under the path so far, the value of an option that takes one skipped.
            _evidence() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="" i word skip=0
                [ "$COMP_CWORD" -gt 0 ] && prev="${COMP_WORDS[COMP_CWORD-1]}"
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word="${COMP_WORDS[i]}"
                    if [ "$skip" = 1 ]; then skip=0; continue; fi
                    case "$word" in
                        -*) _evidence_valued "$path" "$word" && skip=1; continue ;;
                    esac
                    _evidence_is_path "${path:+$path }$word" && path="${path:+$path }$word"
                done
                local values
                if [ "$skip" = 1 ]; then
                    values="$(_evidence_values "$path" "$prev")"
                    if [ -z "$values" ]; then COMPREPLY=($(compgen -f -- "$cur")); else COMPREPLY=($(compgen -W "$values" -- "$cur")); fi
                    return 0
                fi
                case "$cur" in
                    -*) COMPREPLY=($(compgen -W "$(_evidence_options "$path")" -- "$cur")) ;;
                    *) COMPREPLY=($(compgen -W "$(_evidence_words "$path")" -- "$cur")) ;;
                esac
                [ "${#COMPREPLY[@]}" -gt 0 ] || COMPREPLY=($(compgen -f -- "$cur"))
                return 0
            }

            _evidence_is_path() {
                case "$1" in

            """
        script += "        " + nodes.dropFirst().map { quoted($0.path) }.joined(separator: "|") + ") return 0 ;;\n"
        script += "    esac\n    return 1\n}\n\n"
        script += "# The commands under a path, or its first argument's choices.\n_evidence_words() {\n    case \"$1\" in\n"
        for node in nodes {
            let words = node.subcommands.map(\.name) + node.argumentChoices
            guard !words.isEmpty else { continue }
            script += "        \(quoted(node.path))) echo \(quoted(words.joined(separator: " "))) ;;\n"
        }
        script += "    esac\n}\n\n_evidence_options() {\n    case \"$1\" in\n"
        for node in nodes {
            script += "        \(quoted(node.path))) echo \(quoted(node.options.map { "--" + $0.name }.joined(separator: " "))) ;;\n"
        }
        script += "    esac\n}\n\n# Whether an option of a path takes a value.\n_evidence_valued() {\n    case \"$1 $2\" in\n"
        let valued = nodes.flatMap { node in node.options.filter { !$0.isFlag }.map { quoted(node.path + " --" + $0.name) } }
        script += "        " + valued.joined(separator: "|") + ") return 0 ;;\n    esac\n    return 1\n}\n\n"
        script += "# The values an option accepts; nothing for a file or free text.\n_evidence_values() {\n    case \"$1 $2\" in\n"
        for node in nodes {
            for option in node.options where !(option.choices ?? []).isEmpty {
                script += "        \(quoted(node.path + " --" + option.name))) echo \(quoted((option.choices ?? []).joined(separator: " "))) ;;\n"
            }
        }
        return script + "    esac\n}\n\ncomplete -F _evidence evidence\n"
    }

    // MARK: - fish

    private static func fish(_ nodes: [Node]) -> String {
        var script = """
            # Completion of evidence for fish: save it as ~/.config/fish/completions/evidence.fish.
            set -g __evidence_paths \(nodes.dropFirst().map { quoted($0.path) }.joined(separator: " "))
            set -g __evidence_valued \(nodes.flatMap { node in node.options.filter { !$0.isFlag }.map { quoted(node.path + "|--" + $0.name) } }.joined(separator: " "))

            # The command path of the words before the cursor, as bash's completion finds it.
            function __evidence_path
                set -l path ''
                set -l skip 0
                for word in (commandline -opc)[2..-1]
                    if test $skip = 1
                        set skip 0
                        continue
                    end
                    if string match -q -- '-*' $word
                        contains -- "$path|$word" $__evidence_valued; and set skip 1
                        continue
                    end
                    set -l next (string trim -- "$path $word")
                    contains -- $next $__evidence_paths; and set path $next
                end
                echo $path
            end

            function __evidence_at
                test (__evidence_path) = "$argv[1]"
            end

            complete -c evidence -f

            """
        for node in nodes {
            let at = "-n " + quoted("__evidence_at " + quoted(node.path))
            for subcommand in node.subcommands {
                script += "complete -c evidence \(at) -a \(quoted(subcommand.name)) -d \(quoted(firstSentence(subcommand.abstract)))\n"
            }
            if !node.argumentChoices.isEmpty {
                script += "complete -c evidence \(at) -a \(quoted(node.argumentChoices.joined(separator: " ")))\n"
            }
            for option in node.options {
                var line = "complete -c evidence \(at) -l \(quoted(option.name))"
                if let short = option.short { line += " -s \(quoted(String(short)))" }
                if let choices = option.choices, !choices.isEmpty {
                    line += " -x -a \(quoted(choices.joined(separator: " ")))"
                } else if !option.isFlag {
                    line += " -r -F"
                }
                script += line + " -d \(quoted(firstSentence(option.help)))\n"
            }
        }
        return script
    }

    /// A help text's first sentence, for a one-line description.
    private static func firstSentence(_ text: String) -> String {
        guard let end = text.firstRange(of: ". ") else { return text }
        return String(text[..<end.lowerBound])
    }
}

extension Completions {
    /// `completions`
    struct Command: DeclaredCommand {
        static let about = CommandSpec(
            name: "completions",
            abstract: "Print a script that completes evidence's commands, options and their values in bash, zsh or fish.",
            discussion: "bash: source <(evidence completions bash) in ~/.bashrc. zsh: source <(evidence completions zsh) "
                + "in ~/.zshrc. fish: evidence completions fish > ~/.config/fish/completions/evidence.fish.")

        @Argument(.choice("shell", help: "bash, zsh or fish.")) var shell: Shell

        func run(_ runner: Runner) throws -> Int32 {
            runner.output.write(Completions.script(shell, root: CommandTree.root, globalOptions: [CommandTree.store.option]))
            return ExitCode.ok
        }
    }
}
