#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// The health of a store: SQLite's own integrity checks, foreign keys, the
/// schema version, and the attachments kept beside it.
public struct StoreCheck: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var name: String
        public var ok: Bool
        public var detail: String
    }

    public var items: [Item]

    public var ok: Bool { items.allSatisfy(\.ok) }

    /// One line a check: "ok" or "FAIL", its name, and what it found.
    public var text: String {
        let width = items.map(\.name.count).max() ?? 0
        return items.map { ($0.ok ? "ok    " : "FAIL  ") + $0.name.padded(to: width) + "  " + $0.detail + "\n" }.joined()
    }

    public static func run(_ store: Store, migrator: Migrator = Migrator()) throws -> StoreCheck {
        let reader = store.reader
        var items: [Item] = []

        // A check SQLite cannot finish (a damaged page or index) is a failed check, not an error.
        func attempt(_ name: String, _ body: () throws -> Item) throws {
            do {
                items.append(try body())
            } catch let error as DatabaseError {
                items.append(Item(name: name, ok: false, detail: "SQLite could not finish it: \(error.message)"))
            }
        }
        try attempt("quick_check") {
            let quick = try reader.quickCheck()
            return Item(name: "quick_check", ok: quick == ["ok"], detail: summary(quick))
        }
        try attempt("integrity_check") {
            let integrity = try reader.integrityCheck()
            return Item(name: "integrity_check", ok: integrity == ["ok"], detail: summary(integrity))
        }
        try attempt("foreign_key_check") {
            let violations = try reader.foreignKeyViolations()
            return Item(
                name: "foreign_key_check", ok: violations.count == 0,
                detail: violations.count == 0
                    ? "ok" : "\(violations.count) rows break foreign keys in " + violations.tables.joined(separator: ", "))
        }

        let version = try store.schemaVersion
        let status = try store.migrationStatus(migrator: migrator)
        let applied = status.filter { $0.appliedAt != nil }.map(\.version)
        let expected = Array(1...max(version, 1)).filter { $0 <= version }
        var schemaOK = version == migrator.latestVersion && applied == expected
        var schemaDetail = "version \(version) of \(migrator.latestVersion)"
        if version < migrator.latestVersion {
            schemaDetail += "; run 'evidence init' to upgrade"
        } else if applied != expected {
            schemaDetail += "; schema_migrations lists versions \(applied.map(String.init).joined(separator: ", "))"
        }
        if version > migrator.latestVersion {
            schemaOK = false
        }
        items.append(Item(name: "schema", ok: schemaOK, detail: schemaDetail))

        // A migration whose text changed after this store applied it: the schema
        // may not be what the file in migrations/ now says.
        let changed = status.filter(\.changedSinceApplied)
        let unrecorded = status.filter { $0.appliedAt != nil && $0.recordedSHA256 == nil }
        var digestDetail = changed.isEmpty ? "every applied migration matches its text" : changed.map { entry in
            String(entry.version).zeroPadded(to: 4) + "_\(entry.name) changed after it was applied (applied "
                + "\(entry.recordedSHA256?.prefix(12) ?? ""), now \(entry.bundledSHA256?.prefix(12) ?? ""))"
        }.joined(separator: "; ")
        if changed.isEmpty && !unrecorded.isEmpty {
            digestDetail += "; \(unrecorded.count) applied before digests were kept"
        }
        items.append(Item(name: "migrations", ok: changed.isEmpty, detail: digestDetail))

        try attempt("attachments") {
            let (checked, problems) = try store.verifyAttachments()
            // A file several results attach is one problem here; `attachments verify` lists each result.
            var seen: Set<String> = []
            let files = problems.map { "\($0.path) \($0.kind.rawValue)" }.filter { seen.insert($0).inserted }
            return Item(
                name: "attachments", ok: problems.isEmpty,
                detail: problems.isEmpty
                    ? "\(NumberText.counted(checked, "file")) unchanged"
                    : files.prefix(5).joined(separator: "; ") + (files.count > 5 ? "; and \(files.count - 5) more" : ""))
        }

        // What every writer refuses, yet an older version or a hand edit let in.
        try attempt("text") {
            let cells = try reader.controlCharacterCells()
            let shown = cells.prefix(5).map { cell in
                "\(cell.table).\(cell.column): \(NumberText.counted(cell.count, "row")) "
                    + (cell.count == 1 ? "holds" : "hold") + " a control character (such as '\(around(firstControlIn: cell.example))')"
            }
            return Item(
                name: "text", ok: cells.isEmpty,
                detail: cells.isEmpty
                    ? "no control characters" : shown.joined(separator: "; ") + (cells.count > 5 ? "; and \(cells.count - 5) more" : ""))
        }
        try attempt("numbers") {
            let numbers = try reader.outOfRangeNumbers()
            return Item(
                name: "numbers", ok: numbers.isEmpty,
                detail: numbers.isEmpty
                    ? "every measurement within ±\(NumberText.format(MeasurementDraft.largest))"
                    : numbers.map {
                        "\($0.table).\($0.column): \(NumberText.counted($0.count, "row")) outside the range (largest size \(size($0.example)))"
                    }.joined(separator: "; ") + "; a measurement holds " + MeasurementDraft.range)
        }

        let mode = try store.journalMode()
        items.append(Item(name: "journal_mode", ok: mode == "wal", detail: mode))

        let links = store.linkCount
        items.append(Item(
            name: "one_name", ok: links == 1,
            detail: links == 1 ? "the file has one name" : Store.hardLinkReason(links, path: store.path)))
        return StoreCheck(items: items)
    }

    /// Up to 30 characters either side of a text's first control character, the control escaped.
    private static func around(firstControlIn text: String) -> String {
        let characters = Array(text.unicodeScalars)
        let at = characters.firstIndex { ControlCharacters.isControl($0) && $0 != "\n" && $0 != "\t" && $0 != "\r" } ?? 0
        var view = String.UnicodeScalarView()
        view.append(contentsOf: characters[max(0, at - 30)..<min(characters.count, at + 30)])
        return (at > 30 ? "…" : "") + ControlCharacters.escaped(String(view), keepingLineBreaks: false)
            + (at + 30 < characters.count ? "…" : "")
    }

    /// A size as people read it: plain digits up to 10^15, a power of ten above.
    private static func size(_ number: Double) -> String {
        guard number.isFinite else { return "infinite" }
        guard number > MeasurementDraft.largest * 10 else { return NumberText.format(number) }
        return "about 10^\(Int(Math.log10(number).rounded(.down)))"
    }

    /// The first problems SQLite reports, on one line. A row may hold several
    /// lines, under a "*** in database main ***" heading.
    private static func summary(_ rows: [String]) -> String {
        guard rows != ["ok"] else { return "ok" }
        let lines = rows.flatMap { $0.split(whereSeparator: \.isNewline).map(String.init) }
            .filter { !$0.hasPrefix("*** in database") }
        let shown = lines.prefix(5).joined(separator: "; ")
        return lines.count > 5 ? shown + "; and \(lines.count - 5) more" : shown
    }
}
