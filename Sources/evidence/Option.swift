import EvidenceStore

/// How an option is parsed and read: its help, and the values given (in
/// order; empty when it was not) to the typed value. Options several commands
/// share are declared once as one of these (`SharedOptions.by`).
struct OptionDeclaration<Value>: Sendable {
    let option: OptionSpec
    let read: @Sendable ([String], ParsedValues) throws -> Value

    /// The same option read on into another type, such as a number from its text.
    func map<Other>(_ transform: @escaping @Sendable (Value) throws -> Other) -> OptionDeclaration<Other> {
        let read = self.read
        return OptionDeclaration<Other>(option: option) { try transform(try read($0, $1)) }
    }

    /// The value the command takes when the option is left out.
    func defaulting<Wrapped: Sendable>(to fallback: Wrapped) -> OptionDeclaration<Wrapped> where Value == Wrapped? {
        map { $0 ?? fallback }
    }

    /// The option with the values the parser accepts (in any case).
    func accepting(_ choices: [String]) -> OptionDeclaration {
        var option = self.option
        option.choices = choices
        return OptionDeclaration(option: option, read: read)
    }
}

extension OptionDeclaration where Value == Bool {
    /// `--name`: true when given.
    static func flag(_ name: String, help: String) -> OptionDeclaration {
        OptionDeclaration(option: OptionSpec(name: name, help: help)) { given, _ in !given.isEmpty }
    }
}

extension OptionDeclaration where Value == String? {
    /// `--name <value>`, at most once; nil when left out.
    static func text(_ name: String, _ valueName: String, help: String) -> OptionDeclaration {
        OptionDeclaration(option: OptionSpec(name: name, valueName: valueName, help: help)) { given, _ in given.last }
    }

    /// The value as a whole number of at least `minimum`, nil when left out;
    /// another is refused, naming `field` and what it expects.
    func number(atLeast minimum: Int, field: String, expected: String) -> OptionDeclaration<Int?> {
        map { text in
            try text.map { text in
                guard let number = Int(text), number >= minimum else {
                    throw EvidenceError.invalidValue(field: field, value: text, expected: expected)
                }
                return number
            }
        }
    }
}

extension OptionDeclaration where Value == String {
    /// `--name <value>`, which the parser requires.
    static func required(_ name: String, _ valueName: String, help: String) -> OptionDeclaration {
        let option = OptionSpec(name: name, valueName: valueName, help: help, isRequired: true)
        return OptionDeclaration(option: option) { given, values in
            guard let value = given.last else { throw UsageError.missing(option.synopsis, path: values.path) }
            return value
        }
    }
}

extension OptionDeclaration where Value == [String] {
    /// `--name <value>`, any number of times, in the order given.
    static func repeated(_ name: String, _ valueName: String, help: String) -> OptionDeclaration {
        OptionDeclaration(option: OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: true)) { given, _ in given }
    }
}

extension OptionDeclaration where Value: Vocabulary {
    /// `--name <value>` of a vocabulary, which the parser requires.
    static func requiredChoice(_ name: String, _ valueName: String, help: String) -> OptionDeclaration {
        OptionDeclaration<String>.required(name, valueName, help: help).accepting(Value.names).map(Value.init(parsing:))
    }
}

extension OptionDeclaration {
    /// `--name <value>` with the values of a vocabulary, in any case; nil when left out.
    static func choice<Word: Vocabulary>(_ name: String, _ valueName: String, help: String) -> OptionDeclaration
    where Value == Word? {
        OptionDeclaration(option: OptionSpec(name: name, valueName: valueName, help: help, choices: Word.names)) { given, _ in
            try given.last.map(Word.init(parsing:))
        }
    }
}
