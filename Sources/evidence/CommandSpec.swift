/// The shape of one command as its help shows it, and the type it becomes.
/// The whole command tree is data, so help text, usage lines and "did you
/// mean" all come from one description.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var discussion: String? = nil
    var subcommands: [CommandSpec] = []
    /// The command its parsed values become; nil for a group of subcommands.
    var command: (any DeclaredCommand.Type)? = nil
    /// How the usage line shows the environment options, when it has them.
    var environment: EnvironmentUsage = .optional

    /// A command's name and help; its options and arguments are those its
    /// type's properties declare, read when asked for (the parser asks for
    /// one command's, so a start never reads every command's).
    init(name: String, abstract: String, discussion: String? = nil, environment: EnvironmentUsage = .optional) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.environment = environment
    }

    /// A group: a name for the commands under it.
    init(group name: String, abstract: String, commands: [any DeclaredCommand.Type]) {
        self.init(group: name, abstract: abstract, subcommands: commands.map { $0.declaration })
    }

    /// A command with commands under it: `checklist` writes the checklist,
    /// `checklist mark` marks an item.
    init(_ command: any DeclaredCommand.Type, subcommands: [any DeclaredCommand.Type]) {
        self = command.declaration
        self.subcommands = subcommands.map { $0.declaration }
    }

    /// The root or a group of groups.
    init(group name: String, abstract: String, subcommands: [CommandSpec]) {
        self.name = name
        self.abstract = abstract
        self.subcommands = subcommands
    }

    /// Whether a command must be given an environment: the usage line groups
    /// --device/--simulator, --os and the builds, and marks what is required.
    enum EnvironmentUsage: Sendable {
        /// Each option on its own (a file may name the environment).
        case optional
        /// --device or --simulator, with --os.
        case required
        /// --run, or --device or --simulator with --os.
        case orRun
    }

    var arguments: [ArgumentSpec] { command?.parameters.arguments ?? [] }
    var options: [OptionSpec] { command?.parameters.options ?? [] }

    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}

struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var isOptional = false
    var isVariadic = false
    /// The values it accepts (ignoring case), nil for any.
    var choices: [String]? = nil

    var displayName: String { "<\(name)>" }
}

struct OptionSpec: Sendable {
    /// The long name without dashes: `format` for `--format`.
    var name: String
    var short: Character? = nil
    /// The value's placeholder, such as `path`; nil for a flag.
    var valueName: String? = nil
    var help: String
    var isRequired = false
    var isRepeatable = false
    /// The values it accepts (ignoring case), nil for any.
    var choices: [String]? = nil

    var isFlag: Bool { valueName == nil }

    /// `--format <format>` or `--verbose`.
    var synopsis: String {
        valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
    }

    /// The label in the OPTIONS list: `-h, --help`, `--format <format>`.
    var label: String {
        short.map { "-\($0), \(synopsis)" } ?? synopsis
    }
}

/// What the parser found for one command: option values by long name and
/// argument values by name, each in the order given, and the environment. A
/// command's properties read them as they declare (`Parsing`).
struct ParsedValues: Sendable {
    var path: [String]
    var options: [String: [String]] = [:]
    var arguments: [String: [String]] = [:]
    var environment: [String: String] = [:]
}
