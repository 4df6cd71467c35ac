/// What names each record that people edit, in the text format and in the
/// store's base of the next import (`exchanged_records`).
extension TextFormat {
    /// The kinds of record people edit, as the store's base names them.
    public enum EditableKind: String, Sendable, CaseIterable {
        case source, capability, claim, lack, checklist, document
        case checklistItem = "checklist item"
    }
}

extension TextFormat.Source {
    public var key: String { url }
}

extension TextFormat.Capability {
    public var key: String { name }
}

extension TextFormat.Lack {
    /// Kind, model, Xcode build and capability, joined by line feeds.
    public var key: String { [kind, model, toolBuild, capability].joined(separator: "\n") }
}

extension TextFormat.Checklist {
    public var key: String { document }
}

extension TextFormat.Document {
    public var key: String { document }
}
