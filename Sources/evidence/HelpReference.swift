/// The command reference (docs/commands.md): every command's help text, in tree order,
/// so that the documentation is the help itself. A test keeps them in step.
enum HelpReference {
    static let begin = "<!-- BEGIN COMMAND REFERENCE: generated from the help text; run the tests with EVIDENCE_UPDATE_GOLDEN=1 to refresh -->"
    static let end = "<!-- END COMMAND REFERENCE -->"

    static func markdown() -> String {
        var out = begin + "\n"
        visit(CommandTree.root, path: []) { spec, path in
            let title = (["evidence"] + path).joined(separator: " ")
            out += "\n### `\(title)`\n\n```text\n"
            out += Help.text(for: spec, path: path, globalOptions: CommandTree.parser.globalOptions)
            out += "```\n"
        }
        return out + "\n" + end
    }

    private static func visit(_ spec: CommandSpec, path: [String], _ body: (CommandSpec, [String]) -> Void) {
        body(spec, path)
        for subcommand in spec.subcommands {
            visit(subcommand, path: path + [subcommand.name], body)
        }
    }
}
