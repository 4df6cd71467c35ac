import EvidenceStore

/// An argument declared with the type its value is read as: `Argument<String>`
/// for a required one, `Argument<String?>` for an optional one,
/// `Argument<[String]>` for the rest of the words, `Argument<Label>` for a choice.
struct Argument<Value>: Sendable {
    /// Its help and how it is parsed, as the command's spec lists it.
    let argument: ArgumentSpec
    /// The words it took (empty when none) to the typed value.
    let read: @Sendable ([String], ParsedValues) throws -> Value
}

extension Argument where Value == String {
    /// `<name>`, which the parser requires.
    static func required(_ name: String, help: String) -> Argument<String> {
        let argument = ArgumentSpec(name: name, help: help)
        return Argument(argument: argument) { given, values in
            guard let value = given.first else { throw UsageError.missing(argument.displayName, path: values.path) }
            return value
        }
    }
}

extension Argument where Value == String? {
    /// `<name>`, which may be left out.
    static func optional(_ name: String, help: String) -> Argument<String?> {
        Argument(argument: ArgumentSpec(name: name, help: help, isOptional: true)) { given, _ in given.first }
    }
}

extension Argument where Value == [String] {
    /// `<name> ...`: the rest of the words, at least one unless `optional`.
    static func variadic(_ name: String, help: String, optional: Bool = false) -> Argument<[String]> {
        Argument(argument: ArgumentSpec(name: name, help: help, isOptional: optional, isVariadic: true)) { given, _ in given }
    }
}

extension Argument where Value: Vocabulary {
    /// `<name>` with the values of a vocabulary, in any case.
    static func choice(_ name: String, help: String, of _: Value.Type) -> Argument<Value> {
        let text = Argument<String>.required(name, help: help)
        var argument = text.argument
        argument.choices = Value.names
        return Argument(argument: argument) { try Value(parsing: try text.read($0, $1)) }
    }
}

extension Argument {
    /// The same argument with other help, for commands that share its reading.
    func helped(_ help: String) -> Argument {
        var argument = self.argument
        argument.help = help
        return Argument(argument: argument, read: read)
    }
}
