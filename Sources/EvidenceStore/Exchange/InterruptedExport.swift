#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// An export into a folder is staged in a hidden folder inside it
/// (`.evidence-export-PID-RANDOM`), then put in place file by file: once every
/// file is staged and synced, a `ready` list of the moves and removals is
/// written, and from then on the export is finished by whoever comes next
/// (the next export, import or sync), as SQLite's next reader rolls back a hot
/// journal. A staging folder without its list is dropped: nothing of the
/// folder was touched yet. Only the format's own files are ever moved or
/// removed; whatever else the folder holds stays where it is, whenever the
/// export is killed.
public enum InterruptedExport {
    /// The staging folder's name before its process id.
    public static let prefix = ".evidence-export-"
    /// The list a staged export writes once it is whole.
    static let readyList = "ready"

    /// Finishes or drops the exports into `folder` whose process has ended,
    /// under the folder's lock; returns how many it finished.
    @discardableResult
    public static func recover(_ folder: URL) throws -> Int {
        let leftovers = Leftovers.abandoned(in: folder.path, prefix: prefix)
        guard !leftovers.isEmpty else { return 0 }
        let lock = try FolderLock(folder)
        defer { lock.release() }
        var finished = 0
        for name in Leftovers.abandoned(in: folder.path, prefix: prefix) {
            let staging = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: staging.appendingPathComponent(readyList).path) {
                try finish(staging, into: folder)
                finished += 1
            } else {
                try? FileManager.default.removeItem(at: staging)
            }
        }
        return finished
    }

    /// Writes the list that makes a staged export whole: the files to move
    /// into place and the format's files to remove.
    static func markReady(_ staging: URL, moves: [String], removals: [String]) throws {
        let text = (moves.map { "move " + $0 } + removals.map { "remove " + $0 }).joined(separator: "\n") + "\n"
        let path = staging.appendingPathComponent(readyList).path
        let temporary = path + ".partial"
        do {
            let file = try FileSystem.open(temporary, [.write, .create, .truncate])
            defer { file.close() }
            try file.write(Array(text.utf8))
            try file.sync()
            try FileSystem.rename(temporary, to: path)
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be written (\(error))")
        }
        FileSystem.syncFolder(staging.path)
    }

    /// Puts a ready export in place: each staged file renamed over its old
    /// version, the listed files of the format removed, the staging folder
    /// removed last. Running it again after a crash finishes what is left.
    static func finish(_ staging: URL, into folder: URL) throws {
        let list = (try? String(contentsOf: staging.appendingPathComponent(readyList), encoding: .utf8)) ?? ""
        var folders: Set<String> = []
        for entry in list.split(separator: "\n") {
            let parts = entry.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, TextFormat.isFormatEntry(parts[1]) else { continue }
            let relative = parts[1]
            let destination = folder.appendingPathComponent(relative)
            if parts[0] == "move" {
                let source = staging.appendingPathComponent(relative)
                // Moved already, before a crash.
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                let parent = destination.deletingLastPathComponent()
                if !FileManager.default.fileExists(atPath: parent.path) {
                    do {
                        try FileSystem.makeFolder(parent.path)
                    } catch where error != .exists {
                        throw EvidenceError.io(path: parent.path, reason: "cannot be created (\(error))")
                    } catch {
                        // Made meanwhile.
                    }
                }
                do {
                    try FileSystem.rename(source.path, to: destination.path)
                } catch {
                    throw EvidenceError.io(path: destination.path, reason: "cannot be written (\(error))")
                }
                FaultPoint.reached("export.moving")
                folders.insert(parent.path)
            } else if parts[0] == "remove" {
                FileSystem.remove(destination.path)
                folders.insert(destination.deletingLastPathComponent().path)
            }
        }
        for path in folders.sorted() { FileSystem.syncFolder(path) }
        try? FileManager.default.removeItem(at: staging)
        FileSystem.syncFolder(folder.path)
    }

    /// An exclusive lock on a folder (flock on the folder itself, which leaves
    /// no file in it): one export or recovery at a time.
    final class FolderLock {
        private var file: OpenFile?

        init(_ folder: URL) throws {
            let file: OpenFile
            do {
                file = try FileSystem.open(folder.path, [.read, .folder])
            } catch {
                throw EvidenceError.io(path: folder.path, reason: "cannot be opened (\(error))")
            }
            do {
                try file.lock()
            } catch {
                throw EvidenceError.io(path: folder.path, reason: "cannot be locked (\(error))")
            }
            self.file = file
        }

        func release() {
            file?.unlock()
            file?.close()
            file = nil
        }

        deinit { release() }
    }
}
