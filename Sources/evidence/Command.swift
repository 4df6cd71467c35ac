import EvidenceStore

/// A command line, parsed and ready to run. Building one reads nothing but
/// the words and the environment it was given.
protocol Command: Sendable {
    func run(_ runner: Runner) throws -> Int32
    /// Whether a store found in a folder above is the one it works on (as git
    /// finds a repository); `init` creates one in the current folder instead.
    var findsTheStoreAbove: Bool { get }
}

extension Command {
    var findsTheStoreAbove: Bool { true }
}

/// A command of the tree, declared once: its help, arguments and options
/// (`spec`), the typed values it is made of (its stored properties, read from
/// the parsed words by `init`), and what it does (`run`). The tree lists the
/// types; nothing else names a command.
protocol DeclaredCommand: Command, Equatable {
    /// Its name, help, arguments and options; the tree attaches the type.
    static var spec: CommandSpec { get }
    /// Reads the parsed words: the parser has checked what the spec requires
    /// and allows; what remains is how the values go together.
    init(_ values: ParsedValues) throws
}

extension DeclaredCommand {
    /// Its spec, with the type that runs it attached.
    static var declaration: CommandSpec {
        var spec = spec
        spec.command = Self.self
        return spec
    }
}

/// `--help`, `-h`, `help [command]` or a group without its subcommand.
struct ShowHelp: Command, Equatable {
    let text: String

    func run(_ runner: Runner) throws -> Int32 {
        runner.output.write(text)
        return ExitCode.ok
    }
}

/// `--version`.
struct ShowVersion: Command, Equatable {
    func run(_ runner: Runner) throws -> Int32 {
        runner.output.write("evidence \(CommandTree.version)\n")
        return ExitCode.ok
    }
}

/// A command that prints one listing the store computes, in `--format`.
protocol ListingCommand: DeclaredCommand {
    var format: OutputFormat { get }
    init(format: OutputFormat)
    func listing(_ store: Store) throws -> Tabular
}

extension ListingCommand {
    init(_ values: ParsedValues) throws {
        self.init(format: try values[CommandTree.format])
    }

    func run(_ runner: Runner) throws -> Int32 {
        try runner.listing(format: format, listing)
    }
}
