import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// What the tool needs of the operating system, on its calls rather than on
// Foundation's full module (whose Process, FileHandle, NSLock and Thread
// bring ICU's data with them): a descriptor that closes itself, a lock, a
// thread, and words for an error.

/// A file descriptor this process opened, closed when it is let go.
public final class OpenFile: @unchecked Sendable {
    /// The descriptor; -1 once closed.
    public private(set) var descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    public func close() {
        guard descriptor >= 0 else { return }
        _ = systemClose(descriptor)
        descriptor = -1
    }

    /// Writes every byte of `bytes`; throws the system's error.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try SystemCall.writeAll(descriptor, bytes)
    }
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
}

/// An error a system call gave: its `errno`, in the system's words.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) { self.code = code }

    public var description: String { SystemCall.words(code) }
}

public enum SystemCall {
    /// The system's words for an `errno` value: "No such file or directory".
    public static func words(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Words for an error a file operation threw: the system's for a
    /// `POSIXError` (also under a `CocoaError`), the error's own otherwise.
    public static func words(for error: any Error) -> String {
        if let system = error as? SystemError { return system.description }
        if let posix = error as? POSIXError { return words(posix.code.rawValue) }
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.underlying as? POSIXError { return words(posix.code.rawValue) }
            // The codes FileManager and Data give without a system error under them.
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return words(ENOENT)
            case .fileReadNoPermission, .fileWriteNoPermission: return words(EACCES)
            case .fileWriteFileExists: return words(EEXIST)
            case .fileWriteOutOfSpace: return words(ENOSPC)
            case .fileWriteVolumeReadOnly: return words(EROFS)
            default: return "file operation error \(cocoa.code.rawValue)"
            }
        }
        return String(describing: error)
    }

    /// Writes every byte to `descriptor`, again after an interruption or a short write.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = write(descriptor, base, left)
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError(code: errno)
            }
            left -= written
            base += written
        }
    }

    /// The user's home folder: `$HOME`, else the password database's entry.
    public static func homeFolder(environment: [String: String]) -> String? {
        if let home = environment["HOME"], !home.isEmpty { return home }
        guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return nil }
        return String(cString: folder)
    }

    /// The path of the running program (`/proc/self/exe`), nil where unknown.
    public static func executablePath() -> String? {
        linkTarget("/proc/self/exe")
    }

    /// Where the symbolic link at `path` points, nil where it is none.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A mutual exclusion lock over the threads of this process.
public final class ThreadLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A thread of its own for `body`, started at once and not joined: whoever
/// waits for its work waits on what the work signals.
public enum DetachedThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// `stackSize` in bytes, else the system's default.
    public static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let started = pthread_create(&thread, &attributes, { pointer in
            #if canImport(Glibc)
                let work = Unmanaged<Work>.fromOpaque(pointer!).takeRetainedValue()
            #else
                let work = Unmanaged<Work>.fromOpaque(pointer).takeRetainedValue()
            #endif
            work.body()
            return nil
        }, work)
        // A process that cannot start a thread cannot do the work at all.
        precondition(started == 0, "cannot start a thread: \(SystemCall.words(started))")
    }
}

/// A lock with a condition to wait on: `wait()` (holding the lock) lets it go
/// until `signal()` or `broadcast()`, then holds it again.
public final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    public func wait() { pthread_cond_wait(condition, mutex) }

    public func signal() { pthread_cond_signal(condition) }

    public func broadcast() { pthread_cond_broadcast(condition) }
}
