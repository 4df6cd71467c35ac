/// The shape of one command as its help shows it, and how its parsed values
/// become a `Command`. The whole command tree is data, so help text, usage
/// lines and "did you mean" all come from one description.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var discussion: String? = nil
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var subcommands: [CommandSpec] = []
    /// Builds the command from parsed values; nil for a group of subcommands.
    var build: (@Sendable (ParsedValues) throws -> Command)? = nil
    /// How the usage line shows the environment options, when it has them.
    var environment: EnvironmentUsage = .optional

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
/// argument values by name, each in the order given.
struct ParsedValues: Sendable {
    var path: [String]
    var options: [String: [String]] = [:]
    var arguments: [String: [String]] = [:]
    var environment: [String: String] = [:]

    func flag(_ name: String) -> Bool { options[name] != nil }
    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }
    func argument(_ name: String) -> String? { arguments[name]?.first }
    func argumentValues(_ name: String) -> [String] { arguments[name] ?? [] }

    /// A required argument or option value. The parser checks that what a
    /// spec requires is given; a name no spec declares (a slip in a command's
    /// code) is an error that names it, never an empty value.
    func required(_ name: String) throws -> String {
        guard let given = argument(name) ?? value(name) else {
            throw UsageError(message: "Missing <\(name)>.", path: path)
        }
        return given
    }
}

/// Words for lists in help and errors.
enum Choices {
    /// "a, b or c"
    static func list(_ names: [String], conjunction: String = "or") -> String {
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// "'a', 'b' or 'c'", as swift-argument-parser lists accepted values.
    static func quoted(_ names: [String]) -> String {
        list(names.map { "'\($0)'" })
    }
}
