/// Help text in the layout swift-argument-parser prints: OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS, SUBCOMMANDS.
enum Help {
    static let width = 80
    static let labelColumn = 26

    static func text(for spec: CommandSpec, path: [String], globalOptions: [OptionSpec]) -> String {
        var lines: [String] = []
        lines.append(contentsOf: wrap("OVERVIEW: " + spec.abstract, indent: 0, hanging: 0))
        if let discussion = spec.discussion {
            lines.append("")
            for paragraph in discussion.pieces(separatedBy: "\n\n") {
                if paragraph.hasPrefix("  ") {
                    lines.append(contentsOf: paragraph.pieces(separatedBy: "\n"))
                } else {
                    lines.append(contentsOf: wrap(paragraph.replacingEvery("\n", with: " "), indent: 0, hanging: 0))
                }
                lines.append("")
            }
            lines.removeLast()
        }
        lines.append("")
        lines.append(usage(for: spec, path: path, globalOptions: globalOptions))
        if !spec.arguments.isEmpty {
            lines.append("")
            lines.append("ARGUMENTS:")
            for argument in spec.arguments {
                lines.append(contentsOf: entry(argument.displayName + (argument.isVariadic ? " ..." : ""), argument.help))
            }
        }
        lines.append("")
        lines.append("OPTIONS:")
        let options = spec.options + (spec.command == nil && !path.isEmpty ? [] : globalOptions)
        for option in options {
            lines.append(contentsOf: entry(option.label, option.help))
        }
        if path.isEmpty {
            lines.append(contentsOf: entry("--version", "Show the version."))
        }
        lines.append(contentsOf: entry(Parser.helpOption.label, Parser.helpOption.help))
        if !spec.subcommands.isEmpty {
            lines.append("")
            lines.append("SUBCOMMANDS:")
            for subcommand in spec.subcommands {
                lines.append(contentsOf: entry(subcommand.name, subcommand.abstract))
            }
            lines.append("")
            let prefix = (["evidence", "help"] + path).joined(separator: " ")
            lines.append("  See '\(prefix) <subcommand>' for detailed help.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func usage(for spec: CommandSpec, path: [String], globalOptions: [OptionSpec]) -> String {
        var parts = ["evidence"] + path
        if spec.command == nil {
            parts.append("<subcommand>")
            return "USAGE: " + parts.joined(separator: " ")
        }
        for argument in spec.arguments {
            var text = argument.displayName
            if argument.isVariadic { text += " ..." }
            parts.append(argument.isOptional ? "[\(text)]" : text)
        }
        var grouped: Set<String> = spec.environment == .optional ? [] : ["device", "simulator", "os", "os-build", "xcode", "xcode-build"]
        if spec.environment == .orRun { grouped.insert("run") }
        var groupShown = false
        for option in spec.options + globalOptions {
            if grouped.contains(option.name) {
                if !groupShown, let group = environmentGroup(spec) { parts.append(group) }
                groupShown = true
                continue
            }
            var text = option.synopsis
            if option.isRepeatable { text += " ..." }
            parts.append(option.isRequired ? text : "[\(text)]")
        }
        return wrap("USAGE: " + parts.joined(separator: " "), indent: 0, hanging: 7).joined(separator: "\n")
    }

    /// The environment's options as a usage line shows them, once:
    /// `(--device <model> | --simulator <model>) --os <os> [--os-build <build>] [--xcode <version>] [--xcode-build <build>]`,
    /// inside `[--run <id> | …]` where a run may be named instead.
    private static func environmentGroup(_ spec: CommandSpec) -> String? {
        let builds = "[--os-build <build>] [--xcode <version>] [--xcode-build <build>]"
        let environment = "(--device <model> | --simulator <model>) --os <os> " + builds
        switch spec.environment {
        case .optional: return nil
        case .required: return environment
        case .orRun: return "(--run <id> | " + environment + ")"
        }
    }

    /// One line of a list: the label in a column, the help wrapped beside it.
    private static func entry(_ label: String, _ help: String) -> [String] {
        let indented = "  " + label
        let helpLines = wrapWords(help, width: width - labelColumn)
        var lines: [String] = []
        if indented.count + 2 <= labelColumn {
            lines.append(indented.padded(to: labelColumn) + (helpLines.first ?? ""))
        } else {
            lines.append(indented)
            if let first = helpLines.first {
                lines.append(String(repeating: " ", count: labelColumn) + first)
            }
        }
        for line in helpLines.dropFirst() {
            lines.append(String(repeating: " ", count: labelColumn) + line)
        }
        return lines.map { $0.trailingSpacesRemoved }
    }

    private static func wrap(_ text: String, indent: Int, hanging: Int) -> [String] {
        let body = wrapWords(text, width: width - indent)
        guard let first = body.first else { return [] }
        var lines = [String(repeating: " ", count: indent) + first]
        let rest = wrapWords(body.dropFirst().joined(separator: " "), width: width - hanging)
        lines += rest.map { String(repeating: " ", count: hanging) + $0 }
        return lines
    }

    private static func wrapWords(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

extension String {
    var trailingSpacesRemoved: String {
        var copy = self
        while copy.hasSuffix(" ") { copy.removeLast() }
        return copy
    }
}
