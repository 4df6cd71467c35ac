import EvidenceStore

/// An option or an argument of a command, as its help lists it.
enum Parameter: Sendable {
    case option(OptionSpec)
    case argument(ArgumentSpec)
}

/// An option or an argument as a command's property declares it, with the
/// type its value is read as: `@Option(.flag("force", help: …)) var force:
/// Bool`, `@Option(.text("note", "text", help: …)) var note: String?`,
/// `@Argument(.required("key", help: …)) var key: String`. The one
/// declaration is what the parser accepts, what the help shows and the value
/// the command reads, so none of them can part from the others.
@propertyWrapper
struct Declared<Value: Sendable>: DeclaredParameter {
    let parameter: Parameter
    let value: Result<Value, any Error>

    init(_ option: OptionDeclaration<Value>) {
        parameter = .option(option.option)
        value = Parsing.read { try option.read(try option.option.given(in: $0), $0) }
    }

    init(_ argument: ArgumentDeclaration<Value>) {
        parameter = .argument(argument.argument)
        value = Parsing.read { try argument.read(try argument.argument.given(in: $0), $0) }
    }

    var wrappedValue: Value { value.parsed }
}

/// `@Option(…)` and `@Argument(…)`: a property declared as the help names it.
typealias Option<Value: Sendable> = Declared<Value>
typealias Argument<Value: Sendable> = Declared<Value>

/// A property of a command that the parser fills: `@Option` or `@Argument`.
protocol DeclaredParameter: Sendable {
    associatedtype Value: Sendable
    var parameter: Parameter { get }
    /// What reading the words gave: the value, or why there is none.
    var value: Result<Value, any Error> { get }
}

/// Options that go together and that several commands take, such as those
/// that name an environment: a command holds the group as a property
/// (`let environment = EnvironmentOptions()`), and its options are the command's.
protocol OptionGroup: Sendable {}

/// The words a command is being made of, while `DeclaredCommand.make` builds
/// it; none while a command is made to read its declaration.
enum Parsing {
    @TaskLocal static var values: ParsedValues?

    /// What a property reads from the words being parsed; reading no words
    /// when a command is made for its declaration (the value is never used then).
    static func read<Value>(_ body: (ParsedValues) throws -> Value) -> Result<Value, any Error> {
        Result { try body(values ?? ParsedValues(path: [])) }
    }

    /// The options and arguments an instance declares, in the order of its
    /// properties, those of its groups in the place of the group.
    static func parameters(of instance: Any) -> [any DeclaredParameter] {
        Mirror(reflecting: instance).children.flatMap { child -> [any DeclaredParameter] in
            if let parameter = child.value as? any DeclaredParameter { return [parameter] }
            if let group = child.value as? any OptionGroup { return parameters(of: group) }
            return []
        }
    }
}

extension Parsing {
    /// Options and arguments of free text, which may hold line breaks and tabs.
    static let freeText: Set<String> = ["statement", "note", "reason", "description", "sql"]

    /// The values given to an option or argument (`display`), refused when one
    /// is outside its choices, as swift-argument-parser refuses it (the value,
    /// the option and what it accepts), or holds a control character: names,
    /// versions and builds are one line; free text has line breaks and tabs at most.
    static func checked(_ given: [String], _ name: String, _ display: String, choices: [String]?, path: [String]) throws
        -> [String]
    {
        for value in given {
            if let choices, !choices.contains(where: { $0.lowercased() == value.lowercased() }) {
                throw UsageError(
                    message: "The value '\(value)' is invalid for '\(display)'. Please provide one of \(choices.map { "'\($0)'" }.listed()).",
                    path: path)
            }
            if let problem = ControlCharacters.problem(in: value, allowingLineBreaks: freeText.contains(name)) {
                throw UsageError(message: "The value of '\(display)': \(problem).", path: path)
            }
        }
        return given
    }
}

extension OptionSpec {
    /// The values given to it in `values`, checked (`Parsing.checked`).
    func given(in values: ParsedValues) throws -> [String] {
        try Parsing.checked(values.options[name] ?? [], name, synopsis, choices: choices, path: values.path)
    }
}

extension ArgumentSpec {
    /// The words it took in `values`, checked (`Parsing.checked`).
    func given(in values: ParsedValues) throws -> [String] {
        try Parsing.checked(values.arguments[name] ?? [], name, displayName, choices: choices, path: values.path)
    }
}

extension DeclaredParameter {
    /// The reason reading failed, if it did.
    var failure: (any Error)? {
        if case .failure(let error) = value { return error }
        return nil
    }
}

extension Result where Failure == any Error {
    /// The value a property read. A command is only ever handed on by
    /// `DeclaredCommand.make`, which throws the first failure of its
    /// properties first, so no one reads one that failed.
    var parsed: Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): preconditionFailure("a command's property that failed to parse was read: \(error)")
        }
    }
}
