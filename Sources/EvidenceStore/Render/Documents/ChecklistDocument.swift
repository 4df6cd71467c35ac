/// A document's checklist as a task list: an item is ticked only when every
/// claim linked to it is verified, or, with no claim linked, when someone
/// checked it by hand; an unticked one says why, a hand-checked one who and why.
public struct ChecklistDocument {
    public var checklists: [ChecklistReport]
    public var stamp: String?

    public init(checklists: [ChecklistReport], stamp: String?) {
        self.checklists = checklists
        self.stamp = stamp
    }

    public func write(to writer: DocumentWriter) throws {
        if checklists.isEmpty {
            writer.heading(1, "Checklists")
            writer.paragraph("No checklists yet.")
        }
        for list in checklists {
            writer.heading(1, list.title)
            if let stamp { writer.paragraph("Generated " + stamp + ".") }
            writer.beginList()
            for item in list.items {
                writer.beginItem(checked: item.ticked)
                writer.prose(item.text)
                if let why = item.why {
                    writer.text(" (")
                    writer.text(why)
                    writer.text(")")
                }
                writer.endItem()
            }
            writer.endList()
        }
        try writer.finish()
    }
}
