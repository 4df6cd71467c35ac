import EvidenceStore

/// How an argument is parsed and read: its help, and the words it took
/// (empty when none) to the typed value.
struct ArgumentDeclaration<Value>: Sendable {
    let argument: ArgumentSpec
    let read: @Sendable ([String], ParsedValues) throws -> Value

    /// The same argument with other help, for commands that share its reading.
    func helped(_ help: String) -> ArgumentDeclaration {
        var argument = self.argument
        argument.help = help
        return ArgumentDeclaration(argument: argument, read: read)
    }
}

extension ArgumentDeclaration where Value == String {
    /// `<name>`, which the parser requires.
    static func required(_ name: String, help: String) -> ArgumentDeclaration {
        let argument = ArgumentSpec(name: name, help: help)
        return ArgumentDeclaration(argument: argument) { given, values in
            guard let value = given.first else { throw UsageError.missing(argument.displayName, path: values.path) }
            return value
        }
    }
}

extension ArgumentDeclaration where Value == String? {
    /// `<name>`, which may be left out.
    static func optional(_ name: String, help: String) -> ArgumentDeclaration {
        ArgumentDeclaration(argument: ArgumentSpec(name: name, help: help, isOptional: true)) { given, _ in given.first }
    }
}

extension ArgumentDeclaration where Value == [String] {
    /// `<name> ...`: the rest of the words, at least one unless `optional`.
    static func variadic(_ name: String, help: String, optional: Bool = false) -> ArgumentDeclaration {
        let argument = ArgumentSpec(name: name, help: help, isOptional: optional, isVariadic: true)
        return ArgumentDeclaration(argument: argument) { given, values in
            guard optional || !given.isEmpty else { throw UsageError.missing(argument.displayName, path: values.path) }
            return given
        }
    }
}

extension ArgumentDeclaration where Value: Vocabulary {
    /// `<name>` with the values of a vocabulary, in any case.
    static func choice(_ name: String, help: String) -> ArgumentDeclaration {
        let text = ArgumentDeclaration<String>.required(name, help: help)
        var argument = text.argument
        argument.choices = Value.names
        return ArgumentDeclaration(argument: argument) { try Value(parsing: try text.read($0, $1)) }
    }
}
