import EvidenceStore

/// An option declared with the type its value is read as: `Option<Bool>` for
/// a flag, `Option<String?>` for a value that may be left out, `Option<String>`
/// for a required one, `Option<[String]>` for a repeatable one,
/// `Option<Label?>` for a choice. The declaration gives the help, so what the
/// help shows and what the command reads cannot part.
struct Option<Value>: Sendable {
    /// Its help and how it is parsed, as the command's spec lists it.
    let option: OptionSpec
    /// The values given (in order; empty when it was not) to the typed value.
    let read: @Sendable ([String], ParsedValues) throws -> Value

    /// The same option read on into another type, such as a number from its text.
    func map<Other>(_ transform: @escaping @Sendable (Value) throws -> Other) -> Option<Other> {
        let read = self.read
        return Option<Other>(option: option) { try transform(try read($0, $1)) }
    }
}

extension Option where Value == Bool {
    /// `--name`: true when given.
    static func flag(_ name: String, help: String) -> Option<Bool> {
        Option(option: OptionSpec(name: name, help: help)) { given, _ in !given.isEmpty }
    }
}

extension Option where Value == String? {
    /// `--name <value>`, at most once; nil when left out.
    static func text(_ name: String, _ valueName: String, help: String) -> Option<String?> {
        Option(option: OptionSpec(name: name, valueName: valueName, help: help)) { given, _ in given.last }
    }
}

extension Option where Value == String {
    /// `--name <value>`, which the parser requires.
    static func required(_ name: String, _ valueName: String, help: String) -> Option<String> {
        let option = OptionSpec(name: name, valueName: valueName, help: help, isRequired: true)
        return Option(option: option) { given, values in
            guard let value = given.last else { throw UsageError.missing(option.synopsis, path: values.path) }
            return value
        }
    }
}

extension Option where Value == [String] {
    /// `--name <value>`, any number of times, in the order given.
    static func repeated(_ name: String, _ valueName: String, help: String) -> Option<[String]> {
        Option(option: OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: true)) { given, _ in given }
    }
}

extension Option where Value: Vocabulary {
    /// `--name <value>` of a vocabulary, which the parser requires.
    static func requiredChoice(_ name: String, _ valueName: String, help: String, of _: Value.Type) -> Option<Value> {
        Option<String>.required(name, valueName, help: help).accepting(Value.names).map(Value.init(parsing:))
    }
}

extension Option {
    /// `--name <value>` with the values of a vocabulary, in any case; nil when left out.
    static func choice<Word: Vocabulary>(_ name: String, _ valueName: String, help: String, of _: Word.Type)
        -> Option<Word?> where Value == Word?
    {
        Option(option: OptionSpec(name: name, valueName: valueName, help: help, choices: Word.names)) { given, _ in
            try given.last.map(Word.init(parsing:))
        }
    }

    /// The value the command takes when the option is left out.
    func defaulting<Wrapped: Sendable>(to fallback: Wrapped) -> Option<Wrapped> where Value == Wrapped? {
        map { $0 ?? fallback }
    }

    /// The option with the values the parser accepts (in any case).
    func accepting(_ choices: [String]) -> Option {
        var option = self.option
        option.choices = choices
        return Option(option: option, read: read)
    }
}
