/// Reads the fields of one JSON object of an input file, turning every problem
/// into an error that names the file, the line and the field.
struct FieldReader: Sendable {
    let file: String
    let line: Int
    let path: String
    private let fields: [(String, JSONValue)]
    /// Which of `fields` were read; the rest are unknown to the format.
    private var used: [Bool]
    /// Where the field after the last one read is.
    private var next = 0

    init(file: String, line: Int, value: JSONValue, path: String = "") throws {
        self.file = file
        self.line = line
        self.path = path
        guard case .object(let fields) = value else {
            throw EvidenceError.badFile(
                path: file, location: String(line),
                reason: path.isEmpty ? "expected a JSON object, found \(value.typeName)" : "field '\(path)': expected an object")
        }
        self.fields = fields
        self.used = Array(repeating: false, count: fields.count)
    }

    func error(_ key: String, _ reason: String) -> EvidenceError {
        EvidenceError.badFile(path: file, location: String(line), reason: "field '\(path)\(key)': \(reason)")
    }

    /// Runs a validator on a field, naming the field in its error.
    func checked<T>(_ key: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as EvidenceError {
            if case .badFile = error { throw error }
            throw self.error(key, error.description)
        }
    }

    /// The name of the record's first field, which tells kinds of record apart
    /// in a file that holds several.
    var firstKey: String? { fields.first?.0 }

    private mutating func raw(_ key: String) -> JSONValue? {
        // Fields are mostly read in the order the format writes them: the one
        // after the last found is looked at first.
        let index: Int
        if next < fields.count, fields[next].0 == key {
            index = next
        } else if let found = fields.firstIndex(where: { $0.0 == key }) {
            index = found
        } else {
            return nil
        }
        used[index] = true
        next = index + 1
        return fields[index].1
    }

    /// Fields of free text, which may hold line breaks and tabs; every other
    /// text field is one line (a name, a version, a build, a key, a path).
    static let freeText: Set<String> = ["statement", "note", "reason", "message", "text", "description"]

    mutating func string(_ key: String) throws -> String {
        guard let value = try optionalString(key) else { throw error(key, "missing") }
        return value
    }

    mutating func optionalString(_ key: String) throws -> String? {
        switch raw(key) {
        case nil, .null?: return nil
        case .string(let text)?:
            // Nearly every field is printable ASCII: the key is looked up among the free-text ones only when not.
            if !ControlCharacters.isPrintableASCII(text),
                let problem = ControlCharacters.problem(in: text, allowingLineBreaks: Self.freeText.contains(key))
            {
                // A NUL is a control character too, named for what it is.
                throw error(key, text.utf8.contains(0) ? "contains a NUL character" : problem.description)
            }
            return text
        case let other?: throw error(key, "expected a string, found \(other.typeName)")
        }
    }

    mutating func integer(_ key: String) throws -> Int64 {
        guard let value = try optionalInteger(key) else { throw error(key, "missing") }
        return value
    }

    mutating func optionalInteger(_ key: String) throws -> Int64? {
        switch raw(key) {
        case nil, .null?: return nil
        case .integer(let number)?: return number
        case let other?: throw error(key, "expected a whole number, found \(other.typeName)")
        }
    }

    /// A flag: true, or false when missing or null.
    mutating func flag(_ key: String) throws -> Bool {
        switch raw(key) {
        case nil, .null?: return false
        case .bool(let value)?: return value
        case let other?: throw error(key, "expected true or false, found \(other.typeName)")
        }
    }

    mutating func number(_ key: String) throws -> Double {
        guard let value = try optionalNumber(key) else { throw error(key, "missing") }
        return value
    }

    mutating func optionalNumber(_ key: String) throws -> Double? {
        switch raw(key) {
        case nil, .null?: return nil
        case .integer(let number)?: return Double(number)
        case .number(let number)?: return number
        case let other?: throw error(key, "expected a number, found \(other.typeName)")
        }
    }

    mutating func strings(_ key: String) throws -> [String] {
        switch raw(key) {
        case nil, .null?: return []
        case .array(let items)?:
            return try items.enumerated().map { index, item in
                guard case .string(let text) = item, !text.utf8.contains(0) else {
                    throw error("\(key)[\(index)]", "expected a string without NUL characters")
                }
                return text
            }
        case let other?: throw error(key, "expected an array, found \(other.typeName)")
        }
    }

    mutating func objects(_ key: String) throws -> [FieldReader] {
        switch raw(key) {
        case nil, .null?: return []
        case .array(let items)?:
            return try items.enumerated().map { index, item in
                try FieldReader(file: file, line: line, value: item, path: "\(path)\(key)[\(index)].")
            }
        case let other?: throw error(key, "expected an array, found \(other.typeName)")
        }
    }

    mutating func optionalObject(_ key: String) throws -> FieldReader? {
        switch raw(key) {
        case nil, .null?: return nil
        case let value?: return try FieldReader(file: file, line: line, value: value, path: "\(path)\(key).")
        }
    }

    /// Refuses fields the format does not define, so a typo never goes unnoticed.
    func finish() throws {
        if let index = used.firstIndex(of: false) {
            throw error(fields[index].0, "not a field of this record")
        }
    }
}

/// Where a record came from, kept after its fields are read, for errors that
/// name the file, the line and the field.
struct RecordLocation: Sendable {
    let file: String
    let line: Int

    init(_ fields: FieldReader) {
        file = fields.file
        line = fields.line
    }

    func error(_ key: String, _ reason: String) -> EvidenceError {
        EvidenceError.badFile(path: file, location: String(line), reason: "field '\(key)': \(reason)")
    }
}

extension LineReader {
    /// Each line's record, decoded, with where it was read: every error names
    /// the file, the line and, past the JSON, the field.
    func forEachRecord<T>(
        name: String, decode: (inout FieldReader) throws -> T, _ body: (T, RecordLocation) throws -> Void
    ) throws {
        // A merge git left unresolved: its records between the markers, named when it closes.
        var unresolved: (line: Int, records: [String])?
        try forEachLine { number, bytes in
            if let marker = Self.conflictMarker(bytes) {
                if marker == "<" { unresolved = (number, []) }
                if marker == ">", let open = unresolved { throw Self.conflictError(name, open) }
                if unresolved == nil { throw Self.conflictError(name, (number, [])) }
                return
            }
            let value: JSONValue
            do {
                value = try JSONReader.parse(bytes)
            } catch let failure as JSONReader.Failure {
                throw EvidenceError.badFile(
                    path: name, location: "\(number):\(failure.offset + 1)", reason: "not valid JSON: \(failure.message)")
            }
            if unresolved != nil {
                unresolved?.records.append(RecordIdentity(value)?.description ?? "line \(number)")
                return
            }
            var fields = try FieldReader(file: name, line: number, value: value)
            try body(try decode(&fields), RecordLocation(fields))
        }
        if let open = unresolved { throw Self.conflictError(name, open) }
    }

    /// `<`, `=`, `|` or `>` for a line git writes around a conflict.
    private static func conflictMarker(_ bytes: some Collection<UInt8>) -> Character? {
        guard bytes.count >= 7, let first = bytes.first, [0x3C, 0x3D, 0x3E, 0x7C].contains(first),
            bytes.prefix(7).allSatisfy({ $0 == first }), bytes.count == 7 || bytes.dropFirst(7).first == 0x20
        else { return nil }
        return Character(Unicode.Scalar(first))
    }

    private static func conflictError(_ name: String, _ open: (line: Int, records: [String])) -> EvidenceError {
        let records = Array(Set(open.records)).sorted()
        return .badFile(
            path: name, location: String(open.line),
            reason: "holds git's conflict markers: a merge left unresolved"
                + (records.isEmpty ? "" : " (\(records.joined(separator: ", ")))")
                + ". Run 'evidence git-setup' in every clone so git merges the folder record by record, "
                + "then resolve this file (keep the records you want, remove the markers) and import again")
    }
}
