import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another program run to its end with `posix_spawn`: its standard input
/// `/dev/null`, its standard output kept or written to a file as it comes,
/// its standard error kept (the last 64 KB). Both outputs are read by one
/// loop (`poll`), so neither can fill its pipe and stop the program while
/// the other is read.
struct Subprocess {
    struct Ran {
        var status: Int32
        var output: Data
        var error: String
    }

    /// Runs `executable` (a path) with `arguments`. Its output goes to `sink`
    /// when given, else is kept up to `limit` bytes (more is an error); after
    /// `seconds`, when given, the program is killed.
    static func run(
        _ executable: String, _ arguments: [String], sink: (descriptor: OpenFile, path: String)? = nil, limit: Int = 0,
        seconds: Double? = nil
    ) throws -> Ran {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0 else { throw EvidenceError.io(path: executable, reason: "cannot be run (\(SystemCall.words(errno)))") }
        guard pipe(&errorPipe) == 0 else {
            let code = errno
            close(outputPipe[0])
            close(outputPipe[1])
            throw EvidenceError.io(path: executable, reason: "cannot be run (\(SystemCall.words(code)))")
        }
        let ownReadEnds = [outputPipe[0], errorPipe[0]]
        for end in ownReadEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }

        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        for end in [outputPipe[0], outputPipe[1], errorPipe[0], errorPipe[1]] {
            posix_spawn_file_actions_addclose(&actions, end)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(outputPipe[1])
        close(errorPipe[1])
        guard spawned == 0 else {
            for end in ownReadEnds { close(end) }
            throw EvidenceError.io(path: executable, reason: "cannot be run (\(SystemCall.words(spawned)))")
        }

        var kept = Data()
        var errorTail = Data()
        var failure: Error?
        var open = ownReadEnds
        let deadline = seconds.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) }
        var killed = false
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while !open.isEmpty {
            var watched = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var wait: Int32 = -1
            if let deadline, !killed {
                let left = ContinuousClock.now.duration(to: deadline)
                wait = left <= .zero ? 0 : Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            }
            let ready = poll(&watched, nfds_t(watched.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                failure = failure ?? EvidenceError.io(path: executable, reason: "cannot be read (\(SystemCall.words(errno)))")
                break
            }
            if ready == 0 {
                if let deadline, !killed, ContinuousClock.now >= deadline {
                    kill(pid, SIGKILL)
                    killed = true
                }
                continue
            }
            for entry in watched where entry.revents != 0 {
                let count = read(entry.fd, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                    continue
                }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                if entry.fd == errorPipe[0] {
                    errorTail.append(contentsOf: chunk)
                    if errorTail.count > 65_536 { errorTail = errorTail.suffix(65_536) }
                } else if failure == nil {
                    if let sink {
                        do {
                            try sink.descriptor.write(chunk)
                        } catch {
                            failure = EvidenceError.io(path: sink.path, reason: "cannot be written (\(error))")
                        }
                    } else if kept.count + count > limit {
                        failure = EvidenceError.io(path: executable, reason: "printed more than \(limit) bytes")
                    } else {
                        kept.append(contentsOf: chunk)
                    }
                }
            }
        }
        for end in open { close(end) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let failure { throw failure }
        return Ran(status: exitStatus(status), output: kept, error: String(decoding: errorTail, as: UTF8.self))
    }

    /// The exit status from `waitpid`'s word; a signal's number plus 128 when killed.
    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
