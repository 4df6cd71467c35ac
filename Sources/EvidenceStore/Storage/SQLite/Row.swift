/// One result row, detached from its statement: column names and values in order.
struct Row: Hashable, Sendable {
    let columns: [String]
    let values: [SQLValue]

    /// The value of the named column; a name the row does not have is an error,
    /// never a silent NULL.
    func value(_ name: String) throws -> SQLValue {
        guard let index = columns.firstIndex(of: name) else {
            throw DatabaseError(
                extendedCode: 1, message: "no column named '\(name)' (the row has \(columns.joined(separator: ", ")))")
        }
        return values[index]
    }

    /// The column as text; NULL reads as the empty string.
    func text(_ name: String) throws -> String { try value(name).description }
    func optionalText(_ name: String) throws -> String? { try value(name).string }
    /// The column as an integer; a NULL or a text is an error.
    func int(_ name: String) throws -> Int {
        guard let number = try value(name).int else {
            throw DatabaseError(extendedCode: 20, message: "column '\(name)' is not an integer")
        }
        return number
    }
    func optionalInt(_ name: String) throws -> Int? { try value(name).int }
    func double(_ name: String) throws -> Double? { try value(name).double }
}
