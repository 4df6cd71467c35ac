#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sets a git repository up to merge an export folder record by record: the
/// folder's `.gitattributes` (committed, so every clone has it) sends its
/// files to the `evidence` merge driver, and the repository's own config
/// (kept per clone, never committed) says how to run it.
public enum GitSetup {
    /// The attributes lines, under a comment that says where they come from.
    public static let attributes = """
        # Written by 'evidence git-setup': git merges the text format record by record.
        *.jsonl merge=evidence
        format.json merge=evidence

        """

    public struct Outcome: Sendable {
        /// The repository's top folder.
        public var repository: String
        /// The attributes file, and whether it was written or already held the lines.
        public var attributesFile: String
        public var wroteAttributes: Bool
        /// The driver command now in the repository's config.
        public var driver: String
    }

    /// `executable` is the path git runs as the driver: this binary's.
    /// `store`, the store's path: where it lies inside the repository, its
    /// file and its attachments are kept out of git (`.gitignore` at the top).
    public static func run(folder: URL, executable: String, store: String? = nil) throws -> Outcome {
        var isFolder: Bool = false
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw EvidenceError.io(path: folder.path, reason: "cannot be created (\(SystemCall.words(for: error)))")
            }
        } else if !isFolder {
            throw EvidenceError.io(path: folder.path, reason: "is a file, not a folder")
        }
        let top = try git(["-C", folder.path, "rev-parse", "--show-toplevel"], at: folder.path)
            .trimmingWhitespaceAndNewlines()
        let file = folder.appendingPathComponent(".gitattributes").path
        let wrote = try addAttributes(to: file)
        if let store { try ignore(store: store, top: top) }
        let driver = shellQuoted(executable) + " merge-file %O %A %B %P"
        _ = try git(["-C", folder.path, "config", "merge.evidence.name", "evidence: text format records by key"], at: folder.path)
        _ = try git(["-C", folder.path, "config", "merge.evidence.driver", driver], at: folder.path)
        return Outcome(repository: top, attributesFile: file, wroteAttributes: wrote, driver: driver)
    }

    /// Adds the attribute lines a `.gitattributes` lacks, through the one
    /// safe rewrite of a person's file: its own lines, bytes and encoding,
    /// line ends, hard links and mode stay as they were. A link is refused:
    /// git does not read one. Returns whether it wrote.
    static func addAttributes(to path: String) throws -> Bool {
        try addLines(attributes, to: path)
    }

    /// Adds the lines of `block` (a comment, then lines) that a git file
    /// (`.gitattributes`, `.gitignore`) lacks, through the one safe rewrite.
    static func addLines(_ block: String, to path: String) throws -> Bool {
        let lines = block.split(separator: "\n").map { Array($0.utf8) }
        if let status = try? FileSystem.linkStatus(path), status.kind == .symbolicLink {
            throw EvidenceError.io(
                path: path,
                reason: "is a link, and git (2.32 and later) does not read a \(PathText.name(of: path)) that is a link; "
                    + "make it a file, then run git-setup again")
        }
        let existing: UserFile
        do {
            existing = try UserFile.read(path)
        } catch EvidenceError.fileMissing {
            let sink = try TextSink(path: path)
            sink.write(block)
            try sink.close()
            return true
        }
        var bytes = [UInt8](existing.data)
        let crlf = bytes.count > 1 && bytes.firstIndex(of: 0x0A).map { $0 > 0 && bytes[$0 - 1] == 0x0D } == true
        let have = Set(bytes.split(separator: 0x0A).map { Array(trimmed($0)) })
        let missing = lines.filter { !have.contains($0) && $0.first != UInt8(ascii: "#") }
        guard !missing.isEmpty else { return false }
        let end: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
        if let last = bytes.last, last != 0x0A { bytes += end }
        if !have.contains(lines[0]) { bytes += lines[0] + end }
        for line in missing { bytes += line + end }
        try existing.replace(bytes: bytes, by: "git-setup")
        return true
    }

    /// Keeps a store inside the repository out of git: its file, the files
    /// SQLite keeps beside it, and its copies of attached files (the export
    /// carries those). A store outside the repository needs nothing.
    static func ignore(store: String, top: String) throws {
        let real = URL(fileURLWithPath: store).resolvingSymlinksInPath().standardizedFileURL.path
        let root = URL(fileURLWithPath: top).resolvingSymlinksInPath().standardizedFileURL.path + "/"
        guard real.hasPrefix(root) else { return }
        let relative = String(real.dropFirst(root.count))
        let folder = PathText.folder(of: relative)
        let attachments = (folder.isEmpty || folder == "." ? "" : folder + "/") + TextFormat.attachmentsFolder + "/"
        let block = "# Written by 'evidence git-setup': each person's store stays out of git; the export is shared.\n"
            + ["/\(relative)", "/\(relative)-wal", "/\(relative)-shm", "/\(attachments)"].joined(separator: "\n") + "\n"
        _ = try addLines(block, to: root + ".gitignore")
    }

    /// A line without the blanks and carriage return around it.
    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var line = line
        while let first = line.first, first == 0x20 || first == 0x09 { line.removeFirst() }
        while let last = line.last, last == 0x20 || last == 0x09 || last == 0x0D { line.removeLast() }
        return line
    }

    /// A path as a POSIX shell reads it back, in single quotes.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingEvery("'", with: "'\\''") + "'"
    }

    /// Runs git and returns what it printed; throws with git's words when it fails.
    private static func git(_ arguments: [String], at path: String) throws -> String {
        let ran: ChildProcess.Ran
        do {
            ran = try MachineTools.run("/usr/bin/env", ["git"] + arguments, limit: 16 << 20, seconds: 60)
        } catch EvidenceError.io(_, let reason) {
            throw EvidenceError.io(path: path, reason: "git \(reason)")
        }
        guard ran.status == 0 else {
            let words = ran.error.trimmingWhitespaceAndNewlines()
            throw EvidenceError.io(path: path, reason: "not in a git repository, or git refused: \(words)")
        }
        let printed = ran.output
        return String(decoding: printed, as: UTF8.self)
    }
}
