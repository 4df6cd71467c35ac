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
    /// The file naming the folder a staging folder was made in (its device
    /// and inode): a staging folder that came from elsewhere (committed to
    /// git by mistake, copied with the folder) is never carried out.
    static let madeFor = "folder"

    /// The folder's identity as `madeFor` holds it; nil where it cannot be read.
    static func identity(of folder: URL) -> String? {
        (try? FileSystem.status(folder.path)).map { "\($0.device):\($0.inode)\n" }
    }

    /// Names the folder a new staging folder was made for.
    static func markMadeFor(_ staging: URL, in folder: URL) throws {
        guard let identity = identity(of: folder) else {
            throw EvidenceError.io(path: folder.path, reason: "cannot be read")
        }
        do {
            let file = try FileSystem.open(staging.appendingPathComponent(madeFor).path, [.write, .create, .exclusive])
            defer { file.close() }
            try file.write(Array(identity.utf8))
            try file.sync()
        } catch {
            throw EvidenceError.io(path: staging.path, reason: "cannot be written (\(error))")
        }
    }

    /// The staging folders in `folder` that were not made there: never
    /// carried out, and named so that a person removes them.
    public static func foreign(in folder: URL) -> [String] {
        let here = identity(of: folder)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { name in
            guard name.hasPrefix(prefix) else { return false }
            let staging = folder.appendingPathComponent(name)
            // The name is whole once its line ends: one killed while it wrote it (an empty or cut file) is ours.
            guard let made = try? String(contentsOf: staging.appendingPathComponent(madeFor), encoding: .utf8),
                made.hasSuffix("\n")
            else {
                // Killed before it named its folder, it holds no ready list and is dropped.
                return FileManager.default.fileExists(atPath: staging.appendingPathComponent(readyList).path)
            }
            return made != here
        }.sorted()
    }

    /// Finishes or drops the exports into `folder` whose process has ended,
    /// under the folder's lock; returns how many it finished.
    @discardableResult
    public static func recover(_ folder: URL) throws -> Int {
        let leftovers = Leftovers.abandoned(in: folder.path, prefix: prefix)
        guard !leftovers.isEmpty else { return 0 }
        let lock = try FolderLock(folder)
        defer { lock.release() }
        var finished = 0
        let foreign = Set(foreign(in: folder))
        for name in Leftovers.abandoned(in: folder.path, prefix: prefix) where !foreign.contains(name) {
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
