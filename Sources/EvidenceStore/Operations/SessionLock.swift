import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// One guided session per environment, tester and day at a time: an
/// exclusive `flock` on a small file beside the store
/// (`.STORE.sessions/KEY.lock`), held for the session's life and let go by
/// the kernel however the process ends. A second session is refused, naming
/// the open one from what its holder wrote in the file.
final class SessionLock {
    private var descriptor: Int32

    init(store: Store, environment: EnvironmentSpec, tester: String, day: String) throws {
        let folder = store.folder.appendingPathComponent("." + URL(fileURLWithPath: store.path).lastPathComponent + ".sessions")
        if mkdir(folder.path, 0o755) != 0 && errno != EEXIST {
            throw EvidenceError.io(path: folder.path, reason: "cannot be created (\(String(cString: strerror(errno))))")
        }
        let who = "\(environment.description), tester \(tester.isEmpty ? "(none)" : tester), \(day)"
        let path = folder.appendingPathComponent(String(SHA256.hex(Data(who.utf8)).prefix(24)) + ".lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw EvidenceError.io(path: path, reason: "cannot be opened (\(String(cString: strerror(errno))))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingWhitespaceAndNewlines() ?? ""
            close(descriptor)
            descriptor = -1
            guard busy else { throw EvidenceError.io(path: path, reason: "cannot be locked (\(String(cString: strerror(errno))))") }
            throw EvidenceError.refused(
                reason: "a session is open already for \(who)"
                    + (holder.isEmpty ? "" : " (\(ControlCharacters.escaped(holder, keepingLineBreaks: false)))")
                    + "; finish it (or quit it) before starting another, so that no claim is answered twice in one run")
        }
        let note = Array("process \(getpid()), started \(store.clock.timestamp())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = note.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    func release() {
        guard descriptor >= 0 else { return }
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
