/// One compact JSON object on one line, fields in the order written, nil
/// fields left out. The text format's files are made of these.
public struct JSONLine {
    private var text = "{"
    private var empty = true

    public init() {}

    private mutating func key(_ name: String) {
        if !empty { text += "," }
        empty = false
        text += JSONValue.quote(name)
        text += ":"
    }

    public mutating func add(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        text += JSONValue.quote(value)
    }

    /// Leaves out an empty string as well as nil.
    public mutating func addNonEmpty(_ name: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        add(name, value)
    }

    public mutating func add(_ name: String, _ value: Double?) {
        guard let value else { return }
        key(name)
        text += value.isFinite ? NumberText.format(value) : "null"
    }

    public mutating func add(_ name: String, _ value: Int64?) {
        guard let value else { return }
        key(name)
        text += String(value)
    }

    /// When and by whom a record last changed, where known.
    public mutating func add(stamp: TextFormat.Stamp) {
        add("changed_at", stamp.at)
        add("changed_by", stamp.by)
    }

    /// Writes `true`, or nothing for false: a flag left out is off.
    public mutating func addFlag(_ name: String, _ value: Bool) {
        guard value else { return }
        key(name)
        text += "true"
    }

    public mutating func add(_ name: String, strings: [String]) {
        guard !strings.isEmpty else { return }
        key(name)
        text += "[" + strings.map(JSONValue.quote).joined(separator: ",") + "]"
    }

    /// An array of objects, each already a `JSONLine`.
    public mutating func add(_ name: String, objects: [JSONLine]) {
        guard !objects.isEmpty else { return }
        key(name)
        text += "[" + objects.map(\.object).joined(separator: ",") + "]"
    }

    public mutating func add(_ name: String, object: JSONLine?) {
        guard let object else { return }
        key(name)
        text += object.object
    }

    /// The object without a line break.
    public var object: String { text + "}" }

    /// The object and its line break.
    public var line: String { text + "}\n" }
}
