import EvidenceStore

/// Parses the words after `evidence` against the command tree. Pure: the
/// environment comes in as a value, nothing is read or printed here.
struct Parser {
    let root: CommandSpec
    /// Options every command accepts, anywhere on the line.
    let globalOptions: [OptionSpec]

    static let helpOption = OptionSpec(name: "help", short: "h", help: "Show help information.")
    /// Options whose value names a file: an empty one would silently mean a default.
    static let pathValueNames: Set<String> = ["path", "file", "folder"]

    /// The command, and the values it was made of (the global options among them).
    func parse(_ words: [String], environment: [String: String]) throws -> (any Command, ParsedValues) {
        var spec = root
        var path: [String] = []
        var values = ParsedValues(path: [], environment: environment)
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false

        // `evidence help [command...]` shows the help of that command.
        if words.first == "help" {
            var target = root
            var targetPath: [String] = []
            for word in words.dropFirst() {
                guard let next = target.subcommand(named: word) else {
                    throw unknownCommand(word, in: target, path: targetPath)
                }
                target = next
                targetPath.append(word)
            }
            return (ShowHelp(text: Help.text(for: target, path: targetPath, globalOptions: globalOptions)), values)
        }

        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "--help" || word == "-h" {
                return (ShowHelp(text: Help.text(for: spec, path: path, globalOptions: globalOptions)), values)
            }
            if word == "--version" && path.isEmpty {
                return (ShowVersion(), values)
            }
            // An option's name is one word; "-- a comment" is SQL or text, not an option.
            let looksLikeOption = !word.prefix { $0 != "=" }.contains(where: \.isWhitespace)
            if word.hasPrefix("--") && looksLikeOption {
                try readOption(word, words: words, index: &index, spec: spec, path: path, into: &values)
                continue
            }
            if word.hasPrefix("-") && word.count > 1 && Double(word) == nil && looksLikeOption {
                throw UsageError(
                    message: "Unknown option '\(word)'." + didYouMean(word, among: optionNames(of: spec)),
                    path: path)
            }
            // A word names a subcommand until the command takes arguments.
            if !spec.subcommands.isEmpty && positionals.isEmpty {
                guard let next = spec.subcommand(named: word) else {
                    throw unknownCommand(word, in: spec, path: path)
                }
                spec = next
                path.append(word)
                continue
            }
            positionals.append(word)
        }

        guard let command = spec.command else {
            // A group without a subcommand: show what it offers.
            return (ShowHelp(text: Help.text(for: spec, path: path, globalOptions: globalOptions)), values)
        }
        values.path = path
        try assign(positionals, to: spec, path: path, into: &values)
        return (try command.make(values), values)
    }

    // MARK: - Options

    private func options(of spec: CommandSpec) -> [OptionSpec] {
        spec.options + globalOptions
    }

    private func optionNames(of spec: CommandSpec) -> [String] {
        (options(of: spec) + [Self.helpOption]).map { "--\($0.name)" }
    }

    private func readOption(
        _ word: String, words: [String], index: inout Int, spec: CommandSpec, path: [String],
        into values: inout ParsedValues
    ) throws {
        let body = word.dropFirst(2)
        let name: String
        var inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
        }
        guard let option = options(of: spec).first(where: { $0.name == name }) else {
            throw UsageError(
                message: "Unknown option '--\(name)'." + didYouMean("--\(name)", among: optionNames(of: spec)),
                path: path)
        }
        let value: String
        if option.isFlag {
            if inlineValue != nil {
                throw UsageError(message: "Option '--\(name)' takes no value.", path: path)
            }
            value = ""
        } else if let inlineValue {
            value = inlineValue
        } else {
            guard index < words.count else {
                throw UsageError(message: "Missing value for '\(option.synopsis)'.", path: path)
            }
            value = words[index]
            index += 1
        }
        if value.isEmpty && !option.isFlag && Self.pathValueNames.contains(option.valueName ?? "") {
            throw UsageError(message: "Option '--\(name)' needs a \(option.valueName ?? "value"); an empty one names nothing.", path: path)
        }
        if values.options[name] != nil && !option.isRepeatable && !option.isFlag {
            throw UsageError(message: "Option '--\(name)' was given more than once.", path: path)
        }
        values.options[name, default: []].append(value)
    }

    // MARK: - Arguments

    private func assign(_ positionals: [String], to spec: CommandSpec, path: [String], into values: inout ParsedValues)
        throws
    {
        var remaining = positionals[...]
        for argument in spec.arguments {
            if argument.isVariadic {
                values.arguments[argument.name] = Array(remaining)
                remaining = []
            } else if let first = remaining.first {
                values.arguments[argument.name] = [first]
                remaining = remaining.dropFirst()
            }
        }
        if let extra = remaining.first {
            throw UsageError(message: "Unexpected argument '\(extra)'.", path: path)
        }
    }

    // MARK: - Errors

    private func unknownCommand(_ word: String, in spec: CommandSpec, path: [String]) -> UsageError {
        let names = spec.subcommands.map(\.name)
        let what = path.isEmpty ? "command" : "subcommand of '\(path.joined(separator: " "))'"
        return UsageError(message: "Unknown \(what) '\(word)'." + didYouMean(word, among: names), path: path)
    }

    private func didYouMean(_ word: String, among names: [String]) -> String {
        guard let best = Suggestions.closest(to: word, in: names, limit: 1).first else { return "" }
        return " Did you mean '\(best)'?"
    }

    /// The usage line of the command at `path`, for printing after an error.
    func usage(for path: [String]) -> String {
        var spec = root
        for word in path {
            guard let next = spec.subcommand(named: word) else { break }
            spec = next
        }
        return Help.usage(for: spec, path: path, globalOptions: globalOptions)
    }
}
