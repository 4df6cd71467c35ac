#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// One guided session per environment, tester and day at a time: an
/// exclusive `flock` on a small file beside the store
/// (`.STORE.sessions/KEY.lock`), held for the session's life and let go by
/// the kernel however the process ends. A second session is refused, naming
/// the open one from what its holder wrote in the file.
final class SessionLock {
    private var file: OpenFile?

    init(store: Store, environment: EnvironmentSpec, tester: String, day: String) throws {
        let folder = store.folder.appendingPathComponent("." + URL(fileURLWithPath: store.path).lastPathComponent + ".sessions")
        do {
            try FileSystem.makeFolder(folder.path)
        } catch where error != .exists {
            throw EvidenceError.io(path: folder.path, reason: "cannot be created (\(error))")
        } catch {
            // Made already: by an earlier session.
        }
        let who = "\(environment.description), tester \(tester.isEmpty ? "(none)" : tester), \(day)"
        let path = folder.appendingPathComponent(String(SHA256.hex(Data(who.utf8)).prefix(24)) + ".lock").path
        let file: OpenFile
        do {
            file = try FileSystem.open(path, [.readWrite, .create])
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be opened (\(error))")
        }
        do {
            try file.lock(wait: false)
        } catch {
            file.close()
            guard error == .wouldBlock else { throw EvidenceError.io(path: path, reason: "cannot be locked (\(error))") }
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingWhitespaceAndNewlines() ?? ""
            throw EvidenceError.refused(
                reason: "a session is open already for \(who)"
                    + (holder.isEmpty ? "" : " (\(ControlCharacters.escaped(holder, keepingLineBreaks: false)))")
                    + "; finish it (or quit it) before starting another, so that no claim is answered twice in one run")
        }
        self.file = file
        let note = Array("process \(ThisProcess.id), started \(store.clock.timestamp())\n".utf8)
        try? file.truncate(to: 0)
        try? file.write(note, at: 0)
    }

    func release() {
        guard let file else { return }
        try? file.truncate(to: 0)
        file.unlock()
        file.close()
        self.file = nil
    }

    deinit { release() }
}
