#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A team's export folder is a boundary. Its contents arrive in teammates'
/// commits, so export, import and sync read, write and remove only the
/// format's own entries inside it, and only where each is of its kind: a
/// record file a regular file, a folder of records a folder. A link among
/// them (which could point anywhere, `/etc` included) or an entry of the
/// wrong kind stops the command before it moves or reads anything.
enum TeamFolder {
    /// Checks every entry of the format in `folder`.
    static func checkParts(_ folder: URL) throws {
        let manager = FileManager.default
        for name in ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() {
            let path = folder.appendingPathComponent(name).path
            if holdsFormatEntries(name) {
                guard let status = try? FileSystem.linkStatus(path) else { continue }
                guard status.kind == .folder else {
                    throw wrongKind(path, status, expected: "the folder an export keeps its \(name == TextFormat.attachmentsFolder ? "attached files" : "records") in")
                }
                for inner in ((try? manager.contentsOfDirectory(atPath: path)) ?? []).sorted() where TextFormat.isFormatEntry(name + "/" + inner) {
                    try checkFile(path + "/" + inner)
                }
            } else if TextFormat.isFormatEntry(name) {
                try checkFile(path)
            }
        }
    }

    /// Whether an entry at the top of an export is one of its folders.
    private static func holdsFormatEntries(_ name: String) -> Bool {
        name == TextFormat.attachmentsFolder || TextFormat.Part.allCases.contains { $0.isFolder && $0.name == name }
    }

    private static func checkFile(_ path: String) throws {
        guard let status = try? FileSystem.linkStatus(path), status.kind != .regular else { return }
        throw wrongKind(path, status, expected: "a regular file")
    }

    private static func wrongKind(_ path: String, _ status: FileStatus, expected: String) -> EvidenceError {
        if status.kind == .symbolicLink {
            return .badFile(
                path: path, location: nil,
                reason: "is a symbolic link, not \(expected); evidence never follows a link out of a team folder. "
                    + "Replace the link with what it points to (or remove it), then run the command again")
        }
        return .badFile(
            path: path, location: nil,
            reason: "is \(status.kindPhrase ?? "a regular file"), not \(expected); move it out of the folder, then run the command again")
    }
}
