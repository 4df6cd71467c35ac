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

/// A command of the tree, declared once: its name and help (`about`), and its
/// options and arguments as its properties (`@Option`, `@Argument`, option
/// groups), which the parser, the help and `run` all read. The tree lists the
/// types; nothing else names a command.
protocol DeclaredCommand: Command {
    /// Its name, abstract and discussion; the options and arguments come from its properties.
    static var about: CommandSpec { get }
    /// Made while the words are parsed, each property reading its own value.
    init()
    /// Checks how the values go together (`--as-of` or `--clear-as-of`, not
    /// both); the parser has checked what each declaration requires and allows.
    func validate() throws
}

extension DeclaredCommand {
    func validate() throws {}

    /// Its spec, with the type that runs it.
    static var declaration: CommandSpec {
        var spec = about
        spec.command = Self.self
        return spec
    }

    /// The options and arguments its properties declare, in their order.
    static var parameters: (options: [OptionSpec], arguments: [ArgumentSpec]) {
        var options: [OptionSpec] = []
        var arguments: [ArgumentSpec] = []
        for parameter in Parsing.$values.withValue(nil, operation: { Parsing.parameters(of: Self()) }) {
            switch parameter.parameter {
            case .option(let option) where !CommandTree.globalOptionNames.contains(option.name): options.append(option)
            case .option: break
            case .argument(let argument): arguments.append(argument)
            }
        }
        return (options, arguments)
    }

    /// The command the parsed words make: the first value that cannot be
    /// read, or values that do not go together, are refused naming the command.
    static func make(_ values: ParsedValues) throws -> Self {
        let command = Parsing.$values.withValue(values) { Self() }
        do {
            if let failure = Parsing.parameters(of: command).lazy.compactMap(\.failure).first { throw failure }
            try command.validate()
        } catch var error as UsageError where error.path.isEmpty {
            error.path = values.path
            throw error
        }
        return command
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
    func listing(_ store: Store) throws -> Tabular
}

extension ListingCommand {
    func run(_ runner: Runner) throws -> Int32 {
        try runner.listing(format: format, listing)
    }
}
